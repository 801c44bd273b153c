/**
 * The two ways a webhook call ends badly, as upstream's webhook errors:
 * a failure to get an answer (ErrCallingWebhook: the failurePolicy decides,
 * and Fail makes it a 500), and a denial (the webhook's own Status, passed
 * through ToStatusErr).
 */
import { ApiError, errors, type Status } from '../../machinery/status';

export class CallingWebhookError extends Error {
  constructor(
    readonly webhookName: string,
    readonly reason: string,
  ) {
    super(`failed calling webhook "${webhookName}": ${reason}`);
  }

  /** failurePolicy Fail: `Internal error occurred: failed calling webhook "<name>": <reason>`. */
  toApiError(): ApiError {
    return errors.internal(this.message);
  }
}

/** The Status fields a webhook may answer with (metav1.Status). */
export interface WebhookStatus {
  status?: string;
  message?: string;
  reason?: string;
  details?: Status['details'];
  code?: number;
}

/**
 * Upstream's ToStatusErr: a denial is at least a 400 and a Failure, and its message says which webhook denied it
 * (`admission webhook "<name>" denied the request: <message or reason>`, else `... without explanation`).
 */
export function denial(webhookName: string, result: WebhookStatus | null | undefined): ApiError {
  const r = result ?? {};
  const deniedBy = `admission webhook "${webhookName}" denied the request`;
  const message = r.message ? `${deniedBy}: ${r.message}` : r.reason ? `${deniedBy}: ${r.reason}` : `${deniedBy} without explanation`;
  const status: Status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: !r.status || r.status === 'Success' ? 'Failure' : (r.status as Status['status']),
    message,
  };
  if (r.reason) status.reason = r.reason;
  if (r.details) status.details = r.details;
  status.code = typeof r.code === 'number' && r.code >= 400 ? r.code : 400;
  return new ApiError(status);
}

/** A dry run sent to a webhook that may have side effects: a 400 whatever the failure policy. */
export function dryRunUnsupported(webhookName: string): ApiError {
  return errors.badRequest(`admission webhook "${webhookName}" does not support dry run`);
}
