/**
 * TokenReview over real TLS with real tokens (the token file, service-account
 * JWTs from TokenRequest and from the real signer), in both groups, as
 * upstream's tokenreview REST answers: who, for which audiences, or why not;
 * `create tokenreviews` required, which system:auth-delegator grants.
 */
import { createPrivateKey } from 'node:crypto';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JoseTokenAdapter } from '../../src/adapters/jwt';
import { backends } from '../support/test-server';
import { startSecureTestServer, type Credentials, type SecureTestServer } from '../support/secure-server';
import { createRbac } from '../support/rbac-grant';
import { load } from 'js-yaml';
import { kubectlFor } from '../support/kubectl';

const apiAudience = 'https://kubernetes.default.svc.cluster.local';
const reviews = (group: string) => `/apis/${group}/v1/tokenreviews`;

describe.each(backends)('TokenReview on %s', (backend) => {
  let s: SecureTestServer;
  let admin: Credentials;
  let proxy: Credentials;
  beforeAll(async () => {
    s = await startSecureTestServer(backend, { staticTokens: new Map([['static-token-1', { username: 'tina', uid: 't-1', groups: ['readers'] }]]) });
    admin = await s.clientCert('system:admin', ['system:masters']);
    // A delegating server (kube-rbac-proxy, say) bound to upstream's system:auth-delegator.
    await createRbac(s, admin, '/apis/rbac.authorization.svc.io/v1/clusterrolebindings', {
      metadata: { name: 'proxy-delegator' },
      roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: 'system:auth-delegator' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.svc.io', name: 'proxy' }],
    });
    proxy = await s.clientCert('proxy');
  });
  afterAll(() => s.close());

  const review = (spec: Record<string, unknown>, group = 'authentication.k8s.io', creds = proxy) =>
    s.call('POST', reviews(group), creds, { apiVersion: `${group}/v1`, kind: 'TokenReview', spec });

  const serviceAccountToken = async (name: string, audiences?: string[]) => {
    expect((await s.call('POST', '/api/v1/namespaces/default/serviceaccounts', admin, { metadata: { name } })).status).toBe(201);
    const tr = await s.call('POST', `/api/v1/namespaces/default/serviceaccounts/${name}/token`, admin, { spec: audiences ? { audiences } : {} });
    expect(tr.status).toBe(201);
    return { token: tr.json.status.token as string, uid: (await s.call('GET', `/api/v1/namespaces/default/serviceaccounts/${name}`, admin)).json.metadata.uid as string };
  };

  it('a token-file token: the user, its groups with system:authenticated, and the server audiences', async () => {
    for (const group of ['authentication.k8s.io', 'authentication.svc.io']) {
      const r = await review({ token: 'static-token-1' }, group);
      expect(r.status).toBe(201);
      expect(r.json).toEqual({
        kind: 'TokenReview',
        apiVersion: `${group}/v1`,
        metadata: {},
        spec: { token: 'static-token-1' },
        status: { authenticated: true, user: { username: 'tina', uid: 't-1', groups: ['readers', 'system:authenticated'] }, audiences: [apiAudience] },
      });
    }
  });

  it('a service-account token from TokenRequest: uid, groups, extra and audiences', async () => {
    const { token, uid } = await serviceAccountToken('reviewed');
    const r = await review({ token });
    expect(r.status).toBe(201);
    expect(r.json.status).toEqual({
      authenticated: true,
      user: {
        username: 'system:serviceaccount:default:reviewed',
        uid,
        groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
        extra: { 'authentication.kubernetes.io/credential-id': [expect.stringMatching(/^JTI=/)] },
      },
      audiences: [apiAudience],
    });
  });

  it('spec.audiences: a token meant for them authenticates for them; a server-audience or token-file token does not', async () => {
    const { token: forApi } = await serviceAccountToken('api-only');
    const { token: forVault } = await serviceAccountToken('vault-client', ['vault', 'other']);
    const mine = await review({ token: forVault, audiences: ['vault'] });
    expect(mine.json.status).toMatchObject({ authenticated: true, user: { username: 'system:serviceaccount:default:vault-client' }, audiences: ['vault'] });
    // Without spec.audiences the server's own are asked for, and this token is not meant for them.
    const notForApi = await review({ token: forVault });
    expect(notForApi.status).toBe(201);
    expect(notForApi.json.status).toEqual({ user: {}, error: `service account token: token audiences ["vault" "other"] is invalid for the target audiences ["${apiAudience}"]` });
    const wrong = await review({ token: forApi, audiences: ['vault'] });
    expect(wrong.json.status).toEqual({ user: {}, error: `service account token: token audiences ["${apiAudience}"] is invalid for the target audiences ["vault"]` });
    // The token file knows no audiences: it answers for the server's ones only (upstream's audience-agnostic wrapper).
    const staticForVault = await review({ token: 'static-token-1', audiences: ['vault'] });
    expect(staticForVault.json.status).toEqual({ user: {}, error: 'invalid bearer token' });
    const staticForBoth = await review({ token: 'static-token-1', audiences: ['vault', apiAudience] });
    expect(staticForBoth.json.status).toMatchObject({ authenticated: true, user: { username: 'tina' }, audiences: [apiAudience] });
  });

  it('tokens that do not authenticate: authenticated left out, an empty user and the reason', async () => {
    const unknown = await review({ token: 'not-a-token' });
    expect(unknown.status).toBe(201);
    expect(unknown.json.status).toEqual({ user: {}, error: 'invalid bearer token' });
    const sa = (await s.call('GET', '/api/v1/namespaces/default/serviceaccounts/reviewed', admin)).json;
    const signer = new JoseTokenAdapter(createPrivateKey(readFileSync(s.pki.paths.saKey, 'utf8')), []);
    const now = Math.floor(Date.now() / 1000);
    const expired = await signer.sign({
      iss: apiAudience,
      sub: 'system:serviceaccount:default:reviewed',
      aud: [apiAudience],
      iat: now - 7200,
      nbf: now - 7200,
      exp: now - 3600,
      'kubernetes.io': { namespace: 'default', serviceaccount: { name: 'reviewed', uid: sa.metadata.uid } },
    });
    expect((await review({ token: expired })).json.status).toEqual({ user: {}, error: 'service account token: token has expired' });
  });

  it('a token is required; create on tokenreviews is required (system:auth-delegator grants it)', async () => {
    const empty = await review({});
    expect(empty.status).toBe(400);
    expect(empty.json).toMatchObject({ kind: 'Status', reason: 'BadRequest', message: 'token is required for TokenReview in authentication' });
    const carl = await review({ token: 'static-token-1' }, 'authentication.k8s.io', await s.clientCert('carl'));
    expect(carl.status).toBe(403);
    expect(carl.json.message).toBe('tokenreviews.authentication.k8s.io is forbidden: User "carl" cannot create resource "tokenreviews" in API group "authentication.k8s.io" at the cluster scope');
    const role = (await s.call('GET', '/apis/rbac.authorization.svc.io/v1/clusterroles/system:auth-delegator', admin)).json;
    expect(role.rules).toEqual([
      { apiGroups: ['authentication.svc.io', 'authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
      { apiGroups: ['authorization.svc.io', 'authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
    ]);
    // The delegator may also ask SubjectAccessReviews, as upstream's role allows.
    const sar = await s.call('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', proxy, {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: { user: 'tina', resourceAttributes: { verb: 'get', resource: 'configmaps', namespace: 'default' } },
    });
    expect(sar.status).toBe(201);
    expect((await s.call('GET', reviews('authentication.k8s.io'), admin)).status).toBe(405);
  });

  it('discovery lists tokenreviews (create only) in both groups', async () => {
    for (const group of ['authentication.k8s.io', 'authentication.svc.io']) {
      const r = await s.call('GET', `/apis/${group}/v1`, admin);
      expect(r.json.resources.find((x: { name: string }) => x.name === 'tokenreviews')).toMatchObject({ kind: 'TokenReview', namespaced: false, verbs: ['create'] });
    }
  });

  it('kubectl create -f of a TokenReview prints the answer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-tokenreview-'));
    const manifest = join(dir, 'tokenreview.yaml');
    writeFileSync(manifest, 'apiVersion: authentication.k8s.io/v1\nkind: TokenReview\nspec:\n  token: static-token-1\n');
    // --validate=false: no review kind is in /openapi/v3 yet, so kubectl would validate against /openapi/v2 as protobuf.
    const r = await kubectlFor(s.plainUrl)(['create', '-f', manifest, '-o', 'yaml', '--validate=false']);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(load(r.stdout)).toMatchObject({ kind: 'TokenReview', status: { authenticated: true, user: { username: 'tina', groups: ['readers', 'system:authenticated'] } } });
  });
});
