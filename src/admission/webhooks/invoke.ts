/**
 * What calling one matched webhook takes in either phase: upstream's dry-run
 * rule (a dry run only reaches webhooks whose sideEffects are None or
 * NoneOnDryRun), the AdmissionReview in the webhook's version, the deadline,
 * and what every answer carries back whether it allows or not: audit
 * annotations (`<webhook name>/<key>`) and warnings.
 */
import type { KObject } from '../../machinery/object';
import { isQualifiedName } from '../../machinery/validation/names';
import type { WebhookPort } from '../../ports/webhook.port';
import type { WriteOptions } from '../../registry/request';
import { reviewRequest } from './admission-request';
import { callWebhook } from './call';
import type { RequestScope, Invocation } from './request-scope';
import { reviewBody, type AdmissionResponse } from './review';
import { CallingWebhookError, dryRunUnsupported } from './webhook-errors';
import type { WebhookEnv } from './webhook-source';

/** Upstream's --request-timeout default: what a request has for all its webhook calls unless told otherwise. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/**
 * When each request's time is up, counted from the first webhook plugin that sees it. Both phases of a request
 * share its options object, so the validating phase gets what the mutating one left.
 */
export class RequestDeadlines {
  private readonly deadlines = new WeakMap<WriteOptions, number>();

  constructor(private readonly timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS) {}

  deadline(options: WriteOptions, now: number): number {
    let d = this.deadlines.get(options);
    if (d === undefined) this.deadlines.set(options, (d = now + this.timeoutMs));
    return d;
  }
}

export interface WebhookPluginOptions {
  /** Shared by both plugins, so that the validating phase has what the mutating one left of the request's time. */
  deadlines?: RequestDeadlines;
}

export interface WebhookCallerDeps {
  env: WebhookEnv;
  webhooks: WebhookPort;
  deadlines: RequestDeadlines;
}

/** Sets an audit annotation as upstream's AddAnnotation: a qualified-name key, and never overwriting another value. */
export function addAuditAnnotation(options: WriteOptions, key: string, value: string): void {
  if (isQualifiedName(key).length || key.split('/').length !== 2) return;
  const annotations = (options.auditAnnotations ??= {});
  if (key in annotations && annotations[key] !== value) return;
  annotations[key] = value;
}

// What a Warning header cannot carry: upstream's NewWarningHeader refuses control characters, and the warning is dropped.
// eslint-disable-next-line no-control-regex
const controlCharacters = /[\u0000-\u001f\u007f-\u009f]/;

export class WebhookCaller {
  constructor(private readonly deps: WebhookCallerDeps) {}

  now(): number {
    return this.deps.env.clock.now().getTime();
  }

  /** How long the request has left. */
  remainingMs(options: WriteOptions): number {
    const now = this.now();
    return this.deps.deadlines.deadline(options, now) - now;
  }

  /**
   * Calls the invocation's webhook about `object`/`oldObject` (in the request's form); resolves with its response,
   * allowing or not. Throws CallingWebhookError when no usable answer came, ApiError for a refused dry run.
   */
  async call(scope: RequestScope, inv: Invocation, mutating: boolean, object: KObject | undefined, oldObject: KObject | undefined): Promise<AdmissionResponse> {
    const { hook } = inv;
    const a = scope.attributes;
    if (a.dryRun) {
      if (hook.sideEffects === undefined) throw new CallingWebhookError(hook.name, 'Webhook SideEffects is nil');
      if (hook.sideEffects !== 'None' && hook.sideEffects !== 'NoneOnDryRun') throw dryRunUnsupported(hook.name);
    }
    if (!hook.reviewVersion) {
      throw new CallingWebhookError(hook.name, 'could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)');
    }
    const uid = this.deps.env.random.uuid();
    const request = reviewRequest(uid, inv.facts, scope.view(inv.matched, object), scope.view(inv.matched, oldObject));
    const timeoutMs = Math.min(hook.timeoutMs, this.remainingMs(a.options));
    const response = await callWebhook(this.deps.webhooks, { hook, version: hook.reviewVersion, uid, review: reviewBody(hook.reviewVersion, request), mutating, timeoutMs });
    for (const [k, v] of Object.entries(response.auditAnnotations)) addAuditAnnotation(a.options, `${hook.name}/${k}`, v);
    for (const w of response.warnings) if (w !== '' && !controlCharacters.test(w)) a.options.warnings.push(w);
    return response;
  }
}
