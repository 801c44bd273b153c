/** RBAC over real TLS: an allow/deny matrix, escalation and bind checks, impersonation, reviews, the bootstrap policy. */
import { backends } from '../support/test-server';
import { until } from '../support/until';
import { startSecureTestServer, SecureTestServer, Credentials } from '../support/secure-server';
import { createRbac } from '../support/rbac-grant';

const rbac = '/apis/rbac.authorization.svc.io/v1';

describe.each(backends)('RBAC on %s', (backend) => {
  let s: SecureTestServer;
  let admin: Credentials;
  let alice: Credentials;
  beforeAll(async () => {
    s = await startSecureTestServer(backend);
    admin = await s.clientCert('system:admin', ['system:masters']);
    alice = await s.clientCert('alice', ['dev']);
    const ok = async (method: string, path: string, body: unknown) => {
      const r = await s.call(method, path, admin, body);
      if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
    };
    await createRbac(s, admin, `${rbac}/namespaces/team/roles`, {
      metadata: { name: 'cm-reader' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }],
    });
    await createRbac(s, admin, `${rbac}/namespaces/team/rolebindings`, {
      metadata: { name: 'alice-reads' },
      roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'Role', name: 'cm-reader' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.svc.io', name: 'alice' }],
    });
    await ok('POST', '/api/v1/namespaces/team/configmaps', { metadata: { name: 'c1' }, data: { a: 'b' } });
  });
  afterAll(() => s.close());

  it.each([
    ['GET', '/api/v1/namespaces/team/configmaps', 200],
    ['GET', '/api/v1/namespaces/team/configmaps/c1', 200],
    ['GET', '/api/v1/namespaces/other/configmaps', 403],
    ['GET', '/api/v1/configmaps', 403],
    ['POST', '/api/v1/namespaces/team/configmaps', 403],
    ['DELETE', '/api/v1/namespaces/team/configmaps/c1', 403],
    ['GET', '/api/v1/namespaces/team/serviceaccounts', 403],
    ['GET', '/api', 200],
    ['GET', '/metrics', 403],
  ])('alice: %s %s → %d', async (method, path, status) => {
    const r = await s.call(method, path, alice, method === 'POST' ? { metadata: { name: 'x' } } : undefined);
    expect(r.status).toBe(status);
  });

  it('a denied write gets upstream message and details', async () => {
    const r = await s.call('POST', '/api/v1/namespaces/team/configmaps', alice, { metadata: { name: 'x' } });
    expect(r.json).toMatchObject({
      reason: 'Forbidden',
      code: 403,
      message: 'configmaps is forbidden: User "alice" cannot create resource "configmaps" in API group "" in the namespace "team"',
    });
    const del = await s.call('DELETE', '/api/v1/namespaces/team/configmaps/c1', alice);
    expect(del.json.message).toBe('configmaps "c1" is forbidden: User "alice" cannot delete resource "configmaps" in API group "" in the namespace "team"');
    expect(del.json.details).toEqual({ name: 'c1', kind: 'configmaps' });
  });

  it('SelfSubjectAccessReview and SelfSubjectRulesReview answer for the caller', async () => {
    const review = (verb: string, namespace: string) =>
      s.call('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', alice, {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: { resourceAttributes: { verb, resource: 'configmaps', namespace } },
      });
    expect((await review('list', 'team')).json.status.allowed).toBe(true);
    expect((await review('create', 'team')).json.status.allowed).toBe(false);
    expect((await review('list', 'other')).json.status.allowed).toBe(false);
    const invalid = await s.call('POST', '/apis/authorization.svc.io/v1/selfsubjectaccessreviews', alice, { spec: {} });
    expect(invalid.status).toBe(422);
    expect(invalid.json.message).toContain('exactly one of nonResourceAttributes or resourceAttributes must be specified');
    const rules = await s.call('POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', alice, { spec: { namespace: 'team' } });
    expect(rules.json.status.resourceRules).toContainEqual({ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['configmaps'] });
  });

  it('SubjectAccessReview needs create permission on it, then answers for the subject', async () => {
    const body = { spec: { user: 'alice', resourceAttributes: { verb: 'get', resource: 'configmaps', namespace: 'team' } } };
    expect((await s.call('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', alice, body)).status).toBe(403);
    const r = await s.call('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', admin, body);
    expect(r.status).toBe(201);
    expect(r.json.status.allowed).toBe(true);
    const noSubject = await s.call('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', admin, { spec: { resourceAttributes: { verb: 'get' } } });
    expect(noSubject.json.message).toContain('spec.user: Invalid value: "": at least one of user or group must be specified');
  });

  it('escalation: a Role with permissions the writer lacks is Forbidden unless it holds escalate', async () => {
    await createRbac(s, admin, `${rbac}/namespaces/team/roles`, {
      metadata: { name: 'role-writer' },
      rules: [{ apiGroups: ['rbac.authorization.svc.io'], resources: ['roles', 'rolebindings'], verbs: ['create', 'update', 'get'] }],
    });
    await createRbac(s, admin, `${rbac}/namespaces/team/rolebindings`, {
      metadata: { name: 'dev-writes-roles' },
      roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'Role', name: 'role-writer' },
      subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.svc.io', name: 'dev' }],
    });
    const within = await s.call('POST', `${rbac}/namespaces/team/roles`, alice, {
      metadata: { name: 'subset' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
    });
    expect(within.status).toBe(201);
    const beyond = await s.call('POST', `${rbac}/namespaces/team/roles`, alice, {
      metadata: { name: 'superset' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['delete'] }],
    });
    expect(beyond.status).toBe(403);
    expect(beyond.json.message).toBe(
      'roles.rbac.authorization.svc.io "superset" is forbidden: user "alice" (groups=["dev" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["configmaps"], Verbs:["delete"]}',
    );
    // Binding a role the writer does not hold is refused the same way.
    await createRbac(s, admin, `${rbac}/clusterroles`, { metadata: { name: 'cm-deleter' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['delete'] }] });
    const bind = await s.call('POST', `${rbac}/namespaces/team/rolebindings`, alice, {
      metadata: { name: 'sneaky' },
      roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: 'cm-deleter' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.svc.io', name: 'alice' }],
    });
    expect(bind.status).toBe(403);
    expect(bind.json.message).toContain('is attempting to grant RBAC permissions not currently held');
    // With escalate and bind granted, both pass.
    await createRbac(s, admin, `${rbac}/namespaces/team/roles`, {
      metadata: { name: 'escalator' },
      rules: [
        { apiGroups: ['rbac.authorization.svc.io'], resources: ['roles'], verbs: ['escalate'] },
        { apiGroups: ['rbac.authorization.svc.io'], resources: ['clusterroles'], verbs: ['bind'], resourceNames: ['cm-deleter'] },
      ],
    });
    await createRbac(s, admin, `${rbac}/namespaces/team/rolebindings`, {
      metadata: { name: 'alice-escalates' },
      roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'Role', name: 'escalator' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.svc.io', name: 'alice' }],
    });
    const again = await s.call('POST', `${rbac}/namespaces/team/roles`, alice, {
      metadata: { name: 'superset' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['delete'] }],
    });
    expect(again.status).toBe(201);
    const bound = await s.call('POST', `${rbac}/namespaces/team/rolebindings`, alice, {
      metadata: { name: 'sneaky' },
      roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: 'cm-deleter' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.svc.io', name: 'alice' }],
    });
    expect(bound.status).toBe(201);
  });

  it('impersonation needs the impersonate verb on each user, group and service account', async () => {
    const asBob = { ...alice, headers: { 'Impersonate-User': 'bob' } };
    const denied = await s.call('GET', '/api/v1/namespaces/team/configmaps', asBob);
    expect(denied.status).toBe(403);
    expect(denied.json.message).toBe('users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope');
    await createRbac(s, admin, `${rbac}/clusterroles`, {
      metadata: { name: 'impersonate-bob' },
      rules: [
        { apiGroups: [''], resources: ['users'], verbs: ['impersonate'], resourceNames: ['bob'] },
        { apiGroups: [''], resources: ['groups'], verbs: ['impersonate'], resourceNames: ['qa'] },
      ],
    });
    await createRbac(s, admin, `${rbac}/clusterrolebindings`, {
      metadata: { name: 'alice-impersonates-bob' },
      roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: 'impersonate-bob' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.svc.io', name: 'alice' }],
    });
    const me = await s.call('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { ...alice, headers: { 'Impersonate-User': 'bob', 'Impersonate-Group': 'qa' } }, {});
    expect(me.status).toBe(201);
    expect(me.json.status.userInfo).toEqual({ username: 'bob', groups: ['qa', 'system:authenticated'] });
    // bob has no access to configmaps: the impersonated identity is the one authorized.
    expect((await s.call('GET', '/api/v1/namespaces/team/configmaps', asBob)).status).toBe(403);
    const otherGroup = await s.call('GET', '/api', { ...alice, headers: { 'Impersonate-User': 'bob', 'Impersonate-Group': 'admins' } });
    expect(otherGroup.status).toBe(403);
    expect(otherGroup.json.message).toContain('cannot impersonate resource "groups"');
    const groupOnly = await s.call('GET', '/api', { ...alice, headers: { 'Impersonate-Group': 'qa' } });
    expect(groupOnly.status).toBe(400);
    // system:masters may impersonate anyone, and a service account gets its groups.
    const sa = await s.call('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { ...admin, headers: { 'Impersonate-User': 'system:serviceaccount:team:builder' } }, {});
    expect(sa.json.status.userInfo).toEqual({
      username: 'system:serviceaccount:team:builder',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'],
    });
    // Extra keys are percent-encoded; one that does not decode is kept as it came (it used to be a 500).
    const extras = await s.call('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { ...admin, headers: { 'Impersonate-User': 'carol', 'Impersonate-Extra-%zz': 'v', 'Impersonate-Extra-scopes%2Fread': 'x' } }, {});
    expect(extras.status).toBe(201);
    expect(extras.json.status.userInfo.extra).toEqual({ '%zz': ['v'], 'scopes/read': ['x'] });
  });

  it('remembered decisions are revoked: a deleted binding or a role losing its rule stops working once the cache hears of it', async () => {
    const carol = await s.clientCert('carol', []);
    const get = async () => (await s.call('GET', '/api/v1/namespaces/team/configmaps/c1', carol)).status;
    await createRbac(s, admin, `${rbac}/namespaces/team/roles`, {
      metadata: { name: 'carol-reader' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
    });
    const binding = {
      metadata: { name: 'carol-reads' },
      roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'Role', name: 'carol-reader' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.svc.io', name: 'carol' }],
    };
    await createRbac(s, admin, `${rbac}/namespaces/team/rolebindings`, binding);
    await until('carol allowed', async () => (await get()) === 200);
    // Asked again and again: answered from the authorizer's memo from now on.
    for (let i = 0; i < 5; i++) expect(await get()).toBe(200);
    expect((await s.call('DELETE', `${rbac}/namespaces/team/rolebindings/carol-reads`, admin)).status).toBe(200);
    // As upstream's authorizer over its informers: gone as soon as the watch brings the deletion (well within 2 s).
    await until('carol refused after the binding is deleted', async () => (await get()) === 403, { timeoutMs: 2000 });

    await createRbac(s, admin, `${rbac}/namespaces/team/rolebindings`, binding);
    await until('carol allowed again', async () => (await get()) === 200);
    for (let i = 0; i < 5; i++) expect(await get()).toBe(200);
    const role = (await s.call('GET', `${rbac}/namespaces/team/roles/carol-reader`, admin)).json;
    const updated = await s.call('PUT', `${rbac}/namespaces/team/roles/carol-reader`, admin, { ...role, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['list'] }] });
    expect(updated.status).toBe(200);
    await until('carol refused after the role loses its rule', async () => (await get()) === 403, { timeoutMs: 2000 });
  });

  it('the bootstrap policy is in place', async () => {
    const names = (await s.call('GET', `${rbac}/clusterroles`, admin)).json.items.map((i: { metadata: { name: string } }) => i.metadata.name);
    expect(names).toEqual(expect.arrayContaining(['cluster-admin', 'admin', 'edit', 'view', 'system:basic-user', 'system:discovery', 'system:public-info-viewer']));
    const bindings = (await s.call('GET', `${rbac}/clusterrolebindings/cluster-admin`, admin)).json;
    expect(bindings.subjects).toEqual([{ kind: 'Group', apiGroup: 'rbac.authorization.svc.io', name: 'system:masters' }]);
    // Every authenticated user and every service account may read ClusterTrustBundles (spec section 5).
    expect((await s.call('GET', '/apis/certificates.svc.io/v1/clustertrustbundles', alice)).status).toBe(200);
    expect((await s.call('GET', '/apis/certificates.svc.io/v1/clustertrustbundles', { ...admin, headers: { 'Impersonate-User': 'system:serviceaccount:x:y' } })).status).toBe(200);
    expect((await s.call('GET', '/apis/certificates.svc.io/v1/clustertrustbundles', {})).status).toBe(403);
  });
});

