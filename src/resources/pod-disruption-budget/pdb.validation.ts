/**
 * PodDisruptionBudget rules (upstream policy validation): spec on create and
 * update, status counts and conditions on /status.
 */
import { FieldError, FieldPath, fieldErrors } from '../../machinery/field-errors';
import { labelSelectorHasInvalidLabelValue, MetaLabelSelector, validateLabelSelector } from '../../machinery/label-selector';
import type { KObject } from '../../machinery/object';
import { validateIntOrPercent } from '../../machinery/validation/int-or-string';
import { IS_NEGATIVE_ERROR_MSG } from '../../machinery/validation/object-meta';
import { Condition, validateConditions } from './pdb.conditions';

export const UNHEALTHY_POD_EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'];

export interface PdbSpecObject {
  minAvailable?: number | string;
  maxUnavailable?: number | string;
  selector?: MetaLabelSelector | null;
  unhealthyPodEvictionPolicy?: string;
}

export interface PdbStatusObject {
  observedGeneration?: number;
  disruptedPods?: Record<string, string>;
  disruptionsAllowed?: number;
  currentHealthy?: number;
  desiredHealthy?: number;
  expectedPods?: number;
  conditions?: Condition[];
}

export type PdbObject = KObject & { spec?: PdbSpecObject; status?: PdbStatusObject };

interface SpecOptions {
  allowInvalidLabelValueInSelector?: boolean;
}

function validateSpec(spec: PdbSpecObject, opts: SpecOptions): FieldError[] {
  const p = FieldPath.root('spec');
  const errs: FieldError[] = [];
  const has = (v: unknown) => v !== undefined && v !== null;
  if (has(spec.minAvailable) && has(spec.maxUnavailable)) {
    errs.push(fieldErrors.invalid(p, spec, 'minAvailable and maxUnavailable cannot be both set'));
  }
  if (has(spec.minAvailable)) errs.push(...validateIntOrPercent(spec.minAvailable, p.child('minAvailable')));
  if (has(spec.maxUnavailable)) errs.push(...validateIntOrPercent(spec.maxUnavailable, p.child('maxUnavailable')));
  errs.push(...validateLabelSelector(spec.selector, p.child('selector'), opts));
  const policy = spec.unhealthyPodEvictionPolicy;
  if (policy !== undefined && policy !== null && !UNHEALTHY_POD_EVICTION_POLICIES.includes(policy)) {
    errs.push(fieldErrors.notSupported(p.child('unhealthyPodEvictionPolicy'), policy, UNHEALTHY_POD_EVICTION_POLICIES));
  }
  return errs;
}

export function validatePdb(obj: KObject): FieldError[] {
  return validateSpec((obj as PdbObject).spec ?? {}, {});
}

/** The spec is fully mutable; a stored selector with a bad label value keeps being accepted. */
export function validatePdbUpdate(obj: KObject, old: KObject): FieldError[] {
  const allowInvalidLabelValueInSelector = labelSelectorHasInvalidLabelValue((old as PdbObject).spec?.selector);
  return validateSpec((obj as PdbObject).spec ?? {}, { allowInvalidLabelValueInSelector });
}

/** /status writes: conditions plus non-negative counts (the v1 rules). */
export function validatePdbStatusUpdate(obj: KObject): FieldError[] {
  const status = (obj as PdbObject).status ?? {};
  const p = FieldPath.root('status');
  const errs = validateConditions(status.conditions, p.child('conditions'));
  for (const f of ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'] as const) {
    const v = status[f] ?? 0;
    if (v < 0) errs.push(fieldErrors.invalid(p.child(f), v, IS_NEGATIVE_ERROR_MSG));
  }
  return errs;
}
