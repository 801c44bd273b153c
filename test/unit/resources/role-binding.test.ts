/** RoleBinding and ClusterRoleBinding: upstream's validation cases (paths, reasons, messages), defaults, columns. */
import 'reflect-metadata';
import { errorText, FieldError } from '../../../src/machinery/field-errors';
import type { KObject } from '../../../src/machinery/object';
import type { ResourceDefinition } from '../../../src/machinery/resource-definition';
import { shapeAsStored } from '../../../src/registry/admission';
import { clusterRoleBindingDefinition } from '../../../src/resources/cluster-role-binding';
import { roleBindingDefinition } from '../../../src/resources/role-binding';
import { strategyContext } from '../../support/strategy-context';

const ctx = strategyContext();
const G = 'rbac.authorization.svc.io';

/** Defaults then validation, as the registry runs them. */
function check(def: ResourceDefinition, obj: KObject, old?: KObject): string[] {
  def.strategy.applyDefaults?.(obj, ctx);
  if (old) def.strategy.applyDefaults?.(old, ctx);
  const errs = (old ? def.strategy.validateUpdate(obj, old, ctx) : def.strategy.validate(obj, ctx)) as FieldError[];
  return errs.map(errorText);
}

const rb = (rest: Record<string, unknown>): KObject => ({ metadata: { name: 'b', namespace: 'default' }, ...rest });
const crb = (rest: Record<string, unknown>): KObject => ({ metadata: { name: 'b' }, ...rest });

const dnsMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe('RoleBinding validation', () => {
  test('a Role or ClusterRole ref with every subject kind is valid (defaults fill apiGroups)', () => {
    const obj = rb({
      roleRef: { kind: 'Role', name: 'valid' },
      subjects: [
        { kind: 'ServiceAccount', name: 'validsaname' },
        { kind: 'User', name: 'valid@username' },
        { kind: 'Group', name: 'valid@groupname' },
      ],
    });
    expect(check(roleBindingDefinition, obj)).toEqual([]);
    expect(obj.roleRef).toEqual({ kind: 'Role', name: 'valid', apiGroup: G });
    expect((obj.subjects as Array<{ apiGroup?: string }>).map((s) => s.apiGroup)).toEqual([undefined, G, G]);
    expect(check(roleBindingDefinition, rb({ roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'Admin Role:x' } }))).toEqual([]);
  });

  test('roleRef: group, kind and name', () => {
    expect(check(roleBindingDefinition, rb({ roleRef: { apiGroup: 'rbac.GroupName', kind: 'ClusterRole', name: 'valid' } }))).toEqual([
      'roleRef.apiGroup: Unsupported value: "rbac.GroupName": supported values: "rbac.authorization.svc.io"',
    ]);
    expect(check(roleBindingDefinition, rb({ roleRef: { kind: 'Type', name: 'valid' } }))).toEqual([
      'roleRef.kind: Unsupported value: "Type": supported values: "Role", "ClusterRole"',
    ]);
    expect(check(roleBindingDefinition, rb({ roleRef: { kind: 'Role' } }))).toEqual(['roleRef.name: Required value']);
    expect(check(roleBindingDefinition, rb({ roleRef: { kind: 'Role', name: 'a/b' } }))).toEqual([
      'roleRef.name: Invalid value: "a/b": may not contain \'/\'',
    ]);
    expect(check(roleBindingDefinition, rb({}))).toEqual([
      'roleRef.kind: Unsupported value: "": supported values: "Role", "ClusterRole"',
      'roleRef.name: Required value',
    ]);
  });

  test('subjects: kind, name, service-account name rules and apiGroups', () => {
    const ref = { kind: 'Role', name: 'valid' };
    expect(check(roleBindingDefinition, rb({ roleRef: ref, subjects: [{ name: 'subject' }] }))).toEqual([
      'subjects[0].kind: Unsupported value: "": supported values: "ServiceAccount", "User", "Group"',
    ]);
    expect(check(roleBindingDefinition, rb({ roleRef: ref, subjects: [{ kind: 'ServiceAccount', name: 'subject:bad' }] }))).toEqual([
      `subjects[0].name: Invalid value: "subject:bad": ${dnsMsg}`,
    ]);
    expect(check(roleBindingDefinition, rb({ roleRef: ref, subjects: [{ kind: 'ServiceAccount' }] }))).toEqual(['subjects[0].name: Required value']);
    expect(check(roleBindingDefinition, rb({ roleRef: ref, subjects: [{ kind: 'User' }, { kind: 'Group', name: '' }] }))).toEqual([
      'subjects[0].name: Required value',
      'subjects[1].name: Required value',
    ]);
    expect(check(roleBindingDefinition, rb({ roleRef: ref, subjects: [{ kind: 'ServiceAccount', name: 'sa', apiGroup: G }] }))).toEqual([
      'subjects[0].apiGroup: Unsupported value: "rbac.authorization.svc.io": supported values: ""',
    ]);
    expect(check(roleBindingDefinition, rb({ roleRef: ref, subjects: [{ kind: 'User', name: 'u', apiGroup: 'other' }, { kind: 'Group', name: 'g', apiGroup: 'example.com' }] }))).toEqual([
      'subjects[0].apiGroup: Unsupported value: "other": supported values: "rbac.authorization.svc.io"',
      'subjects[1].apiGroup: Unsupported value: "example.com": supported values: "rbac.authorization.svc.io"',
    ]);
  });

  test("upstream's group name (what kubectl create rolebinding writes) is read as ours in roleRef and User/Group subjects", () => {
    const k8s = 'rbac.authorization.k8s.io';
    const obj = rb({
      roleRef: { apiGroup: k8s, kind: 'ClusterRole', name: 'view' },
      subjects: [
        { kind: 'User', apiGroup: k8s, name: 'alice' },
        { kind: 'Group', apiGroup: k8s, name: 'devs' },
      ],
    });
    expect(check(roleBindingDefinition, obj)).toEqual([]);
    expect(obj.roleRef).toEqual({ apiGroup: G, kind: 'ClusterRole', name: 'view' });
    expect((obj.subjects as Array<{ apiGroup?: string }>).map((s) => s.apiGroup)).toEqual([G, G]);
    // A service account's group stays empty: upstream's name is as foreign there as any other.
    expect(check(roleBindingDefinition, rb({ roleRef: { kind: 'Role', name: 'r' }, subjects: [{ kind: 'ServiceAccount', name: 'sa', apiGroup: k8s }] }))).toEqual([
      'subjects[0].apiGroup: Unsupported value: "rbac.authorization.k8s.io": supported values: ""',
    ]);
  });

  test('a RoleBinding service account may leave namespace empty', () => {
    expect(check(roleBindingDefinition, rb({ roleRef: { kind: 'Role', name: 'r' }, subjects: [{ kind: 'ServiceAccount', name: 'default' }] }))).toEqual([]);
  });

  test('roleRef cannot change on update; subjects can', () => {
    const old = () => rb({ roleRef: { apiGroup: G, kind: 'Role', name: 'valid' }, metadata: { name: 'b', namespace: 'default', resourceVersion: '1' } });
    expect(check(roleBindingDefinition, rb({ roleRef: { kind: 'Role', name: 'valid' }, subjects: [{ kind: 'User', name: 'u' }] }), old())).toEqual([]);
    expect(check(roleBindingDefinition, rb({ roleRef: { apiGroup: G, kind: 'Role', name: 'changed' } }), old())).toEqual([
      'roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.svc.io", Kind:"Role", Name:"changed"}: cannot change roleRef',
    ]);
    expect(check(roleBindingDefinition, rb({ roleRef: { kind: 'ClusterRole', name: 'valid' } }), old())).toEqual([
      'roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.svc.io", Kind:"ClusterRole", Name:"valid"}: cannot change roleRef',
    ]);
  });
});

