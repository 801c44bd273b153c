/** Role: rbac.authorization.svc.io/v1, namespaced; PUT may create, and needs no resourceVersion. */
import type { ResourceDefinition } from '../../machinery/resource-definition';
import { validatePathSegmentName } from '../../machinery/validation/names';
import { Role } from './role.types';
import { validateRole, validateRoleUpdate } from './role.validation';
import { roleAdmission } from './rbac-admission';

export const roleDefinition: ResourceDefinition = {
  group: 'rbac.authorization.svc.io',
  upstreamGroup: 'rbac.authorization.k8s.io',
  version: 'v1',
  kind: 'Role',
  listKind: 'RoleList',
  plural: 'roles',
  singular: 'role',
  shortNames: [],
  categories: [],
  namespaced: true,
  schemaRoot: Role,
  strategy: {
    validate: (obj) => validateRole(obj),
    validateUpdate: (obj) => validateRoleUpdate(obj),
  },
  subresources: {},
  fieldSelectors: {},
  // No printer upstream: the default Name / Created At table.
  usesGeneration: false,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  // Role names only need to be safe path segments.
  admit: roleAdmission('roles'),
  validateName: validatePathSegmentName,
};
