/**
 * ClusterRole rules (upstream ValidateClusterRole): cluster-wide policy rules (non-resource URLs
 * allowed) and the aggregation rule's label selectors.
 */
import { FieldError, FieldPath, fieldErrors, RenderedValue } from '../../machinery/field-errors';
import { labelSelectorAsSelector, labelSelectorHasInvalidLabelValue, MetaLabelSelector, validateLabelSelector } from '../../machinery/label-selector';
import type { KObject } from '../../machinery/object';
import { PolicyRuleObject, validatePolicyRule } from '../role/role.validation';

export type ClusterRoleObject = KObject & {
  rules?: PolicyRuleObject[] | null;
  aggregationRule?: { clusterRoleSelectors?: MetaLabelSelector[] | null } | null;
};

interface Options {
  allowInvalidLabelValueInSelector?: boolean;
}

function validateClusterRoleWith(obj: KObject, opts: Options): FieldError[] {
  const role = obj as ClusterRoleObject;
  const errs = (role.rules ?? []).flatMap((rule, i) => validatePolicyRule(rule ?? {}, false, FieldPath.root('rules').index(i)));
  const aggregation = role.aggregationRule;
  if (aggregation === undefined || aggregation === null) return errs;
  const path = FieldPath.root('aggregationRule').child('clusterRoleSelectors');
  const selectors = aggregation.clusterRoleSelectors ?? [];
  if (selectors.length === 0) errs.push(fieldErrors.required(path, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
  selectors.forEach((selector, i) => {
    errs.push(...validateLabelSelector(selector ?? {}, path.index(i), opts));
    try {
      labelSelectorAsSelector(selector ?? {});
    } catch {
      // Upstream reports the (nil) converted selector as the bad value.
      errs.push(fieldErrors.invalid(path.index(i), new RenderedValue('"null"'), 'invalid label selector.'));
    }
  });
  return errs;
}

export function validateClusterRole(obj: KObject): FieldError[] {
  return validateClusterRoleWith(obj, {});
}

/** Nothing is immutable; a stored selector with a bad label value keeps being accepted. */
export function validateClusterRoleUpdate(obj: KObject, old: KObject): FieldError[] {
  const selectors = (old as ClusterRoleObject).aggregationRule?.clusterRoleSelectors ?? [];
  return validateClusterRoleWith(obj, { allowInvalidLabelValueInSelector: selectors.some((s) => labelSelectorHasInvalidLabelValue(s)) });
}
