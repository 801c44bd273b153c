/** aggregatedRules: the cases of upstream's clusterroleaggregation controller test, and the edges of selection. */
import { aggregatedRules, ClusterRoleLike, PolicyRule, sameRules } from '../../../../src/auth/rbac';

const hammer = (): PolicyRule[] => [
  { verbs: ['hammer'], resources: ['nails'] },
  { verbs: ['hammer'], resources: ['wedges'] },
];
const chisel = (): PolicyRule[] => [{ verbs: ['chisel'], resources: ['mortises'] }];
const saw = (): PolicyRule[] => [{ verbs: ['saw'], resources: ['boards'] }];

const role = (name: string, labels: Record<string, string>, rules: PolicyRule[]): ClusterRoleLike => ({ metadata: { name, labels }, rules });
const combined = (selectors: Array<Record<string, string>>, ...rules: PolicyRule[][]): ClusterRoleLike => ({
  metadata: { name: 'combined' },
  aggregationRule: { clusterRoleSelectors: selectors.map((matchLabels) => ({ matchLabels })) },
  rules: rules.flat(),
});

/** One sync: the rules to write, or undefined when the stored ones already match (upstream's "no diff skip"). */
function sync(all: ClusterRoleLike[]): PolicyRule[] | undefined {
  const target = all.find((r) => r.metadata.name === 'combined')!;
  const wanted = aggregatedRules(target, all)!;
  return sameRules(wanted, target.rules) ? undefined : wanted;
}

describe('aggregatedRules (upstream TestSyncClusterRole)', () => {
  test('remove dead rules', () => {
    expect(sync([role('hammer', { foo: 'bar' }, hammer()), combined([{ foo: 'bar' }], saw())])).toEqual(hammer());
  });
  test('strip rules', () => {
    expect(sync([role('hammer', { foo: 'not-bar' }, hammer()), combined([{ foo: 'bar' }], hammer())])).toEqual([]);
  });
  test('select properly and put in order (by role name)', () => {
    const all = [role('hammer', { foo: 'bar' }, hammer()), role('chisel', { foo: 'bar' }, chisel()), role('saw', { foo: 'not-bar' }, saw()), combined([{ foo: 'bar' }])];
    expect(sync(all)).toEqual([...chisel(), ...hammer()]);
  });
  test('select properly with multiple selectors (selector order first)', () => {
    const all = [
      role('hammer', { foo: 'bar' }, hammer()),
      role('chisel', { foo: 'bar' }, chisel()),
      role('saw', { foo: 'not-bar' }, saw()),
      combined([{ foo: 'bar' }, { foo: 'not-bar' }]),
    ];
    expect(sync(all)).toEqual([...chisel(), ...hammer(), ...saw()]);
  });
  test('select properly, remove duplicates', () => {
    const all = [
      role('hammer', { foo: 'bar' }, hammer()),
      role('chisel', { foo: 'bar' }, chisel()),
      role('saw', { foo: 'bar' }, saw()),
      role('other-saw', { foo: 'not-bar' }, saw()),
      combined([{ foo: 'bar' }, { foo: 'not-bar' }]),
    ];
    expect(sync(all)).toEqual([...chisel(), ...hammer(), ...saw()]);
  });
  test('no diff skip', () => {
    expect(sync([role('hammer', { foo: 'bar' }, hammer()), combined([{ foo: 'bar' }], hammer())])).toBeUndefined();
  });
});

describe('aggregatedRules edges', () => {
  test('a role without aggregationRule keeps its own rules (undefined)', () => {
    expect(aggregatedRules(role('plain', {}, saw()), [])).toBeUndefined();
  });
  test('the role never aggregates itself, even when its labels match', () => {
    const self: ClusterRoleLike = { ...combined([{ foo: 'bar' }], saw()), metadata: { name: 'combined', labels: { foo: 'bar' } } };
    expect(aggregatedRules(self, [self, role('a', { foo: 'bar' }, chisel())])).toEqual(chisel());
  });
  test('rules differing only in absent versus empty lists are duplicates; rule order within a role is kept', () => {
    const a = role('a', { x: 'y' }, [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] }, { verbs: ['list'], apiGroups: [''], resources: ['pods'] }]);
    const b = role('b', { x: 'y' }, [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]);
    const agg: ClusterRoleLike = { metadata: { name: 'agg' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] } };
    expect(aggregatedRules(agg, [b, a, agg])).toEqual([
      { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
      { verbs: ['list'], apiGroups: [''], resources: ['pods'] },
    ]);
  });
  test('match expressions, an empty selector (everything) and no selectors at all', () => {
    const all = [role('a', { tier: 'gold' }, chisel()), role('b', { tier: 'silver' }, saw()), role('c', {}, hammer())];
    const pick = (clusterRoleSelectors: unknown[]) => aggregatedRules({ metadata: { name: 'agg' }, aggregationRule: { clusterRoleSelectors } as never }, all);
    expect(pick([{ matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['gold'] }] }])).toEqual([...saw(), ...hammer()]);
    expect(pick([{ matchExpressions: [{ key: 'tier', operator: 'Exists' }] }])).toEqual([...chisel(), ...saw()]);
    expect(pick([{}])).toEqual([...chisel(), ...saw(), ...hammer()]);
    expect(pick([])).toEqual([]);
  });
  test('aggregated roles contribute their current rules (view into edit into admin)', () => {
    const view = role('view', { 'aggregate-to-edit': 'true' }, saw());
    const edit: ClusterRoleLike = { metadata: { name: 'edit', labels: { 'aggregate-to-admin': 'true' } }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'aggregate-to-edit': 'true' } }] }, rules: saw() };
    const admin: ClusterRoleLike = { metadata: { name: 'admin' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'aggregate-to-admin': 'true' } }] } };
    expect(aggregatedRules(admin, [view, edit, admin])).toEqual(saw());
  });
  test('an unconvertible selector fails the computation, as upstream\'s sync does', () => {
    const agg: ClusterRoleLike = { metadata: { name: 'agg' }, aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'k', operator: 'Near' }] }] } };
    expect(() => aggregatedRules(agg, [])).toThrow('"Near" is not a valid label selector operator');
  });
  test('the input is not modified', () => {
    const all = [role('hammer', { foo: 'bar' }, hammer()), combined([{ foo: 'bar' }], saw())];
    const before = JSON.stringify(all);
    aggregatedRules(all[1], all)![0].verbs = ['changed'];
    expect(JSON.stringify(all)).toBe(before);
  });
});