describe('ClusterRoleBinding validation', () => {
  test('valid with every subject kind when the service account names its namespace', () => {
    const obj = crb({
      roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'valid' },
      subjects: [
        { kind: 'ServiceAccount', name: 'validsaname', apiGroup: '', namespace: 'foo' },
        { kind: 'User', name: 'valid@username', apiGroup: G },
        { kind: 'Group', name: 'valid@groupname', apiGroup: G },
      ],
    });
    expect(check(clusterRoleBindingDefinition, obj)).toEqual([]);
  });

  test('upstream error cases', () => {
    const ref = { apiGroup: G, kind: 'ClusterRole', name: 'valid' };
    expect(check(clusterRoleBindingDefinition, crb({ roleRef: { ...ref, apiGroup: 'rbac.GroupName' } }))).toEqual([
      'roleRef.apiGroup: Unsupported value: "rbac.GroupName": supported values: "rbac.authorization.svc.io"',
    ]);
    expect(check(clusterRoleBindingDefinition, crb({ roleRef: { ...ref, kind: 'Type' } }))).toEqual([
      'roleRef.kind: Unsupported value: "Type": supported values: "ClusterRole"',
    ]);
    expect(check(clusterRoleBindingDefinition, crb({ roleRef: { ...ref, kind: 'Role' } }))).toEqual([
      'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
    ]);
    expect(check(clusterRoleBindingDefinition, crb({ roleRef: { apiGroup: G, kind: 'ClusterRole' } }))).toEqual(['roleRef.name: Required value']);
    expect(check(clusterRoleBindingDefinition, crb({ roleRef: ref, subjects: [{ name: 'subject' }] }))).toEqual([
      'subjects[0].kind: Unsupported value: "": supported values: "ServiceAccount", "User", "Group"',
    ]);
    expect(check(clusterRoleBindingDefinition, crb({ roleRef: ref, subjects: [{ namespace: 'foo', name: 'subject:bad', kind: 'ServiceAccount' }] }))).toEqual([
      `subjects[0].name: Invalid value: "subject:bad": ${dnsMsg}`,
    ]);
    expect(check(clusterRoleBindingDefinition, crb({ roleRef: ref, subjects: [{ name: 'good', kind: 'ServiceAccount' }] }))).toEqual([
      'subjects[0].namespace: Required value',
    ]);
    expect(check(clusterRoleBindingDefinition, crb({ roleRef: ref, subjects: [{ namespace: 'foo', kind: 'ServiceAccount' }] }))).toEqual([
      'subjects[0].name: Required value',
    ]);
  });

  test('roleRef cannot change on update', () => {
    const old = crb({ roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'view' } });
    expect(check(clusterRoleBindingDefinition, crb({ roleRef: { kind: 'ClusterRole', name: 'edit' } }), old)).toEqual([
      'roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.svc.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef',
    ]);
  });
});

describe('binding definitions', () => {
  test('stored shape drops empty optional subject fields and an empty subjects list', () => {
    const obj = rb({ roleRef: { kind: 'Role', name: 'r' }, subjects: [{ kind: 'ServiceAccount', name: 'sa', apiGroup: '', namespace: '' }] });
    roleBindingDefinition.strategy.applyDefaults!(obj, ctx);
    shapeAsStored(roleBindingDefinition, obj);
    expect(obj.subjects).toEqual([{ kind: 'ServiceAccount', name: 'sa' }]);
    const empty = rb({ roleRef: { kind: 'Role', name: 'r' }, subjects: [] });
    shapeAsStored(roleBindingDefinition, empty);
    expect('subjects' in empty).toBe(false);
  });

  test('columns: Name, Role, Age; wide: Users, Groups, ServiceAccounts', () => {
    for (const def of [roleBindingDefinition, clusterRoleBindingDefinition]) {
      expect(def.table!.columns.map((c) => [c.name, c.priority])).toEqual([
        ['Name', 0],
        ['Role', 0],
        ['Age', 0],
        ['Users', 1],
        ['Groups', 1],
        ['ServiceAccounts', 1],
      ]);
    }
    const obj = rb({
      metadata: { name: 'read', namespace: 'default', creationTimestamp: '2026-01-02T03:00:00Z' },
      roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'view' },
      subjects: [
        { kind: 'User', name: 'alice' },
        { kind: 'Group', name: 'devs' },
        { kind: 'User', name: 'bob' },
        { kind: 'ServiceAccount', name: 'builder', namespace: 'ci' },
        { kind: 'ServiceAccount', name: 'default' },
      ],
    });
    expect(roleBindingDefinition.table!.cells(obj, new Date('2026-01-02T03:04:05Z'))).toEqual([
      'read',
      'ClusterRole/view',
      '4m5s',
      'alice, bob',
      'devs',
      'ci/builder, /default',
    ]);
  });

  test('names, scope and flags as upstream', () => {
    expect(roleBindingDefinition).toMatchObject({ plural: 'rolebindings', namespaced: true, shortNames: [], categories: [], allowCreateOnUpdate: true, allowUnconditionalUpdate: true });
    expect(clusterRoleBindingDefinition).toMatchObject({ plural: 'clusterrolebindings', namespaced: false, shortNames: [], categories: [], allowCreateOnUpdate: true, allowUnconditionalUpdate: true });
    expect(roleBindingDefinition.validateName('system:controller:x', false)).toEqual([]);
    expect(clusterRoleBindingDefinition.validateName('a%b', false)).toEqual(["may not contain '%'"]);
  });
});
