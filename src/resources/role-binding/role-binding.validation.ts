/**
 * RoleBinding and ClusterRoleBinding rules (upstream ValidateRoleBinding,
 * ValidateClusterRoleBinding, ValidateRoleBindingSubject): roleRef group,
 * kind and name, subjects by kind, and roleRef immutable on update.
 */
import { FieldError, FieldPath, fieldErrors, RenderedValue } from '../../machinery/field-errors';
import type { KObject } from '../../machinery/object';
import { nameIsDNSSubdomain, validatePathSegmentName } from '../../machinery/validation/names';

export const RBAC_GROUP = 'rbac.authorization.svc.io';
const SUBJECT_KINDS = ['ServiceAccount', 'User', 'Group'];

export interface RoleRefObject {
  apiGroup?: string;
  kind?: string;
  name?: string;
}

export interface SubjectObject {
  kind?: string;
  apiGroup?: string;
  name?: string;
  namespace?: string;
}

export type BindingObject = KObject & { roleRef?: RoleRefObject | null; subjects?: SubjectObject[] | null };

/** What differs between the two binding kinds. */
export interface BindingScope {
  /** roleRef.kind values this binding may name. */
  roleKinds: readonly string[];
  /** A RoleBinding's service-account subjects may leave namespace empty. */
  namespaced: boolean;
}

export const roleBindingScope: BindingScope = { roleKinds: ['Role', 'ClusterRole'], namespaced: true };

const str = (v: unknown) => (typeof v === 'string' ? v : '');

function validateRoleRef(ref: RoleRefObject, scope: BindingScope): FieldError[] {
  const p = FieldPath.root('roleRef');
  const errs: FieldError[] = [];
  const apiGroup = str(ref.apiGroup);
  if (apiGroup !== RBAC_GROUP) errs.push(fieldErrors.notSupported(p.child('apiGroup'), apiGroup, [RBAC_GROUP]));
  const kind = str(ref.kind);
  if (!scope.roleKinds.includes(kind)) errs.push(fieldErrors.notSupported(p.child('kind'), kind, scope.roleKinds));
  const name = str(ref.name);
  if (name === '') errs.push(fieldErrors.required(p.child('name')));
  else for (const msg of validatePathSegmentName(name, false)) errs.push(fieldErrors.invalid(p.child('name'), name, msg));
  return errs;
}

export function validateSubject(subject: SubjectObject, namespaced: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(subject.name);
  const apiGroup = str(subject.apiGroup);
  if (name === '') errs.push(fieldErrors.required(path.child('name')));
  switch (subject.kind) {
    case 'ServiceAccount':
      if (name !== '') for (const msg of nameIsDNSSubdomain(name, false)) errs.push(fieldErrors.invalid(path.child('name'), name, msg));
      if (apiGroup !== '') errs.push(fieldErrors.notSupported(path.child('apiGroup'), apiGroup, ['']));
      if (!namespaced && str(subject.namespace) === '') errs.push(fieldErrors.required(path.child('namespace')));
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== RBAC_GROUP) errs.push(fieldErrors.notSupported(path.child('apiGroup'), apiGroup, [RBAC_GROUP]));
      break;
    default:
      errs.push(fieldErrors.notSupported(path.child('kind'), str(subject.kind), SUBJECT_KINDS));
  }
  return errs;
}

export function validateBinding(obj: KObject, scope: BindingScope): FieldError[] {
  const b = obj as BindingObject;
  const errs = validateRoleRef(b.roleRef ?? {}, scope);
  (b.subjects ?? []).forEach((s, i) => errs.push(...validateSubject(s ?? {}, scope.namespaced, FieldPath.root('subjects').index(i))));
  return errs;
}

/** Go's %#v of the internal rbac.RoleRef, which upstream shows as the bad value. */
function renderRoleRef(ref: RoleRefObject): RenderedValue {
  const q = (v: unknown) => JSON.stringify(str(v));
  return new RenderedValue(`rbac.RoleRef{APIGroup:${q(ref.apiGroup)}, Kind:${q(ref.kind)}, Name:${q(ref.name)}}`);
}

export function validateBindingUpdate(obj: KObject, old: KObject, scope: BindingScope): FieldError[] {
  const errs = validateBinding(obj, scope);
  const ref = (obj as BindingObject).roleRef ?? {};
  const prev = (old as BindingObject).roleRef ?? {};
  const same = (['apiGroup', 'kind', 'name'] as const).every((k) => str(ref[k]) === str(prev[k]));
  if (!same) errs.push(fieldErrors.invalid('roleRef', renderRoleRef(ref), 'cannot change roleRef'));
  return errs;
}

export const validateRoleBinding = (obj: KObject) => validateBinding(obj, roleBindingScope);
export const validateRoleBindingUpdate = (obj: KObject, old: KObject) => validateBindingUpdate(obj, old, roleBindingScope);
