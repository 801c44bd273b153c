/**
 * Upstream's checks of the parts the admissionregistration kinds share
 * (pkg/apis/admissionregistration/validation): rules with their operations
 * and resource/subresource wildcards, match conditions (names, count, CEL),
 * AdmissionReview versions, and the value sets of the enumerated fields.
 */
import { FieldError, fieldErrors, FieldPath, RenderedValue } from '../../machinery/field-errors';
import { T } from '../../machinery/cel';
import { isDNS1035Label, isQualifiedName } from '../../machinery/validation/names';
import { compileExpression, ExpressionScope, expressionErrors } from '../validating-admission-policy/admission-cel';

export interface RuleObject {
  operations?: string[] | null;
  apiGroups?: string[] | null;
  apiVersions?: string[] | null;
  resources?: string[] | null;
  scope?: string | null;
}

export interface MatchConditionObject {
  name?: string;
  expression?: string;
}

/** sets.String.List(): sorted, as upstream lists supported values. */
export const supportedFailurePolicies = ['Fail', 'Ignore'];
export const supportedMatchPolicies = ['Equivalent', 'Exact'];
export const supportedSideEffectClasses = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];
export const noSideEffectClasses = ['None', 'NoneOnDryRun'];
export const supportedReinvocationPolicies = ['IfNeeded', 'Never'];
const supportedOperations = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const validScopes = ['*', 'Cluster', 'Namespaced'];
export const acceptedAdmissionReviewVersions = ['v1', 'v1beta1'];
const maxMatchConditions = 64;

/** A Go slice of a named string type as %#v prints it, e.g. `[]admissionregistration.OperationType{"CREATE", "*"}`. */
export function goTypedList(type: string, values: readonly string[]): RenderedValue {
  return new RenderedValue(`[]${type}{${values.map((v) => JSON.stringify(v)).join(', ')}}`);
}

const present = <T>(v: T | null | undefined): v is T => v !== undefined && v !== null;

function validateResources(resources: string[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(fieldErrors.required(p));
  const withWildcardSubresource = new Set<string>();
  const subresourceWithWildcardResource = new Set<string>();
  let hasDoubleWildcard = false;
  let hasSingleWildcard = false;
  let hasResourceWithoutSubresource = false;
  resources.forEach((resSub, i) => {
    if (resSub === '') return void errs.push(fieldErrors.required(p.index(i)));
    if (resSub === '*/*') hasDoubleWildcard = true;
    if (resSub === '*') hasSingleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) {
      // Upstream assigns rather than ors: only the last resource without a subresource counts.
      hasResourceWithoutSubresource = resSub !== '*';
      return;
    }
    const [res, sub] = [resSub.slice(0, slash), resSub.slice(slash + 1)];
    if (withWildcardSubresource.has(res)) errs.push(fieldErrors.invalid(p.index(i), resSub, `if '${res}/*' is present, must not specify ${resSub}`));
    if (subresourceWithWildcardResource.has(sub)) errs.push(fieldErrors.invalid(p.index(i), resSub, `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === '*') withWildcardSubresource.add(res);
    if (res === '*') subresourceWithWildcardResource.add(sub);
  });
  if (resources.length > 1 && hasDoubleWildcard) errs.push(fieldErrors.invalid(p, resources, "if '*/*' is present, must not specify other resources"));
  if (hasSingleWildcard && hasResourceWithoutSubresource) errs.push(fieldErrors.invalid(p, resources, "if '*' is present, must not specify other resources without subresources"));
  return errs;
}

function validateRule(rule: RuleObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const groups = rule.apiGroups ?? [];
  const versions = rule.apiVersions ?? [];
  if (groups.length === 0) errs.push(fieldErrors.required(p.child('apiGroups')));
  if (groups.length > 1 && groups.includes('*')) errs.push(fieldErrors.invalid(p.child('apiGroups'), groups, "if '*' is present, must not specify other API groups"));
  if (versions.length === 0) errs.push(fieldErrors.required(p.child('apiVersions')));
  if (versions.length > 1 && versions.includes('*')) errs.push(fieldErrors.invalid(p.child('apiVersions'), versions, "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (v === '') errs.push(fieldErrors.required(p.child('apiVersions').index(i)));
  });
  errs.push(...validateResources(rule.resources ?? [], p.child('resources')));
  if (present(rule.scope) && !validScopes.includes(rule.scope)) errs.push(fieldErrors.notSupported(p.child('scope'), rule.scope, validScopes));
  return errs;
}

/** validateRuleWithOperations (subresources allowed, as for every v1 kind). */
export function validateRuleWithOperations(rule: RuleObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const ops = rule.operations ?? [];
  const opsPath = p.child('operations');
  if (ops.length === 0) errs.push(fieldErrors.required(opsPath));
  if (ops.length > 1 && ops.includes('*')) errs.push(fieldErrors.invalid(opsPath, goTypedList('admissionregistration.OperationType', ops), "if '*' is present, must not specify other operations"));
  ops.forEach((op, i) => {
    if (!supportedOperations.includes(op)) errs.push(fieldErrors.notSupported(opsPath.index(i), op, supportedOperations));
  });
  return [...errs, ...validateRule(rule, p)];
}

export function validateAdmissionReviewVersions(versions: string[] | null | undefined, requireRecognized: boolean, p: FieldPath): FieldError[] {
  if (!versions || versions.length === 0) return [fieldErrors.required(p, `must specify one of ${acceptedAdmissionReviewVersions.join(', ')}`)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let accepted = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) return void errs.push(fieldErrors.invalid(p.index(i), v, 'duplicate version'));
    seen.add(v);
    for (const msg of isDNS1035Label(v)) errs.push(fieldErrors.invalid(p.index(i), v, msg));
    if (acceptedAdmissionReviewVersions.includes(v)) accepted = true;
  });
  if (requireRecognized && !accepted) errs.push(fieldErrors.invalid(p, versions, `must include at least one of ${acceptedAdmissionReviewVersions.join(', ')}`));
  return errs;
}

export interface MatchConditionOptions {
  /** The owning policy has a paramKind (webhooks never declare params). */
  allowParams: boolean;
}

/** validateMatchConditions: at most 64, names unique qualified names, expressions that compile to bool. */
export function validateMatchConditions(conditions: MatchConditionObject[] | null | undefined, opts: MatchConditionOptions, p: FieldPath): FieldError[] {
  const list = conditions ?? [];
  const errs: FieldError[] = [];
  if (list.length > maxMatchConditions) errs.push(fieldErrors.tooMany(p, list.length, maxMatchConditions));
  const names = new Set<string>();
  const scope: ExpressionScope = { hasParams: opts.allowParams, hasAuthorizer: true };
  list.forEach((mc, i) => {
    const cp = p.index(i);
    const expression = (mc.expression ?? '').trim();
    if (expression === '') errs.push(fieldErrors.required(cp.child('expression')));
    else errs.push(...expressionErrors(cp.child('expression'), expression, compileExpression(expression, scope, [T.bool])));
    const name = mc.name ?? '';
    if (name === '') errs.push(fieldErrors.required(cp.child('name')));
    else for (const msg of isQualifiedName(name)) errs.push(fieldErrors.invalid(cp.child('name'), name, msg));
    if (name !== '') {
      if (names.has(name)) errs.push(fieldErrors.duplicate(cp.child('name'), name));
      else names.add(name);
    }
  });
  return errs;
}
