/** ruleAllows: the cases of upstream's TestRuleMatches and TestAuthorizer, plus <star>/subresource and resourceNames. */
import { PolicyRule, RuleAttributes, ruleAllows, rulesAllow } from '../../../../src/auth/rbac';

const rule = (verbs: string[], groups?: string[], resources?: string[], extra: PolicyRule = {}): PolicyRule => ({
  verbs,
  ...(groups ? { apiGroups: groups } : {}),
  ...(resources ? { resources } : {}),
  ...extra,
});
const res = (verb: string, apiGroup: string, resource: string, subresource = '', name = ''): RuleAttributes => ({
  verb,
  resourceRequest: true,
  apiGroup,
  resource,
  subresource,
  name,
});
const url = (verb: string, path: string): RuleAttributes => ({ verb, resourceRequest: false, path });

type Case = [RuleAttributes, boolean];
const cross = (verbs: string[], groups: string[], resources: string[], expect: (v: string, g: string, r: string) => boolean): Case[] =>
  verbs.flatMap((v) => groups.flatMap((g) => resources.map((r): Case => [res(v, g, r), expect(v, g, r)])));

const table: Array<{ name: string; rule: PolicyRule; cases: Case[] }> = [
  {
    name: 'star verb, exact match other',
    rule: rule(['*'], ['group1'], ['resource1']),
    cases: cross(['verb1', 'verb2'], ['group1', 'group2'], ['resource1', 'resource2'], (_v, g, r) => g === 'group1' && r === 'resource1'),
  },
  {
    name: 'star group, exact match other',
    rule: rule(['verb1'], ['*'], ['resource1']),
    cases: cross(['verb1', 'verb2'], ['group1', 'group2'], ['resource1', 'resource2'], (v, _g, r) => v === 'verb1' && r === 'resource1'),
  },
  {
    name: 'star resource, exact match other',
    rule: rule(['verb1'], ['group1'], ['*']),
    cases: cross(['verb1', 'verb2'], ['group1', 'group2'], ['resource1', 'resource2'], (v, g) => v === 'verb1' && g === 'group1'),
  },
  {
    name: 'tuple expansion',
    rule: rule(['verb1', 'verb2'], ['group1', 'group2'], ['resource1', 'resource2']),
    cases: cross(['verb1', 'verb2'], ['group1', 'group2'], ['resource1', 'resource2'], () => true),
  },
  {
    name: 'subresource expansion',
    rule: rule(['*'], ['*'], ['resource1/subresource1']),
    cases: [
      [res('verb1', 'group1', 'resource1', 'subresource1'), true],
      [res('verb1', 'group2', 'resource1', 'subresource2'), false],
      [res('verb1', 'group1', 'resource2', 'subresource1'), false],
      [res('verb1', 'group2', 'resource2', 'subresource1'), false],
      [res('verb2', 'group1', 'resource1', 'subresource1'), true],
      [res('verb2', 'group2', 'resource1', 'subresource2'), false],
      [res('verb2', 'group1', 'resource2', 'subresource1'), false],
      [res('verb2', 'group2', 'resource2', 'subresource1'), false],
      // The main resource is not its subresource.
      [res('verb1', 'group1', 'resource1'), false],
    ],
  },
  {
    name: 'star subresource: any resource\'s named subresource, never the main resource',
    rule: rule(['get'], ['*'], ['*/status']),
    cases: [
      [res('get', 'apps', 'deployments', 'status'), true],
      [res('get', '', 'pods', 'status'), true],
      [res('get', '', 'pods', 'log'), false],
      [res('get', '', 'pods'), false],
      [res('get', '', '*/status'), true],
      [res('get', '', 'pods', 'xstatus'), false],
    ],
  },
  {
    name: 'a plain resource rule does not reach subresources',
    rule: rule(['*'], ['*'], ['pods']),
    cases: [
      [res('get', '', 'pods'), true],
      [res('get', '', 'pods', 'status'), false],
    ],
  },
  {
    name: 'resourceNames limit the rule to named objects (not collections or creates)',
    rule: rule(['get', 'update', 'list'], [''], ['configmaps'], { resourceNames: ['settings', 'flags'] }),
    cases: [
      [res('get', '', 'configmaps', '', 'settings'), true],
      [res('update', '', 'configmaps', '', 'flags'), true],
      [res('get', '', 'configmaps', '', 'other'), false],
      [res('list', '', 'configmaps'), false],
    ],
  },
  {
    name: 'an empty resourceNames list is no restriction',
    rule: rule(['get'], [''], ['configmaps'], { resourceNames: [] }),
    cases: [[res('get', '', 'configmaps', '', 'anything'), true]],
  },
  {
    name: 'verbs and groups are case-sensitive',
    rule: rule(['get'], [''], ['pods']),
    cases: [
      [res('GET', '', 'pods'), false],
      [res('get', 'apps', 'pods'), false],
    ],
  },
  {
    name: 'star nonresource, exact match other',
    rule: { verbs: ['verb1'], nonResourceURLs: ['*'] },
    cases: ['/foo', '/foo/bar', '/foo/baz', '/foo/bar/one', '/foo/baz/one'].flatMap((p): Case[] => [
      [url('verb1', p), true],
      [url('verb2', p), false],
    ]),
  },
  {
    name: 'star nonresource subpath',
    rule: { verbs: ['verb1'], nonResourceURLs: ['/foo/*'] },
    cases: [
      [url('verb1', '/foo'), false],
      [url('verb1', '/foo/bar'), true],
      [url('verb1', '/foo/baz'), true],
      [url('verb1', '/foo/bar/one'), true],
      [url('verb1', '/foo/baz/one'), true],
      [url('verb1', '/notfoo'), false],
      [url('verb1', '/notfoo/bar'), false],
      [url('verb1', '/notfoo/baz'), false],
      [url('verb1', '/notfoo/bar/one'), false],
      [url('verb1', '/notfoo/baz/one'), false],
    ],
  },
  {
    name: 'star verb, exact nonresource',
    rule: { verbs: ['*'], nonResourceURLs: ['/foo', '/foo/bar/one'] },
    cases: ['verb1', 'verb2'].flatMap((v): Case[] => [
      [url(v, '/foo'), true],
      [url(v, '/foo/bar'), false],
      [url(v, '/foo/baz'), false],
      [url(v, '/foo/bar/one'), true],
      [url(v, '/foo/baz/one'), false],
    ]),
  },
  {
    name: 'a prefix without a slash before the star matches any continuation',
    rule: { verbs: ['get'], nonResourceURLs: ['/healthz*'] },
    cases: [
      [url('get', '/healthz'), true],
      [url('get', '/healthz/etcd'), true],
      [url('get', '/healthzzz'), true],
      [url('get', '/livez'), false],
    ],
  },
  {
    name: 'several trailing stars are all trimmed before the prefix match (Go strings.TrimRight)',
    rule: { verbs: ['get'], nonResourceURLs: ['/foo/**'] },
    cases: [
      [url('get', '/foo/bar'), true],
      [url('get', '/foo/'), true],
      [url('get', '/foo'), false],
    ],
  },
  {
    name: 'resource rules never match non-resource requests, and the reverse',
    rule: { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
    cases: [
      [url('get', '/healthz'), false],
      [res('get', 'x', 'y'), true],
    ],
  },
  {
    name: 'non-resource rules never match resource requests',
    rule: { verbs: ['*'], nonResourceURLs: ['*'] },
    cases: [
      [res('get', '', 'pods'), false],
      [url('post', '/anything'), true],
    ],
  },
];

describe.each(table.map((t) => [t.name, t] as const))('ruleAllows: %s', (_name, t) => {
  test.each(t.cases.map(([attrs, want]) => [JSON.stringify(attrs), attrs, want] as const))('%s', (_label, attrs, want) => {
    expect(ruleAllows(t.rule, attrs)).toBe(want);
  });
});

describe('rulesAllow', () => {
  test('any rule suffices; no rules allow nothing; null lists are empty', () => {
    const rules: PolicyRule[] = [
      { verbs: ['get'], nonResourceURLs: ['/apis'] },
      { verbs: ['*'], nonResourceURLs: ['/apis/*'] },
      { verbs: null, apiGroups: ['*'], resources: ['*'] },
    ];
    expect(rulesAllow(rules, url('get', '/apis'))).toBe(true);
    expect(rulesAllow(rules, url('watch', '/apis'))).toBe(false);
    expect(rulesAllow(rules, url('watch', '/apis/v1'))).toBe(true);
    expect(rulesAllow(rules, url('get', '/api/v1'))).toBe(false);
    expect(rulesAllow(rules, res('get', '', 'pods'))).toBe(false);
    expect(rulesAllow([], res('get', '', 'pods'))).toBe(false);
  });
});
