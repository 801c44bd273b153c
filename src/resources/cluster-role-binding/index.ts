/**
 * ClusterRoleBinding: rbac.authorization.svc.io/v1, cluster-scoped; PUT may create. Validation,
 * defaults and columns are RoleBinding's, with roleRef limited to ClusterRole and service-account
 * subjects needing a namespace.
 */
import type { KObject } from '../../machinery/object';
import type { ResourceDefinition } from '../../machinery/resource-definition';
import { validatePathSegmentName } from '../../machinery/validation/names';
import { applyBindingDefaults } from '../role-binding/role-binding.strategy';
import { bindingTable } from '../role-binding/role-binding.table';
import { BindingScope, validateBinding, validateBindingUpdate } from '../role-binding/role-binding.validation';
import { ClusterRoleBinding } from './cluster-role-binding.types';
import { bindingAdmission } from '../role/rbac-admission';

const clusterScope: BindingScope = { roleKinds: ['ClusterRole'], namespaced: false };

export const clusterRoleBindingDefinition: ResourceDefinition = {
  group: 'rbac.authorization.svc.io',
  upstreamGroup: 'rbac.authorization.k8s.io',
  version: 'v1',
  kind: 'ClusterRoleBinding',
  listKind: 'ClusterRoleBindingList',
  plural: 'clusterrolebindings',
  singular: 'clusterrolebinding',
  shortNames: [],
  categories: [],
  namespaced: false,
  schemaRoot: ClusterRoleBinding,
  strategy: {
    applyDefaults: applyBindingDefaults,
    validate: (obj: KObject) => validateBinding(obj, clusterScope),
    validateUpdate: (obj: KObject, old: KObject) => validateBindingUpdate(obj, old, clusterScope),
  },
  subresources: {},
  fieldSelectors: {},
  table: bindingTable('The ClusterRole granted, as ClusterRole/name.'),
  usesGeneration: false,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  admit: bindingAdmission('clusterrolebindings'),
  validateName: validatePathSegmentName,
};
