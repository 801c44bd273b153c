/**
 * CertificateSigningRequest strategy (upstream-resources §9.5): the requester
 * identity comes from the authenticated user; main-resource writes change
 * metadata only; /approval owns the Approved and Denied conditions, /status
 * owns the certificate and every other condition.
 */
import type { KObject } from '../../machinery/object';
import type { StrategyContext } from '../../machinery/resource-definition';
import { canonicalTime, nowTime, parseTime, resetMetadataForStatus, WireChecks } from './certificates-wire';
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
 * Conditions that `owns` types take from `next`, all others from `prev`.
 * Foreign instances keep their positions when their count is unchanged
 * (upstream's preserveConditionInstances). When the count changed,
 * `onCountChange` decides: 'reject' leaves the client's list so validation
 * reports the add or removal; 'restore' puts the stored instances back.
 */
function mergeConditions(
  next: CsrCondition[],
  prev: CsrCondition[],
  owns: (type: string) => boolean,
  onCountChange: 'reject' | 'restore',
): CsrCondition[] {
  const foreignTypes = new Set([...next, ...prev].map((c) => c.type ?? '').filter((t) => !owns(t)));
  let result = next.map((c) => structuredClone(c));
  for (const t of foreignTypes) {
    const oldOnes = prev.filter((c) => c.type === t);
    const newIdx = result.flatMap((c, i) => (c.type === t ? [i] : []));
    if (oldOnes.length === newIdx.length) {
      newIdx.forEach((idx, k) => (result[idx] = structuredClone(oldOnes[k])));
    } else if (onCountChange === 'restore') {
      result = [...result.filter((c) => c.type !== t), ...oldOnes.map((c) => structuredClone(c))];
    }
  }
  return result;
}

type Status = { conditions?: CsrCondition[] | null; certificate?: string | null };

function setStatus(obj: KObject, status: Status): void {
  const out: Status = {};
  if (status.conditions?.length) out.conditions = status.conditions;
  if (status.certificate) out.certificate = status.certificate;
  obj.status = out;
}

/** /status: the certificate and all conditions but Approved and Denied. */
export function prepareCsrStatusUpdate(obj: KObject, old: KObject, ctx: StrategyContext): void {
  checkCsrWire(obj);
  const [csr, prev] = [obj as CsrObject, old as CsrObject];
  obj.spec = structuredClone(old.spec);
  resetMetadataForStatus(obj, old);
  const oldConditions = prev.status?.conditions ?? [];
  const conditions = mergeConditions(csr.status?.conditions ?? [], oldConditions, (t) => !APPROVAL_TYPES.has(t), 'reject');
  populateTimestamps(conditions, oldConditions, ctx);
  setStatus(obj, { conditions, certificate: csr.status?.certificate });
}

/** /approval: only the Approved and Denied conditions; the certificate stays as stored. */
export function prepareCsrApprovalUpdate(obj: KObject, old: KObject, ctx: StrategyContext): void {
  checkCsrWire(obj);
  const [csr, prev] = [obj as CsrObject, old as CsrObject];
  obj.spec = structuredClone(old.spec);
  resetMetadataForStatus(obj, old);
  const oldConditions = prev.status?.conditions ?? [];
  const conditions = mergeConditions(csr.status?.conditions ?? [], oldConditions, (t) => APPROVAL_TYPES.has(t), 'restore');
  populateTimestamps(conditions, oldConditions, ctx);
  setStatus(obj, { conditions, certificate: prev.status?.certificate });
}

/** Condition times at second precision, as metav1.Time stores them. */
export function canonicalizeCsr(obj: KObject): void {
  for (const c of (obj as CsrObject).status?.conditions ?? []) {
    canonicalTime(c as Record<string, unknown>, 'lastUpdateTime');
    canonicalTime(c as Record<string, unknown>, 'lastTransitionTime');
  }
}