describe('ClusterRole aggregation', () => {
  let s: SecureTestServer;
  let admin: Credentials;
  beforeAll(async () => {
    s = await startSecureTestServer('lmdb');
    admin = await s.clientCert('system:admin', ['system:masters']);
  });
  afterAll(() => s.close());

  const rulesOf = async (name: string) => (await s.call('GET', `${rbac}/clusterroles/${name}`, admin)).json.rules ?? [];

  it('fills view/edit/admin from the labelled roles and follows a user-labelled one', async () => {
    const hasConfigMapRead = (rules: Array<{ resources?: string[]; verbs: string[] }>) => rules.some((r) => r.resources?.includes('configmaps') && r.verbs.includes('list'));
    await until('configmaps list in view', async () => hasConfigMapRead(await rulesOf('view')));
    await until('configmaps list in admin', async () => hasConfigMapRead(await rulesOf('admin')));
    await createRbac(s, admin, `${rbac}/clusterroles`, {
      metadata: { name: 'widgets-view', labels: { 'rbac.authorization.svc.io/aggregate-to-view': 'true' } },
      rules: [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get'] }],
    });
    const hasWidgets = async () => (await rulesOf('view')).some((r: { resources?: string[] }) => r.resources?.includes('widgets'));
    await until('widgets in view', hasWidgets);
    await s.call('DELETE', `${rbac}/clusterroles/widgets-view`, admin);
    await until('widgets gone from view', async () => !(await hasWidgets()));
  });
});
