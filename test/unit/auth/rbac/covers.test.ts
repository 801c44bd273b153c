/** rulesCover, breakdownRule, compactRules, compactRuleString: the cases of upstream's policy_comparator_test and policy_compact_test. */
import { breakdownRule, compactRules, compactRuleString, PolicyRule, rulesCover } from '../../../../src/auth/rbac';
import { ruleObject } from '../../../../src/auth/rbac/covers';

const r = (apiGroups: string[], verbs: string[], resources: string[], resourceNames?: string[]): PolicyRule => ({
  apiGroups,
  verbs,
  resources,
  ...(resourceNames ? { resourceNames } : {}),
});
const u = (nonResourceURLs: string[], verbs: string[]): PolicyRule => ({ nonResourceURLs, verbs });

/** Order-insensitive comparison of rule lists, as upstream's rulesMatch. */
const sorted = (rules: PolicyRule[]) => rules.map((x) => JSON.stringify(ruleObject(x))).sort();

const cases: Array<[string, PolicyRule[], PolicyRule[], boolean, PolicyRule[]]> = [
  ['exact match', [r(['v1'], ['get'], ['builds'])], [r(['v1'], ['get'], ['builds'])], true, []],
  ['subresource wildcard', [r(['v1'], ['get'], ['*/scale'])], [r(['v1'], ['get'], ['foo/scale'])], true, []],
  [
    'multiple rules covering a single rule',
    [r(['v1'], ['delete'], ['deployments']), r(['v1'], ['delete'], ['builds']), r(['v1'], ['update'], ['builds', 'deployments'])],
    [r(['v1'], ['delete', 'update'], ['builds', 'deployments'])],
    true,
    [],
  ],
  [
    'multiple api groups covering a single rule',
    [
      r(['group1'], ['delete'], ['deployments']),
      r(['group1'], ['delete'], ['builds']),
      r(['group1'], ['update'], ['builds', 'deployments']),
      r(['group2'], ['delete'], ['deployments']),
      r(['group2'], ['delete'], ['builds']),
      r(['group2'], ['update'], ['builds', 'deployments']),
    ],
    [r(['group1', 'group2'], ['delete', 'update'], ['builds', 'deployments'])],
    true,
    [],
  ],
  [
    'single rule covering multiple',
    [r(['group1', 'group2'], ['delete', 'update'], ['builds', 'deployments'])],
    [
      r(['group1'], ['delete'], ['deployments']),
      r(['group1'], ['delete'], ['builds']),
      r(['group1'], ['update'], ['builds', 'deployments']),
      r(['group2'], ['delete'], ['deployments']),
      r(['group2'], ['delete'], ['builds']),
      r(['group2'], ['update'], ['builds', 'deployments']),
    ],
    true,
    [],
  ],
  [
    'multiple rules missing a single verb-resource combination',
    [r(['v1'], ['delete', 'update'], ['builds', 'deployments']), r(['v1'], ['delete'], ['pods'])],
    [r(['v1'], ['delete', 'update'], ['builds', 'deployments', 'pods'])],
    false,
    [r(['v1'], ['update'], ['pods'])],
  ],
  ['api group star covering multiple', [r(['*'], ['get'], ['roles'])], [r(['group1', 'group2'], ['get'], ['roles'])], true, []],
  ['enumeration not covering api group star', [r(['dummy-group'], ['get'], ['roles'])], [r(['*'], ['get'], ['roles'])], false, [r(['*'], ['get'], ['roles'])]],
  ['api group star covering star', [r(['*'], ['get'], ['roles'])], [r(['*'], ['get'], ['roles'])], true, []],
  ['verb star covering multiple', [r(['v1'], ['*'], ['roles'])], [r(['v1'], ['watch', 'list'], ['roles'])], true, []],
  [
    'enumeration not covering verb star',
    [r(['v1'], ['get', 'list', 'watch', 'create', 'update', 'delete', 'exec'], ['roles'])],
    [r(['v1'], ['*'], ['roles'])],
    false,
    [r(['v1'], ['*'], ['roles'])],
  ],
  ['verb star covering star', [r(['v1'], ['*'], ['roles'])], [r(['v1'], ['*'], ['roles'])], true, []],
  ['resource star covering multiple', [r(['v1'], ['get'], ['*'])], [r(['v1'], ['get'], ['resourcegroup:deployments'])], true, []],
  [
    'enumeration not covering resource star',
    [r(['v1'], ['get'], ['roles', 'resourcegroup:deployments'])],
    [r(['v1'], ['get'], ['*'])],
    false,
    [r(['v1'], ['get'], ['*'])],
  ],
  ['resource star covering star', [r(['v1'], ['get'], ['*'])], [r(['v1'], ['get'], ['*'])], true, []],
  ['resource name empty covering multiple', [r(['v1'], ['get'], ['pods'], [])], [r(['v1'], ['get'], ['pods'], ['foo', 'bar'])], true, []],
  [
    'enumeration not covering resource name empty',
    [r(['v1'], ['get'], ['pods'], ['foo', 'bar'])],
    [r(['v1'], ['get'], ['pods'], [])],
    false,
    [r(['v1'], ['get'], ['pods'])],
  ],
  ['non-resource URLs', [u(['/apis'], ['*'])], [u(['/apis'], ['*'])], true, []],
  ['non-resource URLs star', [u(['*'], ['*'])], [u(['/apis', '/apis/v1', '/'], ['*'])], true, []],
  ['non-resource URLs star after prefix does not cover the bare prefix', [u(['/apis/*'], ['*'])], [u(['/apis', '/apis/v1'], ['get'])], false, [u(['/apis'], ['get'])]],
  ['non-resource URLs star after prefix', [u(['/apis/*'], ['*'])], [u(['/apis/v1/foo', '/apis/v1'], ['get'])], true, []],
  [
    'non-resource URLs with other fields',
    [{ ...r(['v1'], ['get'], ['builds']), nonResourceURLs: ['/apis'] }],
    [{ ...r(['v1'], ['get'], ['builds']), nonResourceURLs: ['/apis'] }],
    true,
    [],
  ],
  [
    'non-resource URLs with other fields, failure',
    [r(['v1'], ['get'], ['builds'])],
    [{ ...r(['v1'], ['get'], ['builds']), nonResourceURLs: ['/apis'] }],
    false,
    [u(['/apis'], ['get'])],
  ],
  ['a subresource wildcard does not cover the main resource', [r(['v1'], ['get'], ['*/scale'])], [r(['v1'], ['get'], ['foo'])], false, [r(['v1'], ['get'], ['foo'])]],
  ['a subresource wildcard does not cover another subresource', [r(['v1'], ['get'], ['*/scale'])], [r(['v1'], ['get'], ['foo/status'])], false, [r(['v1'], ['get'], ['foo/status'])]],
  ['a resource does not cover its subresources', [r(['v1'], ['get'], ['foo'])], [r(['v1'], ['get'], ['foo/scale'])], false, [r(['v1'], ['get'], ['foo/scale'])]],
  ['nothing requested is always covered', [], [], true, []],
  ['no owner rules cover nothing', [], [r([''], ['get'], ['pods'])], false, [r([''], ['get'], ['pods'])]],
];

