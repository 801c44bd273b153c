/**
 * Binding defaults (upstream rbac/v1 SetDefaults_RoleBinding, _ClusterRoleBinding, _Subject): roleRef.apiGroup
 * defaults to the RBAC group, User and Group subjects get it too. Shared by both binding kinds; the stored
 * shape (empty optional subject fields omitted) follows the fields' declared tags.
 */
import { isPlainObject, KObject } from '../../machinery/object';
import { BindingObject, RBAC_GROUP } from './role-binding.validation';

/**
 * Upstream's name for the RBAC group: kubectl's create rolebinding / clusterrolebinding write it into
 * roleRef and User/Group subjects, so it is read as ours, like an empty group.
 */
export const UPSTREAM_RBAC_GROUP = 'rbac.authorization.k8s.io';
const defaulted = (group: unknown) => !group || group === UPSTREAM_RBAC_GROUP;

export function applyBindingDefaults(obj: KObject): void {
  const b = obj as BindingObject;
  if (b.roleRef === undefined || b.roleRef === null) b.roleRef = {};
  if (isPlainObject(b.roleRef) && defaulted(b.roleRef.apiGroup)) b.roleRef.apiGroup = RBAC_GROUP;
  for (const s of b.subjects ?? []) {
    if (isPlainObject(s) && defaulted(s.apiGroup) && (s.kind === 'User' || s.kind === 'Group')) s.apiGroup = RBAC_GROUP;
  }
}
