/** ClusterRole: cluster-wide policy rules and the aggregation rule, with upstream's paths and messages. */
import 'reflect-metadata';
import { errorText, FieldError } from '../../../src/machinery/field-errors';
import type { KObject } from '../../../src/machinery/object';
import { clusterRoleDefinition } from '../../../src/resources/cluster-role';
import { shapeAsStored } from '../../../src/registry/admission';
import { strategyContext } from '../../support/strategy-context';

const ctx = strategyContext();
const role = (rest: Record<string, unknown> = {}): KObject => ({ metadata: { name: 'default' }, ...rest });
const validate = (obj: KObject) => (clusterRoleDefinition.strategy.validate(obj, ctx) as FieldError[]).map(errorText);
const validateUpdate = (obj: KObject, old: KObject) => (clusterRoleDefinition.strategy.validateUpdate(obj, old, ctx) as FieldError[]).map(errorText);

describe('ClusterRole rules', () => {
  test('no rules, resource rules and non-resource URLs are valid', () => {
    expect(validate(role())).toEqual([]);
    expect(validate(role({ rules: [{ verbs: ['get'], nonResourceURLs: ['/*'] }] }))).toEqual([]);
    expect(validate(role({ rules: [{ verbs: ['get'], apiGroups: ['v1'], resources: ['pods'] }] }))).toEqual([]);
  });
  test('a non-resource rule still needs verbs, and may not also name resources', () => {
    expect(validate(role({ rules: [{ verbs: [], nonResourceURLs: ['/*'] }] }))).toEqual(['rules[0].verbs: Required value: verbs must contain at least one value']);
    expect(validate(role({ rules: [{ verbs: ['get'], nonResourceURLs: ['/*'], apiGroups: ['v1'], resources: ['pods'] }] }))).toEqual([
      'rules[0].nonResourceURLs: Invalid value: []string{"/*"}: rules cannot apply to both regular resources and non-resource URLs',
    ]);
  });
  test('resource rules need api groups and resources', () => {
    expect(validate(role({ rules: [{ verbs: ['get'], resources: ['pods'] }, { verbs: ['get'], apiGroups: ['v1'] }] }))).toEqual([
      'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
      'rules[1].resources: Required value: resource rules must supply at least one resource',
    ]);
  });
});

describe('ClusterRole aggregationRule', () => {
  const selectors = (...s: unknown[]) => role({ aggregationRule: { clusterRoleSelectors: s } });
  test('label selectors, alone or with rules, are valid', () => {
    expect(validate(selectors({ matchLabels: { 'rbac.example.com/aggregate-to-view': 'true' } }))).toEqual([]);
    expect(validate(selectors({ matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }] }, {}))).toEqual([]);
  });
  test('an aggregationRule without selectors is refused', () => {
    const msg = 'aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil';
    expect(validate(role({ aggregationRule: {} }))).toEqual([msg]);
    expect(validate(selectors())).toEqual([msg]);
  });
  test('a bad selector: its own errors, then upstream\'s "invalid label selector."', () => {
    expect(validate(selectors({ matchLabels: { 'bad key': 'x' } }))).toEqual([
      'aggregationRule.clusterRoleSelectors[0].matchLabels: Invalid value: "bad key": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
      'aggregationRule.clusterRoleSelectors[0]: Invalid value: "null": invalid label selector.',
    ]);
    expect(validate(selectors({}, { matchExpressions: [{ key: 'k', operator: 'Near' }] }))).toEqual([
      'aggregationRule.clusterRoleSelectors[1].matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator',
      'aggregationRule.clusterRoleSelectors[1]: Invalid value: "null": invalid label selector.',
    ]);
  });
  test('an update keeps accepting a stored bad label value (only the conversion error remains)', () => {
    const bad = () => selectors({ matchExpressions: [{ key: 'k', operator: 'In', values: ['not ok'] }] });
    const valueErr = 'aggregationRule.clusterRoleSelectors[0].matchExpressions[0].values[0]: Invalid value: "not ok"';
    expect(validate(bad())[0]).toMatch(valueErr);
    const onUpdate = validateUpdate(bad(), bad());
    expect(onUpdate).toEqual(['aggregationRule.clusterRoleSelectors[0]: Invalid value: "null": invalid label selector.']);
    expect(validateUpdate(bad(), selectors({ matchLabels: { a: 'b' } }))[0]).toMatch(valueErr);
  });
});

describe('ClusterRole definition', () => {
  test('cluster-scoped, path-segment names, PUT creates, default table', () => {
    expect(clusterRoleDefinition).toMatchObject({
      group: 'rbac.authorization.svc.io',
      kind: 'ClusterRole',
      plural: 'clusterroles',
      namespaced: false,
      shortNames: [],
      categories: [],
      allowCreateOnUpdate: true,
      allowUnconditionalUpdate: true,
    });
    expect(clusterRoleDefinition.table).toBeUndefined();
    expect(clusterRoleDefinition.validateName('system:aggregate-to-view', false)).toEqual([]);
  });
  test('stored shape: rules null when absent, a null aggregationRule omitted', () => {
    const obj = role({ aggregationRule: null });
    shapeAsStored(clusterRoleDefinition, obj);
    expect(obj.rules).toBeNull();
    expect('aggregationRule' in obj).toBe(false);
  });
});