describe('rulesCover', () => {
  test.each(cases)('%s', (_name, owner, requested, covered, uncovered) => {
    const result = rulesCover(owner, requested);
    expect(result.covered).toBe(covered);
    expect(sorted(result.uncovered)).toEqual(sorted(uncovered));
  });

  test.each([
    ['*', '/api', true],
    ['/api', '/api', true],
    ['/apis', '/api', false],
    ['/api/v1', '/api', false],
    ['/api/v1', '/api/v1', true],
    ['/api/*', '/api/v1', true],
    ['/api/*', '/api', false],
    ['/api/*/*', '/api/v1', false],
    ['/*/v1/*', '/api/v1', false],
  ])('non-resource URL %s covers %s: %s', (owner, requested, want) => {
    expect(rulesCover([u([owner], ['get'])], [u([requested], ['get'])]).covered).toBe(want);
  });
});

describe('breakdownRule', () => {
  test('group × resource × verb × name, then URL × verb', () => {
    expect(breakdownRule({ apiGroups: ['', 'apps'], resources: ['a'], verbs: ['get', 'list'], resourceNames: ['x'] })).toEqual([
      { apiGroups: [''], resources: ['a'], verbs: ['get'], resourceNames: ['x'] },
      { apiGroups: [''], resources: ['a'], verbs: ['list'], resourceNames: ['x'] },
      { apiGroups: ['apps'], resources: ['a'], verbs: ['get'], resourceNames: ['x'] },
      { apiGroups: ['apps'], resources: ['a'], verbs: ['list'], resourceNames: ['x'] },
    ]);
    expect(breakdownRule({ nonResourceURLs: ['/a', '/b'], verbs: ['get'] })).toEqual([
      { nonResourceURLs: ['/a'], verbs: ['get'] },
      { nonResourceURLs: ['/b'], verbs: ['get'] },
    ]);
    expect(breakdownRule({ verbs: ['get'], resources: ['pods'] })).toEqual([]);
  });
});

