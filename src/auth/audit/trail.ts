/**
 * Audit events in upstream's Event shape (audit.svc.io/v1), one JSON line
 * per stage, handed to the buffered backend: the request only captures the
 * event's fields; encoding and writing happen off its path.
 */
import type { UserInfo } from '../../machinery/resource-definition';
import type { BufferedAuditBackend } from './buffered';
import type { AuthzAttributes } from '../../ports/authorizer.port';
import type { ClockPort } from '../../ports/clock.port';
import { AuditLevel, AuditPolicy, AuditStage, levelFor } from './policy';

export interface RequestFacts {
  auditID: string;
  requestURI: string;
  sourceIPs: string[];
  userAgent?: string;
}

export interface ResponseFacts {
  code: number;
  /** The Status body of a failed request (its message and reason go into responseStatus). */
  status?: { status?: string; message?: string; reason?: string };
  responseObject?: unknown;
}

export interface AuditRecord {
  readonly level: AuditLevel;
  /** Annotations added while the request runs (admission's, keyed `<plugin or webhook>/<key>`): they go into the stages after. */
  readonly annotations: Record<string, string>;
  impersonated(user: UserInfo): void;
  /** The request's body as its handler decoded it: encoded at once, as upstream does, so later changes to it do not show. */
  requestObject(obj: unknown): void;
  /** For long-running requests (watch): the response has started. */
  started(code: number): void;
  complete(res: ResponseFacts): void;
}

function microTime(d: Date): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

function userJson(u: UserInfo) {
  return { username: u.username, ...(u.uid ? { uid: u.uid } : {}), groups: [...u.groups], ...(u.extra ? { extra: u.extra } : {}) };
}

export class AuditTrail {
  constructor(
    private readonly policy: AuditPolicy,
    private readonly backend: BufferedAuditBackend,
    private readonly clock: ClockPort,
  ) {}

  /** Undefined when a request may start now; else resolves when the audit buffer has room for it (policy block). */
  room(): Promise<void> | undefined {
    return this.backend.room();
  }

  /** Writes out every buffered event and closes the sink (graceful shutdown). */
  close(): Promise<void> {
    return this.backend.close();
  }

  begin(req: RequestFacts, attrs: AuthzAttributes): AuditRecord | undefined {
    const { level, omitStages } = levelFor(this.policy, attrs);
    if (level === 'None') return undefined;
    const received = this.clock.now();
    const base: Record<string, unknown> = {
      kind: 'Event',
      apiVersion: 'audit.svc.io/v1',
      level,
      auditID: req.auditID,
      requestURI: req.requestURI,
      verb: attrs.verb,
      user: userJson(attrs.user),
      sourceIPs: req.sourceIPs,
      ...(req.userAgent ? { userAgent: req.userAgent } : {}),
    };
    if (attrs.resourceRequest) {
      const ref: Record<string, string> = {};
      if (attrs.resource) ref.resource = attrs.resource;
      if (attrs.namespace) ref.namespace = attrs.namespace;
      if (attrs.name) ref.name = attrs.name;
      ref.apiGroup = attrs.apiGroup ?? '';
      if (attrs.apiVersion) ref.apiVersion = attrs.apiVersion;
      if (attrs.subresource) ref.subresource = attrs.subresource;
      base.objectRef = ref;
    }
    let requestJson: string | undefined;
    const annotations: Record<string, string> = {};
    const emit = (stage: AuditStage, extra: Record<string, unknown> = {}) => {
      if (omitStages.includes(stage)) return;
      if (Object.keys(annotations).length) extra = { ...extra, annotations: { ...annotations } };
      // The request object was encoded as it was recorded: spliced in at its place.
      const request = requestJson !== undefined && level !== 'Metadata' && stage !== 'RequestReceived' ? `,"requestObject":${requestJson}` : '';
      // The fields as they are now (a copy: impersonation may change base later); encoded when the batch is written.
      const event = { ...base, stage, ...extra };
      const stageTime = this.clock.now();
      this.backend.process(() => `${JSON.stringify(event).slice(0, -1)}${request},"requestReceivedTimestamp":"${microTime(received)}","stageTimestamp":"${microTime(stageTime)}"}`);
    };
    emit('RequestReceived');
    let done = false;
    return {
      level,
      annotations,
      impersonated: (user) => {
        base.impersonatedUser = userJson(user);
      },
      requestObject: (obj) => {
        requestJson = JSON.stringify(obj); // undefined for an empty YAML body, which has no object
      },
      started: (code) => emit('ResponseStarted', { responseStatus: { metadata: {}, code } }),
      complete: (res) => {
        if (done) return;
        done = true;
        const responseStatus: Record<string, unknown> = { metadata: {}, code: res.code };
        if (res.status?.status && res.status.status !== 'Success') responseStatus.status = res.status.status;
        if (res.status?.message && res.code >= 400) responseStatus.message = res.status.message;
        if (res.status?.reason) responseStatus.reason = res.status.reason;
        const body = level === 'RequestResponse' && res.responseObject !== undefined ? { responseObject: res.responseObject } : {};
        emit('ResponseComplete', { responseStatus, ...body });
      },
    };
  }
}
