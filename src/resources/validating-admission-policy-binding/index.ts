/**
 * ValidatingAdmissionPolicyBinding: admissionregistration.svc.io/v1 (also
 * answered and discovered as admissionregistration.k8s.io, so stock manifests
 * apply unchanged), cluster-scoped. Enforcing bound policies is admission's part.
 */
import type { ResourceDefinition } from '../../machinery/resource-definition';
import { nameIsDNSSubdomain } from '../../machinery/validation/names';
import { applyBindingDefaults } from './validating-admission-policy-binding.strategy';
import { bindingTable } from './validating-admission-policy-binding.table';
import { ValidatingAdmissionPolicyBinding } from './validating-admission-policy-binding.types';
import { validateBinding, validateBindingUpdate } from './validating-admission-policy-binding.validation';

export const validatingAdmissionPolicyBindingDefinition: ResourceDefinition = {
  group: 'admissionregistration.svc.io',
  upstreamGroup: 'admissionregistration.k8s.io',
  discoverUpstreamGroup: true,
  version: 'v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  listKind: 'ValidatingAdmissionPolicyBindingList',
  plural: 'validatingadmissionpolicybindings',
  singular: 'validatingadmissionpolicybinding',
  shortNames: [],
  categories: ['api-extensions'],
  namespaced: false,
  schemaRoot: ValidatingAdmissionPolicyBinding,
  strategy: { applyDefaults: applyBindingDefaults, validate: validateBinding, validateUpdate: validateBindingUpdate },
  subresources: {},
  fieldSelectors: {},
  table: bindingTable,
  usesGeneration: true,
  generationFields: ['spec'],
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: false,
  validateName: nameIsDNSSubdomain,
};

export type { BindingObject, BindingSpecObject, ParamRefObject } from './validating-admission-policy-binding.validation';
