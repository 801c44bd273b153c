/**
 * Role rules (spec §2.2, upstream ValidatePolicyRule). Shared with ClusterRole, whose rules are not
 * namespaced. resourceNames may go with several resources (a rule for a service and a deployment both
 * named "my-app"): current upstream does not restrict it.
 */
import { FieldError, FieldPath, fieldErrors } from '../../machinery/field-errors';
import type { KObject } from '../../machinery/object';

export interface PolicyRuleObject {
  verbs?: string[] | null;
  apiGroups?: string[] | null;
  resources?: string[] | null;
  resourceNames?: string[] | null;
  nonResourceURLs?: string[] | null;
}

const len = (v: unknown[] | null | undefined) => v?.length ?? 0;

export function validatePolicyRule(rule: PolicyRuleObject, namespaced: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (len(rule.verbs) === 0) errs.push(fieldErrors.required(path.child('verbs'), 'verbs must contain at least one value'));
  if (len(rule.nonResourceURLs) > 0) {
    const urls = rule.nonResourceURLs!;
    if (namespaced) errs.push(fieldErrors.invalid(path.child('nonResourceURLs'), urls, 'namespaced rules cannot apply to non-resource URLs'));
    if (len(rule.apiGroups) > 0 || len(rule.resources) > 0 || len(rule.resourceNames) > 0) {
      errs.push(fieldErrors.invalid(path.child('nonResourceURLs'), urls, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    // A non-resource rule is not checked as a resource rule.
    return errs;
  }
  if (len(rule.apiGroups) === 0) errs.push(fieldErrors.required(path.child('apiGroups'), 'resource rules must supply at least one api group'));
  if (len(rule.resources) === 0) errs.push(fieldErrors.required(path.child('resources'), 'resource rules must supply at least one resource'));
  return errs;
}

export function validateRole(obj: KObject): FieldError[] {
  const rules = (obj.rules ?? []) as PolicyRuleObject[];
  return rules.flatMap((rule, i) => validatePolicyRule(rule ?? {}, true, FieldPath.root('rules').index(i)));
}

/** Nothing in a Role is immutable: an update is checked as a create. */
export function validateRoleUpdate(obj: KObject): FieldError[] {
  return validateRole(obj);
}
