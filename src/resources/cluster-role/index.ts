/** ClusterRole: rbac.authorization.svc.io/v1, cluster-scoped; PUT may create, and needs no resourceVersion. */
import type { ResourceDefinition } from '../../machinery/resource-definition';
import { validatePathSegmentName } from '../../machinery/validation/names';
import { ClusterRole } from './cluster-role.types';
import { validateClusterRole, validateClusterRoleUpdate } from './cluster-role.validation';
import { roleAdmission } from '../role/rbac-admission';

export const clusterRoleDefinition: ResourceDefinition = {
  group: 'rbac.authorization.svc.io',
  upstreamGroup: 'rbac.authorization.k8s.io',
  version: 'v1',
  kind: 'ClusterRole',
  listKind: 'ClusterRoleList',
  plural: 'clusterroles',
  singular: 'clusterrole',
  shortNames: [],
  categories: [],
  namespaced: false,
  schemaRoot: ClusterRole,
  strategy: {
    validate: validateClusterRole,
    validateUpdate: validateClusterRoleUpdate,
  },
  subresources: {},
  fieldSelectors: {},
  // No printer upstream: the default Name / Created At table.
  usesGeneration: false,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  admit: roleAdmission('clusterroles'),
  validateName: validatePathSegmentName,
};
