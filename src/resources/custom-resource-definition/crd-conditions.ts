/**
 * The conditions a CRD's status carries (set by the CRD controllers):
 * NamesAccepted, Established, Terminating, NonStructuralSchema and
 * KubernetesAPIApprovalPolicyConformant, with helpers that set them as
 * upstream's SetCRDCondition does (the transition time moves only when the
 * status changes).
 */
import type { Condition, StatusV1 } from './crd-internal';

export const CRDConditions = {
  established: 'Established',
  namesAccepted: 'NamesAccepted',
  nonStructuralSchema: 'NonStructuralSchema',
  terminating: 'Terminating',
  apiApprovalPolicyConformant: 'KubernetesAPIApprovalPolicyConformant',
} as const;

export function findCondition(status: StatusV1 | undefined, type: string): Condition | undefined {
  return (status?.conditions ?? []).find((c) => c.type === type);
}

/** Present and exactly "True". */
export function isConditionTrue(status: StatusV1 | undefined, type: string): boolean {
  return findCondition(status, type)?.status === 'True';
}

/** Sets (or adds) a condition; `now` becomes its lastTransitionTime when its status changes or it is new. */
export function setCondition(status: StatusV1, condition: Omit<Condition, 'lastTransitionTime'>, now: Date): void {
  const time = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const conditions = (status.conditions ??= []);
  const existing = conditions.find((c) => c.type === condition.type);
  if (!existing) {
    conditions.push({ ...condition, lastTransitionTime: time });
    return;
  }
  if (existing.status !== condition.status || !existing.lastTransitionTime) existing.lastTransitionTime = time;
  existing.status = condition.status;
  existing.reason = condition.reason;
  existing.message = condition.message;
  if (condition.observedGeneration !== undefined) existing.observedGeneration = condition.observedGeneration;
}

export function removeCondition(status: StatusV1, type: string): void {
  status.conditions = (status.conditions ?? []).filter((c) => c.type !== type);
}
