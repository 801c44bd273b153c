/** RoleBinding: rbac.authorization.svc.io/v1, namespaced; PUT may create, and needs no resourceVersion. */
import type { ResourceDefinition } from '../../machinery/resource-definition';
import { validatePathSegmentName } from '../../machinery/validation/names';
import { applyBindingDefaults } from './role-binding.strategy';
import { roleBindingTable } from './role-binding.table';
import { RoleBinding } from './role-binding.types';
import { validateRoleBinding, validateRoleBindingUpdate } from './role-binding.validation';
import { bindingAdmission } from '../role/rbac-admission';

export const roleBindingDefinition: ResourceDefinition = {
  group: 'rbac.authorization.svc.io',
  upstreamGroup: 'rbac.authorization.k8s.io',
  version: 'v1',
  kind: 'RoleBinding',
  listKind: 'RoleBindingList',
  plural: 'rolebindings',
  singular: 'rolebinding',
  shortNames: [],
  categories: [],
  namespaced: true,
  schemaRoot: RoleBinding,
  strategy: {
    applyDefaults: applyBindingDefaults,
    validate: validateRoleBinding,
    validateUpdate: validateRoleBindingUpdate,
  },
  subresources: {},
  fieldSelectors: {},
  table: roleBindingTable,
  usesGeneration: false,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  admit: bindingAdmission('rolebindings'),
  validateName: validatePathSegmentName,
};