describe('compactRules', () => {
  const compactCases: Array<[string, PolicyRule[], PolicyRule[]]> = [
    ['empty', [], []],
    [
      'simple',
      [
        { verbs: ['get'], apiGroups: [''], resources: ['builds'] },
        { verbs: ['list'], apiGroups: [''], resources: ['builds'] },
        { verbs: ['update', 'patch'], apiGroups: [''], resources: ['builds'] },
        { verbs: ['create'], apiGroups: ['extensions'], resources: ['daemonsets'] },
        { verbs: ['delete'], apiGroups: ['extensions'], resources: ['daemonsets'] },
        { verbs: ['patch'], apiGroups: ['extensions'], resources: ['daemonsets'], resourceNames: [''] },
        { verbs: ['get'], apiGroups: ['extensions'], resources: ['daemonsets'], resourceNames: ['foo'] },
        { verbs: ['list'], apiGroups: ['extensions'], resources: ['daemonsets'], resourceNames: ['foo'] },
        { verbs: ['educate'], apiGroups: [''], resources: ['dolphins'] },
        { verbs: null, apiGroups: [''], resources: ['pirates'] },
        { verbs: null, apiGroups: [''], resources: ['pods'] },
        { verbs: ['create'], apiGroups: [''], resources: ['pods'] },
      ],
      [
        { verbs: ['create', 'delete'], apiGroups: ['extensions'], resources: ['daemonsets'] },
        { verbs: ['patch'], apiGroups: ['extensions'], resources: ['daemonsets'], resourceNames: [''] },
        { verbs: ['get', 'list'], apiGroups: ['extensions'], resources: ['daemonsets'], resourceNames: ['foo'] },
        { verbs: ['get', 'list', 'update', 'patch'], apiGroups: [''], resources: ['builds'] },
        { verbs: ['educate'], apiGroups: [''], resources: ['dolphins'] },
        { verbs: [], apiGroups: [''], resources: ['pirates'] },
        { verbs: ['create'], apiGroups: [''], resources: ['pods'] },
      ],
    ],
    [
      'complex multi-group',
      [
        { verbs: ['get'], apiGroups: ['', 'builds.openshift.io'], resources: ['builds'] },
        { verbs: ['list'], apiGroups: ['', 'builds.openshift.io'], resources: ['builds'] },
      ],
      [
        { verbs: ['get'], apiGroups: ['', 'builds.openshift.io'], resources: ['builds'] },
        { verbs: ['list'], apiGroups: ['', 'builds.openshift.io'], resources: ['builds'] },
      ],
    ],
    [
      'complex multi-resource',
      [
        { verbs: ['get'], apiGroups: [''], resources: ['builds', 'images'] },
        { verbs: ['list'], apiGroups: [''], resources: ['builds', 'images'] },
      ],
      [
        { verbs: ['get'], apiGroups: [''], resources: ['builds', 'images'] },
        { verbs: ['list'], apiGroups: [''], resources: ['builds', 'images'] },
      ],
    ],
    [
      'complex named-resource',
      [
        { verbs: ['get'], apiGroups: [''], resources: ['builds'], resourceNames: ['mybuild'] },
        { verbs: ['list'], apiGroups: [''], resources: ['builds'], resourceNames: ['mybuild2'] },
      ],
      [
        { verbs: ['get'], apiGroups: [''], resources: ['builds'], resourceNames: ['mybuild'] },
        { verbs: ['list'], apiGroups: [''], resources: ['builds'], resourceNames: ['mybuild2'] },
      ],
    ],
    [
      'complex non-resource',
      [
        { verbs: ['get'], apiGroups: [''], resources: ['builds'], nonResourceURLs: ['/'] },
        { verbs: ['get'], apiGroups: [''], resources: ['builds'], nonResourceURLs: ['/foo'] },
      ],
      [
        { verbs: ['get'], apiGroups: [''], resources: ['builds'], nonResourceURLs: ['/'] },
        { verbs: ['get'], apiGroups: [''], resources: ['builds'], nonResourceURLs: ['/foo'] },
      ],
    ],
  ];

  test.each(compactCases)('%s', (_name, rules, expected) => {
    const before = JSON.stringify(rules);
    const compacted = compactRules(rules);
    expect(JSON.stringify(rules)).toBe(before);
    expect(rulesCover(compacted, rules).covered).toBe(true);
    expect(rulesCover(rules, compacted).covered).toBe(true);
    expect(sorted(compacted)).toEqual(sorted(expected));
  });
});

describe('compactRuleString', () => {
  test('upstream CompactString: only the set fields, Go-quoted, space separated', () => {
    expect(compactRuleString({ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] })).toBe('{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}');
    expect(compactRuleString({ apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['web'], verbs: ['update'] })).toBe(
      '{APIGroups:["apps"], Resources:["deployments"], ResourceNames:["web"], Verbs:["update"]}',
    );
    expect(compactRuleString({ nonResourceURLs: ['/metrics'], verbs: ['get'] })).toBe('{NonResourceURLs:["/metrics"], Verbs:["get"]}');
    expect(compactRuleString({ verbs: ['say "hi"\\'] })).toBe('{Verbs:["say \\"hi\\"\\\\"]}');
  });
});
