/**
 * The request filters before any handler, in upstream's order:
 * authentication → audit → impersonation → max-in-flight → authorization.
 * Requests on the plain-HTTP port (no TLS) skip them and run as system:admin,
 * as kube-apiserver's old insecure port did.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { TLSSocket } from 'node:tls';
import type { Socket } from 'node:net';
import type { UserInfo } from '../../machinery/resource-definition';
import { errors } from '../../machinery/status';
import type { AuthorizerPort, AuthzAttributes } from '../../ports/authorizer.port';
import type { AuthenticatorChain, ChainResult } from '../../auth/authn/chain';
import { andThen, isPromiseLike, type MaybePromise } from '../../machinery/maybe-async';
import type { ClientCertificate } from '../../auth/authn/authenticator';
import { impersonate, wantsImpersonation } from '../../auth/impersonation';
import { forbiddenError } from '../../auth/forbidden';
import { groups, localAdmin } from '../../auth/user';
import { randomUUID } from 'node:crypto';
import type { AuditRecord, AuditTrail, ResponseFacts } from '../../auth/audit/trail';
import { sendError } from './respond';
import { setUser } from './request-user';
import { collectAuditAnnotations, onBodyDecoded } from './request-body';
import { requestInfoOf } from './request-info';
import { defaultSeats, FairQueues } from '../../flowcontrol/fair-queues';
import { WaitDeadlines } from './wait-deadlines';

export interface InflightLimits {
  /** Requests admitted (executing and waiting) before 429: --max-requests-inflight and --max-mutating-requests-inflight. */
  readOnly: number;
  mutating: number;
  /** Requests of each pool that execute at once; the rest wait in per-user queues served in turn. */
  seats?: number;
}

/** Waiting requests per user, and how long one may wait for a seat (upstream's queueLengthLimit and wait limit). */
const queueLength = 50;
const queueWaitMs = 15_000;

/** Checks a client certificate that carries a PodIdentity (undefined for one that does not). */
export type PodCertificateCheck = (der: Uint8Array) => { identity: NonNullable<ClientCertificate['pod']>['identity']; sha256: string } | { error: string } | undefined;

export interface AccessDeps {
  authenticator: AuthenticatorChain;
  /** Pod certificates (KEP-4317), which TLS alone cannot verify. */
  podCertificates?: PodCertificateCheck;
  authorizer: AuthorizerPort;
  audit?: AuditTrail;
  limits: InflightLimits;
}

const certificates = new WeakMap<Socket, ClientCertificate | null>();

function asList(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

/** The verified (or not) client certificate of a TLS connection, read once per connection. */
function clientCertificate(socket: TLSSocket, podCertificates?: PodCertificateCheck): ClientCertificate | undefined {
  let known = certificates.get(socket);
  if (known === undefined) {
    const peer = socket.getPeerCertificate();
    if (!peer || !peer.raw) known = null;
    else {
      known = {
        verified: socket.authorized,
        error: socket.authorizationError ? String(socket.authorizationError) : undefined,
        commonName: asList(peer.subject?.CN)[0] ?? '',
        organizations: asList(peer.subject?.O),
      };
      // TLS refuses a pod certificate for its critical PodIdentity extension; that check knows it.
      const pod = !socket.authorized ? podCertificates?.(new Uint8Array(peer.raw)) : undefined;
      if (pod && 'error' in pod) known.error = pod.error;
      else if (pod) known = { ...known, verified: true, error: undefined, pod };
    }
    certificates.set(socket, known);
  }
  return known ?? undefined;
}

/**
 * The bearer token as upstream reads the header: trimmed, split at single spaces, "bearer" in any case and then the
 * token, the second part. Anything else (a tab after the scheme, two spaces, another scheme) is no bearer
 * credential at all, so the request goes on as if it had none.
 */
function bearerToken(req: Request): string | undefined {
  const h = req.headers.authorization;
  if (!h) return undefined;
  const auth = h.trim();
  const space = auth.indexOf(' ');
  if (space !== 6 || auth.slice(0, 6).toLowerCase() !== 'bearer') return undefined;
  const end = auth.indexOf(' ', 7);
  return (end < 0 ? auth.slice(7) : auth.slice(7, end)) || undefined;
}

/** Starts the request's audit record and completes it when the response ends. */
function auditRequest(trail: AuditTrail, req: Request, res: Response, attrs: AuthzAttributes): AuditRecord | undefined {
  const auditID = randomUUID();
  res.setHeader('Audit-Id', auditID);
  const record = trail.begin(
    { auditID, requestURI: req.originalUrl, sourceIPs: [req.socket.remoteAddress ?? ''], userAgent: req.get('user-agent') },
    attrs,
  );
  if (!record) return undefined;
  if (record.level !== 'Metadata') onBodyDecoded(req, (object) => record.requestObject(object));
  collectAuditAnnotations(req, record.annotations);
  let body: Buffer | undefined;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  // Only the final chunk is kept: error Statuses and single-body responses are written in one piece.
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if ((res.statusCode >= 400 || record.level === 'RequestResponse') && (typeof chunk === 'string' || Buffer.isBuffer(chunk))) {
      body = Buffer.from(chunk as string);
    }
    return end(chunk, ...rest);
  }) as Response['end'];
  let completed = false;
  const complete = () => {
    if (completed) return;
    completed = true;
    const parsed = body ? parseJson(body) : undefined;
    const status = parsed && typeof parsed === 'object' && (parsed as { kind?: string }).kind === 'Status' ? (parsed as ResponseFacts['status']) : undefined;
    record.complete({ code: res.statusCode, status, responseObject: record.level === 'RequestResponse' ? parsed : undefined });
  };
  res.on('close', complete); // after 'finish', or alone when the client went away
  return record;
}

