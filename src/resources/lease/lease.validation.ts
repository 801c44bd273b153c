/** Lease rules (spec §2.4, upstream ValidateLeaseSpec). Times are checked while decoding, not here. */
import { FieldError, FieldPath, fieldErrors } from '../../machinery/field-errors';
import type { KObject } from '../../machinery/object';
import { isQualifiedName } from '../../machinery/validation/names';

export interface LeaseSpecObject {
  acquireTime?: string | null;
  holderIdentity?: string | null;
  leaseDurationSeconds?: number | null;
  leaseTransitions?: number | null;
  preferredHolder?: string | null;
  renewTime?: string | null;
  strategy?: string | null;
}

export const KNOWN_LEASE_STRATEGIES = ['OldestEmulationVersion'] as const;

export const leaseSpecOf = (obj: KObject): LeaseSpecObject => (obj.spec ?? {}) as LeaseSpecObject;
const isSet = <T>(v: T | null | undefined): v is T => v !== null && v !== undefined;

/** A strategy is one of ours, or a qualified `domain/name` of someone else's. */
export function validateCoordinatedLeaseStrategy(strategy: string, path: FieldPath): FieldError[] {
  // Upstream appends "strategy" to a path that already ends in it.
  const p = path.child('strategy');
  if (!strategy.includes('/')) {
    return (KNOWN_LEASE_STRATEGIES as readonly string[]).includes(strategy) ? [] : [fieldErrors.notSupported(p, strategy, KNOWN_LEASE_STRATEGIES)];
  }
  return isQualifiedName(strategy).map((msg) => fieldErrors.invalid(p, strategy, msg));
}

export function validateLease(obj: KObject): FieldError[] {
  const spec = leaseSpecOf(obj);
  const p = FieldPath.root('spec');
  const errs: FieldError[] = [];
  if (isSet(spec.leaseDurationSeconds) && spec.leaseDurationSeconds <= 0) {
    errs.push(fieldErrors.invalid(p.child('leaseDurationSeconds'), spec.leaseDurationSeconds, 'must be greater than 0'));
  }
  if (isSet(spec.leaseTransitions) && spec.leaseTransitions < 0) {
    errs.push(fieldErrors.invalid(p.child('leaseTransitions'), spec.leaseTransitions, 'must be greater than or equal to 0'));
  }
  if (isSet(spec.strategy)) errs.push(...validateCoordinatedLeaseStrategy(spec.strategy, p.child('strategy')));
  if (spec.preferredHolder && !spec.strategy) {
    errs.push(fieldErrors.forbidden(p.child('preferredHolder'), 'may only be specified if `strategy` is defined'));
  }
  return errs;
}

/** Nothing in a Lease is immutable: an update is checked as a create. */
export function validateLeaseUpdate(obj: KObject): FieldError[] {
  return validateLease(obj);
}
