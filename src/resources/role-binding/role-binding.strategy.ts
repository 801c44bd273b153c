/**
 * Binding defaults (upstream rbac/v1 SetDefaults_RoleBinding, _ClusterRoleBinding, _Subject) and the
 * stored shape: roleRef.apiGroup defaults to the RBAC group, User and Group subjects get it too, and
 * empty optional subject fields are omitted as upstream's omitempty does. Shared by both binding kinds.
 */
import { isPlainObject, KObject } from '../../machinery/object';
import { BindingObject, RBAC_GROUP, SubjectObject } from './role-binding.validation';

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

export function canonicalizeBinding(obj: KObject): void {
  const b = obj as BindingObject;
  if (Array.isArray(b.subjects) && b.subjects.length === 0) delete b.subjects;
  for (const s of (b.subjects ?? []) as SubjectObject[]) {
    if (s.apiGroup === '') delete s.apiGroup;
    if (s.namespace === '') delete s.namespace;
  }
}
