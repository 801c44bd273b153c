/**
 * The upstream JSON shapes of admissionregistration/v1 ValidatingAdmissionPolicy and
 * ValidatingAdmissionPolicyBinding, as the plugin reads them (plain objects from the
 * registry), and the API defaults it relies on: the plugin applies them itself, so a
 * stored object that was not defaulted means what it would mean upstream.
 */
import type { MetaLabelSelector } from '../../machinery/label-selector';
import type { KObject } from '../../machinery/object';

export const ADMISSIONREGISTRATION_GROUP = 'admissionregistration.svc.io';
export const POLICY_PLURAL = 'validatingadmissionpolicies';
export const BINDING_PLURAL = 'validatingadmissionpolicybindings';

export type FailurePolicy = 'Fail' | 'Ignore';
export type ValidationAction = 'Deny' | 'Warn' | 'Audit';

import type { MatchResourcesObject, NamedRuleObject, ParamKindObject } from '../../resources/validating-admission-policy';

// The stored shapes the policy kinds validate, read here as they are.
export type { MatchResourcesObject, NamedRuleObject, ParamKindObject };
export type { RuleObject } from '../../resources/validating-webhook-configuration';

export interface ValidationObject {
  expression: string;
  message?: string;
  reason?: string;
  messageExpression?: string;
}

export interface NamedExpression {
  name: string;
  expression: string;
}

export interface AuditAnnotationObject {
  key: string;
  valueExpression: string;
}


export interface PolicyObject extends KObject {
  spec?: {
    paramKind?: ParamKindObject | null;
    matchConstraints?: MatchResourcesObject | null;
    validations?: ValidationObject[];
    failurePolicy?: string;
    auditAnnotations?: AuditAnnotationObject[];
    matchConditions?: NamedExpression[];
    variables?: NamedExpression[];
  };
}

export interface ParamRefObject {
  name?: string;
  namespace?: string;
  selector?: MetaLabelSelector | null;
  parameterNotFoundAction?: 'Allow' | 'Deny';
}

export interface BindingObject extends KObject {
  spec?: {
    policyName?: string;
    paramRef?: ParamRefObject | null;
    matchResources?: MatchResourcesObject | null;
    validationActions?: ValidationAction[];
  };
}

/** SetDefaults_MatchResources and SetDefaults_Rule: Equivalent matching, `{}` selectors, scope `*`. */
export function defaultMatchResources(m: MatchResourcesObject): MatchResourcesObject {
  const rule = (r: NamedRuleObject): NamedRuleObject => (r.scope ? r : { ...r, scope: '*' });
  return {
    ...m,
    matchPolicy: m.matchPolicy ?? 'Equivalent',
    namespaceSelector: m.namespaceSelector ?? {},
    objectSelector: m.objectSelector ?? {},
    resourceRules: m.resourceRules?.map(rule),
    excludeResourceRules: m.excludeResourceRules?.map(rule),
  };
}

/** The policy's failurePolicy: Fail unless it says Ignore (an unknown value denies, as upstream). */
export function failurePolicyOf(policy: PolicyObject): string {
  return policy.spec?.failurePolicy ?? 'Fail';
}
