/**
 * Admission webhooks: the MutatingAdmissionWebhook and ValidatingAdmissionWebhook
 * plugins, calling the webhooks of Mutating/ValidatingWebhookConfiguration
 * objects through a WebhookPort. `admissionWebhookPlugins` builds the pair
 * sharing each request's deadline; the mutating one goes with the other
 * mutating plugins, the validating one last among the validating ones.
 */
import type { WebhookPort } from '../../ports/webhook.port';
import { DEFAULT_REQUEST_TIMEOUT_MS, RequestDeadlines } from './invoke';
import { MutatingAdmissionWebhook } from './mutating';
import { ValidatingAdmissionWebhook } from './validating';
import type { WebhookEnv } from './webhook-source';

export { MutatingAdmissionWebhook } from './mutating';
export { ValidatingAdmissionWebhook } from './validating';
export { RequestDeadlines, DEFAULT_REQUEST_TIMEOUT_MS, type WebhookPluginOptions } from './invoke';
export type { WebhookEnv, WebhookRegistry } from './webhook-source';

export interface AdmissionWebhookOptions {
  /** What one request has for all its webhook calls (upstream's --request-timeout, default 60 s). */
  requestTimeoutMs?: number;
}

export function admissionWebhookPlugins(
  env: WebhookEnv,
  webhooks: WebhookPort,
  options: AdmissionWebhookOptions = {},
): { mutating: MutatingAdmissionWebhook; validating: ValidatingAdmissionWebhook } {
  const deadlines = new RequestDeadlines(options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
  return {
    mutating: new MutatingAdmissionWebhook(env, webhooks, { deadlines }),
    validating: new ValidatingAdmissionWebhook(env, webhooks, { deadlines }),
  };
}
