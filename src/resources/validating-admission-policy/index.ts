/**
 * ValidatingAdmissionPolicy: admissionregistration.svc.io/v1 (also answered
 * and discovered as admissionregistration.k8s.io, so stock manifests apply
 * unchanged), cluster-scoped, with a /status subresource (type checking
 * warnings, written by a controller). Enforcing policies is admission's part.
 */
import type { ResourceDefinition } from '../../machinery/resource-definition';
import { nameIsDNSSubdomain } from '../../machinery/validation/names';
import { applyPolicyDefaults, prepareForStatusUpdate } from './validating-admission-policy.strategy';
import { policyTable } from './validating-admission-policy.table';
import { ValidatingAdmissionPolicy } from './validating-admission-policy.types';
import { validatePolicy, validatePolicyStatusUpdate, validatePolicyUpdate } from './validating-admission-policy.validation';

export const validatingAdmissionPolicyDefinition: ResourceDefinition = {
  group: 'admissionregistration.svc.io',
  upstreamGroup: 'admissionregistration.k8s.io',
  discoverUpstreamGroup: true,
  version: 'v1',
  kind: 'ValidatingAdmissionPolicy',
  listKind: 'ValidatingAdmissionPolicyList',
  plural: 'validatingadmissionpolicies',
  singular: 'validatingadmissionpolicy',
  shortNames: [],
  categories: ['api-extensions'],
  namespaced: false,
  schemaRoot: ValidatingAdmissionPolicy,
  strategy: { applyDefaults: applyPolicyDefaults, validate: validatePolicy, validateUpdate: validatePolicyUpdate },
  subresources: {
    status: { verbs: ['get', 'patch', 'update'], prepareForUpdate: prepareForStatusUpdate, validateUpdate: validatePolicyStatusUpdate, resetObjectMeta: true },
  },
  fieldSelectors: {},
  table: policyTable,
  usesGeneration: true,
  generationFields: ['spec'],
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: false,
  validateName: nameIsDNSSubdomain,
};

export { compileExpression, type CompileOutcome, type ExpressionScope } from './admission-cel';
export type { PolicyObject, PolicySpecObject, PolicyStatusObject, ValidationObject } from './validating-admission-policy.validation';
export type { ExpressionWarning } from './validating-admission-policy.types';
export type { MatchResourcesObject, NamedRuleObject, ParamKindObject } from './match-resources.validation';
