/**
 * One webhook call through the WebhookPort: the deadline (the webhook's
 * timeoutSeconds, cut to what the request has left) is passed as upstream's
 * `?timeout=` query parameter too, and every way of getting no usable answer
 * becomes a CallingWebhookError with upstream's reason text:
 * `failed to call webhook: Post "<url>": <why>` for transport failures (Go's
 * wording for the common ones), `received invalid webhook response: <why>`
 * for answers that fail VerifyAdmissionResponse.
 */
import { goSeconds, goTransportReason, WebhookCallError, webhookUrl, type WebhookPort } from '../../ports/webhook.port';
import type { Webhook } from './configuration';
import { InvalidResponse, UndecodableAnswer, verifyResponse, type AdmissionResponse, type ReviewVersion } from './review';
import { CallingWebhookError } from './webhook-errors';

/** The URL called: the webhook's, with the deadline in whole seconds rounded up, as upstream's rest client adds it. */
function callUrl(hook: Webhook, timeoutMs: number): string {
  const url = new URL(webhookUrl(hook.client));
  url.searchParams.set('timeout', goSeconds(Math.max(1, Math.ceil(timeoutMs / 1000))));
  return url.toString();
}

export interface Call {
  hook: Webhook;
  version: ReviewVersion;
  uid: string;
  review: Record<string, unknown>;
  mutating: boolean;
  /** What is left of the webhook's and the request's time, in ms. */
  timeoutMs: number;
}

export async function callWebhook(port: WebhookPort, call: Call): Promise<AdmissionResponse> {
  const { hook } = call;
  let url: string;
  try {
    url = callUrl(hook, call.timeoutMs);
  } catch (e) {
    throw new CallingWebhookError(hook.name, `could not get REST client: ${(e as Error).message}`);
  }
  let answer: unknown;
  try {
    if (call.timeoutMs <= 0) throw new WebhookCallError('timeout', 'context deadline exceeded');
    answer = await port.post({ url, ...(hook.client.caBundle ? { caBundle: hook.client.caBundle } : {}) }, call.review, call.timeoutMs);
  } catch (e) {
    if (!(e instanceof WebhookCallError)) throw e;
    // Transport failures are url.Errors in Go (`Post "<url>": ...`); a status or an undecodable body is not.
    const transport = e.failure === 'timeout' || e.failure === 'unreachable';
    throw new CallingWebhookError(hook.name, `failed to call webhook: ${transport ? `Post "${url}": ${goTransportReason(e.message)}` : e.message}`);
  }
  try {
    return verifyResponse(call.version, call.uid, call.mutating, answer);
  } catch (e) {
    if (e instanceof UndecodableAnswer) throw new CallingWebhookError(hook.name, `failed to call webhook: ${e.message}`);
    if (e instanceof InvalidResponse) throw new CallingWebhookError(hook.name, `received invalid webhook response: ${e.message}`);
    throw e;
  }
}
