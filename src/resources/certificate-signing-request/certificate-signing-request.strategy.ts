/**
 * CertificateSigningRequest strategy (upstream-resources §9.5): the requester
 * identity comes from the authenticated user; main-resource writes change
 * metadata only; /approval writes the conditions, /status the certificate
 * and every condition but Approved and Denied.
 */
import type { KObject } from '../../machinery/object';
import type { StrategyContext } from '../../machinery/resource-definition';
import { canonicalTime, nowTime, parseTime, WireChecks } from './certificates-wire';
import type { CsrCondition, CsrObject } from './certificate-signing-request.validation';

const wire = new WireChecks('CertificateSigningRequest', 'v1');
const APPROVAL_TYPES = new Set(['Approved', 'Denied']);

type Spec = Record<string, unknown>;
const specOf = (obj: KObject): Spec => ((obj.spec ??= {}) as Spec);

/** Bad base64 or times are decode errors (400) upstream, before any validation. */
export function checkCsrWire(obj: KObject): void {
  const csr = obj as CsrObject;
  wire.bytes(csr.spec?.request);
  wire.bytes(csr.status?.certificate);
  for (const c of csr.status?.conditions ?? []) {
    wire.time(c.lastUpdateTime);
    wire.time(c.lastTransitionTime);
  }
}

export function prepareCsrForCreate(obj: KObject, ctx: StrategyContext): void {
  checkCsrWire(obj);
  const spec = specOf(obj);
  for (const k of ['username', 'uid', 'groups', 'extra']) delete spec[k];
  const { username, uid, groups, extra } = ctx.user;
  if (username) spec.username = username;
  if (uid) spec.uid = uid;
  if (groups.length) spec.groups = [...groups];
  if (extra && Object.keys(extra).length) spec.extra = structuredClone(extra);
  // Requests cannot be created pre-approved or pre-issued.
  obj.status = {};
}

/** Main-resource writes: only metadata persists (the registry already kept the stored status). */
export function prepareCsrForUpdate(obj: KObject, old: KObject): void {
  checkCsrWire(obj);
  obj.spec = structuredClone(old.spec);
}

/** Upstream's populateConditionTimestamps: fill unset times; keep the transition time of an unchanged status. */
function populateTimestamps(conditions: CsrCondition[], old: CsrCondition[], ctx: StrategyContext): void {
  const now = nowTime(ctx);
  for (const c of conditions) {
    if (parseTime(c.lastUpdateTime) === undefined) c.lastUpdateTime = now;
    if (parseTime(c.lastTransitionTime) === undefined) {
      const same = old.find((o) => o.type === c.type && o.status === c.status && parseTime(o.lastTransitionTime) !== undefined);
      c.lastTransitionTime = same ? same.lastTransitionTime : now;
    }
  }
}

/**
 * Upstream's preserveConditionInstances for Approved and Denied: when the
 * client kept their number, the stored instances come back in their places;
 * when it added or removed one, its list stays so that validation reports it.
 */
function preserveApprovals(next: CsrCondition[], prev: CsrCondition[]): CsrCondition[] {
  const result = next.map((c) => structuredClone(c));
  for (const t of APPROVAL_TYPES) {
    const stored = prev.filter((c) => c.type === t);
    const positions = result.flatMap((c, i) => (c.type === t ? [i] : []));
    if (stored.length === positions.length) positions.forEach((at, k) => (result[at] = structuredClone(stored[k])));
  }
  return result;
}

type Status = { conditions?: CsrCondition[] | null; certificate?: string | null };

/**
 * /status: the certificate and every condition but Approved and Denied, as
 * sent. Metadata changes are kept: the CSR strategies predate upstream's
 * opt-in ResetObjectMetaForStatus.
 */
export function prepareCsrStatusUpdate(obj: KObject, old: KObject, ctx: StrategyContext): void {
  checkCsrWire(obj);
  const [csr, prev] = [obj as CsrObject, old as CsrObject];
  obj.spec = structuredClone(old.spec);
  const oldConditions = prev.status?.conditions ?? [];
  const conditions = preserveApprovals(csr.status?.conditions ?? [], oldConditions);
  populateTimestamps(conditions, oldConditions, ctx);
  const status: Status = { ...(csr.status ?? {}), conditions };
  obj.status = status;
}

/**
 * /approval: the conditions as sent, of any type (timestamps filled); spec and
 * the rest of the status stay as stored. Validation keeps Failed and the
 * approvals from being removed. Metadata changes are kept, as on /status.
 */
export function prepareCsrApprovalUpdate(obj: KObject, old: KObject, ctx: StrategyContext): void {
  checkCsrWire(obj);
  const [csr, prev] = [obj as CsrObject, old as CsrObject];
  const conditions = structuredClone(csr.status?.conditions ?? []);
  populateTimestamps(conditions, prev.status?.conditions ?? [], ctx);
  obj.spec = structuredClone(old.spec);
  const status: Status = { ...structuredClone(prev.status ?? {}), conditions };
  obj.status = status;
}

/** Condition times at second precision, as metav1.Time stores them. */
export function canonicalizeCsr(obj: KObject): void {
  for (const c of (obj as CsrObject).status?.conditions ?? []) {
    canonicalTime(c as Record<string, unknown>, 'lastUpdateTime');
    canonicalTime(c as Record<string, unknown>, 'lastTransitionTime');
  }
}
