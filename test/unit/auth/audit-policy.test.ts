import { levelFor, parsePolicy, AuditPolicyError } from '../../../src/auth/audit/policy';
import type { AuthzAttributes } from '../../../src/ports/authorizer.port';

const alice = { username: 'alice', groups: ['dev', 'system:authenticated'] };
const attrs = (a: Partial<AuthzAttributes>): AuthzAttributes => ({ user: alice, verb: 'get', resourceRequest: true, apiGroup: '', resource: 'configmaps', namespace: 'ns', ...a });

describe('audit policy', () => {
  const policy = parsePolicy({
    apiVersion: 'audit.k8s.io/v1',
    kind: 'Policy',
    omitStages: ['RequestReceived'],
    rules: [
      { level: 'None', users: ['system:kube-proxy'] },
      { level: 'None', nonResourceURLs: ['/healthz*', '/version'] },
      { level: 'RequestResponse', resources: [{ group: '', resources: ['configmaps'], resourceNames: ['audited'] }] },
      { level: 'Request', verbs: ['create', 'update'], namespaces: ['ns'] },
      { level: 'Metadata', userGroups: ['dev'] },
    ],
  });

  it('takes the first matching rule', () => {
    expect(levelFor(policy, attrs({ user: { username: 'system:kube-proxy', groups: [] } })).level).toBe('None');
    expect(levelFor(policy, attrs({ resourceRequest: false, path: '/healthz/etcd' })).level).toBe('None');
    expect(levelFor(policy, attrs({ name: 'audited' })).level).toBe('RequestResponse');
    expect(levelFor(policy, attrs({ verb: 'create' })).level).toBe('Request');
    expect(levelFor(policy, attrs({ verb: 'create', namespace: 'other' })).level).toBe('Metadata');
    expect(levelFor(policy, attrs({ user: { username: 'bob', groups: [] } })).level).toBe('None');
    expect(levelFor(policy, attrs({})).omitStages).toEqual(['RequestReceived']);
  });

  it.each([
    [{ kind: 'Policy', rules: [{ level: 'Loud' }] }, 'rules[0].level'],
    [{ kind: 'Nope', rules: [{ level: 'None' }] }, 'kind must be Policy'],
    [{ kind: 'Policy', rules: [{ level: 'None', omitStages: ['Later'] }] }, 'unknown stage'],
    [{ kind: 'Policy', rules: [{ level: 'None', nonResourceURLs: ['/x'], resources: [{ group: '' }] }] }, 'both regular resources and non-resource URLs'],
  ])('rejects %j', (doc, message) => {
    expect(() => parsePolicy(doc)).toThrow(AuditPolicyError);
    expect(() => parsePolicy(doc)).toThrow(message);
  });
});
