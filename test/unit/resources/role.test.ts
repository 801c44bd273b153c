/** Role: PolicyRule validation with upstream's paths and messages, names, flags. */
import 'reflect-metadata';
import { errorText, FieldError } from '../../../src/machinery/field-errors';
import type { KObject } from '../../../src/machinery/object';
import { roleDefinition } from '../../../src/resources/role';
import { shapeAsStored } from '../../../src/registry/admission';
import { strategyContext } from '../../support/strategy-context';

const ctx = strategyContext();
const role = (rules?: unknown[]): KObject => ({ metadata: { name: 'r', namespace: 'default' }, ...(rules ? { rules } : {}) });
const validate = (obj: KObject) => roleDefinition.strategy.validate(obj, ctx) as FieldError[];
const summary = (errs: FieldError[]) => errs.map((e) => [e.field, e.type, errorText(e)]);

describe('Role validation', () => {
  test('resource and non-resource-free rules are valid; no rules is valid', () => {
    expect(validate(role())).toEqual([]);
    expect(validate(role([{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'pods/log'] }]))).toEqual([]);
    expect(validate(role([{ verbs: ['get'], apiGroups: ['*'], resources: ['configmaps'], resourceNames: ['one'] }]))).toEqual([]);
  });
  test('verbs are required', () => {
    expect(summary(validate(role([{ apiGroups: [''], resources: ['pods'] }])))).toEqual([
      ['rules[0].verbs', 'FieldValueRequired', 'rules[0].verbs: Required value: verbs must contain at least one value'],
    ]);
    expect(validate(role([{ verbs: [], apiGroups: [''], resources: ['pods'] }])).map((e) => e.field)).toEqual(['rules[0].verbs']);
  });
  test('apiGroups and resources are required for resource rules', () => {
    expect(summary(validate(role([{ verbs: ['get'] }, { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, { verbs: ['get'], resources: ['pods'] }])))).toEqual([
      ['rules[0].apiGroups', 'FieldValueRequired', 'rules[0].apiGroups: Required value: resource rules must supply at least one api group'],
      ['rules[0].resources', 'FieldValueRequired', 'rules[0].resources: Required value: resource rules must supply at least one resource'],
      ['rules[2].apiGroups', 'FieldValueRequired', 'rules[2].apiGroups: Required value: resource rules must supply at least one api group'],
    ]);
  });
  test('resourceNames may go with several resources, as upstream allows', () => {
    expect(validate(role([{ verbs: ['get'], apiGroups: ['', 'apps'], resources: ['services', 'deployments'], resourceNames: ['my-app'] }]))).toEqual([]);
  });
  test('a namespaced rule may not name non-resource URLs', () => {
    expect(summary(validate(role([{ verbs: ['get'], nonResourceURLs: ['/healthz'] }])))).toEqual([
      ['rules[0].nonResourceURLs', 'FieldValueInvalid', 'rules[0].nonResourceURLs: Invalid value: []string{"/healthz"}: namespaced rules cannot apply to non-resource URLs'],
    ]);
  });
  test('non-resource URLs mixed with resources: both errors, and no resource-rule checks', () => {
    expect(summary(validate(role([{ verbs: [], resources: ['pods'], nonResourceURLs: ['/x'] }])))).toEqual([
      ['rules[0].verbs', 'FieldValueRequired', 'rules[0].verbs: Required value: verbs must contain at least one value'],
      ['rules[0].nonResourceURLs', 'FieldValueInvalid', 'rules[0].nonResourceURLs: Invalid value: []string{"/x"}: namespaced rules cannot apply to non-resource URLs'],
      ['rules[0].nonResourceURLs', 'FieldValueInvalid', 'rules[0].nonResourceURLs: Invalid value: []string{"/x"}: rules cannot apply to both regular resources and non-resource URLs'],
    ]);
  });
  test('updates are validated like creates', () => {
    const errs = roleDefinition.strategy.validateUpdate(role([{ verbs: ['get'] }]), role(), ctx) as FieldError[];
    expect(errs.map((e) => e.field)).toEqual(['rules[0].apiGroups', 'rules[0].resources']);
  });
});

describe('Role definition', () => {
  test('names only need to be path segments', () => {
    expect(roleDefinition.validateName('Admin Role:x', false)).toEqual([]);
    expect(roleDefinition.validateName('a/b', false)).toEqual(["may not contain '/'"]);
    expect(roleDefinition.validateName('..', false)).toEqual(["may not be '..'"]);
  });
  test('a Role without rules (or with none) is stored with rules: null, as upstream', () => {
    const obj = role();
    shapeAsStored(roleDefinition, obj);
    expect(obj.rules).toBeNull();
    const empty = role([]);
    shapeAsStored(roleDefinition, empty);
    expect(empty.rules).toBeNull();
    const withRules = role([{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] }]);
    shapeAsStored(roleDefinition, withRules);
    expect(withRules.rules).toEqual([{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]);
  });
  test('flags, names and the default table', () => {
    expect(roleDefinition).toMatchObject({
      group: 'rbac.authorization.svc.io',
      version: 'v1',
      kind: 'Role',
      plural: 'roles',
      namespaced: true,
      shortNames: [],
      categories: [],
      fieldSelectors: {},
      usesGeneration: false,
      allowCreateOnUpdate: true,
      allowUnconditionalUpdate: true,
    });
    expect(roleDefinition.table).toBeUndefined();
  });
});
