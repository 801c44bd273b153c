/**
 * Kubernetes Status bodies and the API errors that carry them. Every error a
 * client sees is built here; the HTTP adapter only writes `status` out.
 */
import { uniqueStrings } from './unique-strings';
import { FieldError, errorBody, errorText } from './field-errors';

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: { continue?: string; resourceVersion?: string };
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code?: number;
}

/** What an error message needs to name a resource: plural and group. */
export interface ResourceRef {
  group: string;
  plural: string;
  kind?: string;
}

export function qualifiedResource(r: ResourceRef): string {
  return r.group ? `${r.plural}.${r.group}` : r.plural;
}

export function qualifiedKind(r: { group: string; kind: string }): string {
  return r.group ? `${r.kind}.${r.group}` : r.kind;
}

export class ApiError extends Error {
  constructor(readonly status: Status) {
    super(status.message ?? status.reason ?? 'error');
  }
  get code(): number {
    return this.status.code ?? 500;
  }
}

function failure(code: number, reason: string | undefined, message: string, details?: StatusDetails, metadata: Status['metadata'] = {}): ApiError {
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata, status: 'Failure', message };
  if (reason) status.reason = reason;
  if (details) status.details = details;
  status.code = code;
  return new ApiError(status);
}

function withGroup(r: ResourceRef, name: string | undefined, extra: StatusDetails = {}): StatusDetails {
  const d: StatusDetails = {};
  if (name !== undefined && name !== '') d.name = name;
  if (r.group) d.group = r.group;
  d.kind = r.plural;
  return { ...d, ...extra };
}

export const errors = {
  notFound: (r: ResourceRef, name: string) =>
    failure(404, 'NotFound', `${qualifiedResource(r)} "${name}" not found`, withGroup(r, name)),

  alreadyExists: (r: ResourceRef, name: string, beingDeleted = false) =>
    failure(
      409,
      'AlreadyExists',
      `${beingDeleted ? 'object is being deleted: ' : ''}${qualifiedResource(r)} "${name}" already exists`,
      withGroup(r, name),
    ),

  generateNameExhausted: (r: ResourceRef, name: string) =>
    failure(
      409,
      'AlreadyExists',
      `${qualifiedResource(r)} "${name}" already exists, the server was not able to generate a unique name for the object`,
      withGroup(r, name, { retryAfterSeconds: 1 }),
    ),

  conflict: (r: ResourceRef, name: string, why: string) =>
    failure(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedResource(r)} "${name}": ${why}`, withGroup(r, name)),

  /** A conflicting server-side apply: causes only, no name or kind in details (upstream NewApplyConflict). */
  applyConflict: (message: string, causes: StatusCause[]) => failure(409, 'Conflict', message, { causes }),

  staleResourceVersion: (r: ResourceRef, name: string) =>
    errors.conflict(r, name, 'the object has been modified; please apply your changes to the latest version and try again'),

  /** 422 for a kind's object: `<Kind[.group]> "<name>" is invalid: ...`. */
  invalid: (kind: { group: string; kind: string }, name: string, errs: FieldError[]) => {
    const texts = uniqueStrings(errs.map(errorText));
    const summary = texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`;
    const details: StatusDetails = {};
    if (name) details.name = name;
    if (kind.group) details.group = kind.group;
    details.kind = kind.kind;
    details.causes = errs.map((e) => ({ reason: e.type, message: errorBody(e), field: e.field }));
    return failure(422, 'Invalid', `${qualifiedKind(kind)} "${name}" is invalid: ${summary}`, details);
  },

  /** 422 on request options, e.g. `ListOptions.meta.k8s.io "" is invalid: ...`. */
  invalidOptions: (optionsKind: string, errs: FieldError[]) =>
    errors.invalid({ group: 'meta.k8s.io', kind: optionsKind }, '', errs),

  badRequest: (message: string) => failure(400, 'BadRequest', message),

  /** A path the server serves nothing at (upstream's NotFoundHandler): no resource, no name, empty details. */
  notFoundPath: () => failure(404, 'NotFound', 'the server could not find the requested resource', {}),

  forbidden: (r: ResourceRef, name: string, why: string) =>
    failure(403, 'Forbidden', `${qualifiedResource(r)}${name ? ` "${name}"` : ''} is forbidden: ${why}`, withGroup(r, name)),

  /** 403 with no resource (non-resource paths, admission outside a kind). */
  forbiddenUntyped: (message: string) => failure(403, 'Forbidden', message),

  unauthorized: () => failure(401, 'Unauthorized', 'Unauthorized'),

  methodNotAllowed: (verb: string, r: ResourceRef) =>
    failure(405, 'MethodNotAllowed', `${verb} is not supported on resources of kind "${qualifiedResource(r)}"`, {
      ...(r.group ? { group: r.group } : {}),
      kind: r.plural,
    }),

  notAcceptable: (message: string) => failure(406, 'NotAcceptable', message),

  unsupportedMediaType: (accepted: string[]) =>
    failure(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
    ),

  /** A Content-Encoding the server does not decode (RFC 9110 §15.5.16). */
  unsupportedContentEncoding: (encoding: string) =>
    failure(415, 'UnsupportedMediaType', `unsupported Content-Encoding "${encoding}": send the body as identity, gzip, deflate or br`),

  requestEntityTooLarge: (message: string) => failure(413, 'RequestEntityTooLarge', `Request entity too large: ${message}`),

  expired: (message: string, continueToken?: string) =>
    failure(410, 'Expired', message, undefined, continueToken ? { continue: continueToken } : {}),

  tooLargeResourceVersion: (requested: number, current: number, retryAfterSeconds = 1) =>
    failure(504, 'Timeout', `Timeout: Too large resource version: ${requested}, current: ${current}`, {
      causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
      ...(retryAfterSeconds > 0 ? { retryAfterSeconds } : {}),
    }),

  timeout: (message: string) => failure(504, 'Timeout', `Timeout: ${message}`),

  /** A storage call ran past its deadline (a write may or may not have taken effect, as with upstream's 504). */
  storageTimeout: (why: string) => failure(504, 'Timeout', `Timeout: request did not complete within requested timeout - ${why}`),

  tooManyRequests: (message: string, retryAfterSeconds = 1) =>
    failure(429, 'TooManyRequests', message, { retryAfterSeconds }),

  serverTimeout: (r: ResourceRef, operation: string) =>
    failure(
      500,
      'ServerTimeout',
      `The ${operation} operation against ${qualifiedResource(r)} could not be completed at this time, please try again.`,
      { name: operation, ...(r.group ? { group: r.group } : {}), kind: r.plural, retryAfterSeconds: 2 },
    ),

  serviceUnavailable: (message: string, retryAfterSeconds = 0) =>
    failure(503, 'ServiceUnavailable', message, retryAfterSeconds > 0 ? { retryAfterSeconds } : undefined),

  internal: (err: string) =>
    failure(500, 'InternalError', `Internal error occurred: ${err}`, { causes: [{ message: err }] }),

  /** Errors that upstream leaves untyped: 500 with no reason. */
  untyped: (message: string) => failure(500, undefined, message),
};

export function successStatus(details?: StatusDetails): Status {
  const s: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' };
  if (details) s.details = details;
  return s;
}