function parseJson(b: Buffer): unknown {
  try {
    return JSON.parse(b.toString('utf8'));
  } catch {
    return undefined;
  }
}

const mutatingMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function accessFilter(deps: AccessDeps): RequestHandler {
  const pool = (admitted: number) => new FairQueues({ admitted, seats: Math.min(deps.limits.seats ?? defaultSeats, admitted), queueLength });
  const pools = { readOnly: pool(deps.limits.readOnly), mutating: pool(deps.limits.mutating) };
  const deadlines = new WaitDeadlines(queueWaitMs);
  /** Synchronous unless an authenticator or the audit buffer makes it wait. */
  function admit(req: Request, res: Response, next: NextFunction, tls: boolean): MaybePromise<void> {
    if (!tls) return authorized(req, res, next, tls, localAdmin);
    const result = deps.authenticator.authenticate({ clientCertificate: clientCertificate(req.socket as TLSSocket, deps.podCertificates), bearerToken: bearerToken(req) });
    return andThen(result, (r: ChainResult) => {
      if ('unauthorized' in r) {
        res.setHeader('WWW-Authenticate', 'Bearer realm="svc-apiserver"');
        return sendError(req, res, errors.unauthorized());
      }
      return authorized(req, res, next, tls, r.user);
    });
  }

  function authorized(req: Request, res: Response, next: NextFunction, tls: boolean, user: UserInfo): MaybePromise<void> {
    // A full audit buffer under the blocking policy holds new requests back until the writer catches up.
    const room = deps.audit?.room();
    return room ? room.then(() => dispatch(req, res, next, tls, user)) : dispatch(req, res, next, tls, user);
  }

  function dispatch(req: Request, res: Response, next: NextFunction, tls: boolean, user: UserInfo): void {
    const info = requestInfoOf(req);
    const attrs: AuthzAttributes = {
      user,
      verb: info.verb,
      resourceRequest: info.resourceRequest,
      apiGroup: info.apiGroup,
      apiVersion: info.apiVersion,
      resource: info.resource,
      subresource: info.subresource,
      namespace: info.namespace,
      name: info.name,
      path: info.resourceRequest ? undefined : info.path,
    };
    const audit = deps.audit ? auditRequest(deps.audit, req, res, attrs) : undefined;
    setUser(res, user);
    if (tls && wantsImpersonation(req.headers)) {
      attrs.user = impersonate(user, req.headersDistinct, deps.authorizer);
      setUser(res, attrs.user);
      audit?.impersonated(attrs.user);
    }
    const proceed = () => {
      if (tls) {
        const decision = deps.authorizer.authorize(attrs);
        if (!decision.allowed) return sendError(req, res, forbiddenError(attrs, decision.reason));
      }
      if (info.longRunning) audit?.started(200);
      next();
    };
    // Watches are long-running and not counted; neither are the superusers (as upstream's exempt level).
    if (info.longRunning || attrs.user.groups.includes(groups.masters)) return proceed();
    const queues = pools[mutatingMethods.has(req.method) ? 'mutating' : 'readOnly'];
    let started = false;
    let cancelWait: (() => void) | undefined;
    const ticket = queues.enter(attrs.user.username, () => {
      started = true;
      if (!cancelWait) return;
      // Dispatched from another request's end: run outside it, so one request's error stays its own.
      cancelWait();
      setImmediate(proceed);
    });
    if (!ticket) return sendError(req, res, errors.tooManyRequests('Too many requests, please try again later.', 1));
    const finished = () => {
      if (started) {
        started = false;
        queues.leave();
      } else if (ticket.withdraw()) cancelWait?.();
    };
    res.on('close', finished); // after 'finish', or alone when the client went away
    if (started) return proceed();
    cancelWait = deadlines.add(() => {
      if (ticket.withdraw()) sendError(req, res, errors.tooManyRequests('Too many requests, please try again later.', 1));
    });
  }

  return (req: Request, res: Response, next: NextFunction) => {
    const tls = (req.socket as TLSSocket).encrypted === true;
    // The plain port serves system:admin, whom nothing limits or authorizes: with no audit trail to write there is
    // nothing to decide about the request.
    if (!tls && !deps.audit) {
      setUser(res, localAdmin);
      return next();
    }
    let admitted: MaybePromise<void>;
    try {
      admitted = admit(req, res, next, tls);
    } catch (e) {
      return sendError(req, res, e);
    }
    if (isPromiseLike(admitted)) admitted.then(undefined, (e: unknown) => sendError(req, res, e));
  };
}
