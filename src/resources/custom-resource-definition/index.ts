/**
 * CustomResourceDefinition: apiextensions.svc.io/v1 (also answered as
 * apiextensions.k8s.io), cluster-scoped, with a /status subresource. Serving
 * the kinds a CRD defines is the CRD controller's part (machinery/structural
 * and machinery/jsonpath hold the pieces it builds them from).
 */
import type { ResourceDefinition } from '../../machinery/resource-definition';
import { nameIsDNSSubdomain } from '../../machinery/validation/names';
import { applyDefaults, crdDeletion, prepareForCreate, prepareForStatusUpdate, prepareForUpdate } from './custom-resource-definition.strategy';
import { crdTable } from './custom-resource-definition.table';
import { CustomResourceDefinition } from './custom-resource-definition.types';
import { validateCRD, validateCRDStatusUpdate, validateCRDUpdate } from './custom-resource-definition.validation';

export const customResourceDefinitionDefinition: ResourceDefinition = {
  group: 'apiextensions.svc.io',
  upstreamGroup: 'apiextensions.k8s.io',
  discoverUpstreamGroup: true,
  version: 'v1',
  kind: 'CustomResourceDefinition',
  listKind: 'CustomResourceDefinitionList',
  plural: 'customresourcedefinitions',
  singular: 'customresourcedefinition',
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  namespaced: false,
  schemaRoot: CustomResourceDefinition,
  strategy: { prepareForCreate, prepareForUpdate, applyDefaults, validate: validateCRD, validateUpdate: validateCRDUpdate, deletion: crdDeletion },
  subresources: {
    status: { verbs: ['get', 'patch', 'update'], prepareForUpdate: prepareForStatusUpdate, validateUpdate: validateCRDStatusUpdate },
  },
  fieldSelectors: {},
  table: crdTable,
  usesGeneration: true,
  generationFields: ['spec'],
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: false,
  // Upstream's DNS-subdomain rule; that the name is <plural>.<group> is checked with the spec.
  validateName: nameIsDNSSubdomain,
};

export { CRDConditions, findCondition, isConditionTrue, removeCondition, setCondition } from './crd-conditions';
export { toInternalSpec } from './crd-internal';
export type { SpecV1 as CustomResourceDefinitionSpecObject, StatusV1 as CustomResourceDefinitionStatusObject, Version as CustomResourceDefinitionVersionObject } from './crd-internal';
export { API_APPROVED_ANNOTATION, isProtectedGroup } from './crd-approval';
export { customResourceCleanupFinalizer } from './custom-resource-definition.strategy';
