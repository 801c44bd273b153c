/** Authentication over real TLS: client certificates, static tokens, service-account tokens, anonymous; 401 vs 403. */
import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { selfSignedCa, issueLeaf } from '../../src/adapters/pki';
import { JoseTokenAdapter } from '../../src/adapters/jwt';
import { backends } from '../support/test-server';
import { startSecureTestServer, SecureTestServer, Credentials } from '../support/secure-server';

describe.each(backends)('authentication on %s', (backend) => {
  let s: SecureTestServer;
  let admin: Credentials;
  beforeAll(async () => {
    s = await startSecureTestServer(backend, {
      staticTokens: new Map([['static-token-1', { username: 'tina', uid: 't-1', groups: ['readers'] }]]),
    });
    admin = await s.clientCert('system:admin', ['system:masters']);
  });
  afterAll(() => s.close());

  const whoami = async (creds: Credentials) => {
    const r = await s.call('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', creds, { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
    return r;
  };

  it('a client certificate names the user (CN) and groups (O), plus system:authenticated', async () => {
    const r = await whoami(await s.clientCert('carl', ['dev', 'ops']));
    expect(r.status).toBe(201);
    expect(r.json.status.userInfo).toEqual({ username: 'carl', groups: ['dev', 'ops', 'system:authenticated'] });
  });

  it('a certificate from another CA is 401, not anonymous', async () => {
    const now = new Date();
    const otherCa = await selfSignedCa('other', now);
    const leaf = await issueLeaf(otherCa, { commonName: 'system:admin', organizations: ['system:masters'], usage: 'client', days: 1 }, now);
    const r = await s.call('GET', '/api/v1/namespaces/default/configmaps', { cert: leaf.certPem, key: leaf.keyPem });
    expect(r.status).toBe(401);
    expect(r.json).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Unauthorized', code: 401, message: 'Unauthorized' });
  });

  it('static tokens from the token file', async () => {
    const r = await whoami({ token: 'static-token-1' });
    expect(r.json.status.userInfo).toEqual({ username: 'tina', uid: 't-1', groups: ['readers', 'system:authenticated'] });
    expect((await s.call('GET', '/api/v1/namespaces/default/configmaps', { token: 'nope' })).status).toBe(401);
  });

  it('reads the Authorization header as upstream does: trimmed, split at single spaces, the second part the token', async () => {
    // Who the server took the caller for: the review's user, the user a 403 names, or 'unauthorized' (401).
    const as = async (authorization: string) => {
      const r = await whoami({ headers: { Authorization: authorization } });
      if (r.status === 401) return 'unauthorized';
      return r.status === 201 ? r.json.status.userInfo.username : /User "([^"]*)"/.exec(r.json.message)?.[1];
    };
    expect(await as('bearer static-token-1')).toBe('tina');
    expect(await as('  BEARER static-token-1  ')).toBe('tina');
    // Anything after the token is not part of it.
    expect(await as('Bearer static-token-1 and more')).toBe('tina');
    // Not a bearer credential at all (no single space after the scheme, or an empty second part): anonymous.
    expect(await as('Bearer\tstatic-token-1')).toBe('system:anonymous');
    expect(await as('Bearer  static-token-1')).toBe('system:anonymous');
    expect(await as('Basic dGluYTp4')).toBe('system:anonymous');
    expect((await whoami({ headers: { Authorization: 'Bearer nope trailing' } })).status).toBe(401);
  });

  it('no credentials: system:anonymous, forbidden everything but the public info paths', async () => {
    const r = await s.call('GET', '/api/v1/namespaces/default/configmaps', {});
    expect(r.status).toBe(403);
    expect(r.json.message).toBe('configmaps is forbidden: User "system:anonymous" cannot list resource "configmaps" in API group "" in the namespace "default"');
    expect(r.json.details).toEqual({ kind: 'configmaps' });
    for (const path of ['/healthz', '/livez', '/readyz', '/version']) expect((await s.call('GET', path, {})).status).toBe(200);
    const api = await s.call('GET', '/api', {});
    expect(api.status).toBe(403);
    expect(api.json.message).toBe('forbidden: User "system:anonymous" cannot get path "/api"');
  });

  it('TokenRequest issues a bound service-account token that authenticates until the account is gone', async () => {
    expect((await s.call('POST', '/api/v1/namespaces/default/serviceaccounts', admin, { metadata: { name: 'robot' } })).status).toBe(201);
    const tr = await s.call('POST', '/api/v1/namespaces/default/serviceaccounts/robot/token', admin, {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: 700 },
    });
    expect(tr.status).toBe(201);
    expect(tr.json).toMatchObject({ kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', metadata: { name: 'robot', namespace: 'default' }, spec: { expirationSeconds: 700 } });
    const token = tr.json.status.token as string;
    const me = await whoami({ token });
    expect(me.json.status.userInfo).toMatchObject({
      username: 'system:serviceaccount:default:robot',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
    });
    expect(me.json.status.userInfo.extra['authentication.kubernetes.io/credential-id'][0]).toMatch(/^JTI=/);
    expect((await s.call('DELETE', '/api/v1/namespaces/default/serviceaccounts/robot', admin)).status).toBe(200);
    // The cache has the deletion once a consistent read (which waits for it) answers.
    await s.call('GET', '/api/v1/namespaces/default/serviceaccounts', admin);
    expect((await whoami({ token })).status).toBe(401);
  });

  it('TokenRequest validation and limits', async () => {
    await s.call('POST', '/api/v1/namespaces/default/serviceaccounts', admin, { metadata: { name: 'short' } });
    const tooShort = await s.call('POST', '/api/v1/namespaces/default/serviceaccounts/short/token', admin, { spec: { expirationSeconds: 599 } });
    expect(tooShort.status).toBe(422);
    expect(tooShort.json.message).toBe('TokenRequest.authentication.k8s.io "short" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes');
    const missing = await s.call('POST', '/api/v1/namespaces/default/serviceaccounts/ghost/token', admin, { spec: {} });
    expect(missing.status).toBe(404);
    const defaulted = await s.call('POST', '/api/v1/namespaces/default/serviceaccounts/short/token', admin, { spec: {} });
    expect(defaulted.json.spec).toMatchObject({ expirationSeconds: 3600, audiences: ['https://kubernetes.default.svc.cluster.local'] });
  });

  it('expired and foreign-audience tokens are 401', async () => {
    await s.call('POST', '/api/v1/namespaces/default/serviceaccounts', admin, { metadata: { name: 'old' } });
    const sa = (await s.call('GET', '/api/v1/namespaces/default/serviceaccounts/old', admin)).json;
    const signer = new JoseTokenAdapter(createPrivateKey(readFileSync(s.pki.paths.saKey, 'utf8')), []);
    const base = {
      iss: 'https://kubernetes.default.svc.cluster.local',
      sub: 'system:serviceaccount:default:old',
      'kubernetes.io': { namespace: 'default', serviceaccount: { name: 'old', uid: sa.metadata.uid } },
    };
    const now = Math.floor(Date.now() / 1000);
    const valid = await signer.sign({ ...base, aud: ['https://kubernetes.default.svc.cluster.local'], iat: now, nbf: now, exp: now + 600 });
    expect((await whoami({ token: valid })).status).toBe(201);
    const expired = await signer.sign({ ...base, aud: ['https://kubernetes.default.svc.cluster.local'], iat: now - 7200, nbf: now - 7200, exp: now - 3600 });
    expect((await whoami({ token: expired })).status).toBe(401);
    const foreign = await signer.sign({ ...base, aud: ['somebody-else'], iat: now, nbf: now, exp: now + 600 });
    expect((await whoami({ token: foreign })).status).toBe(401);
    const wrongUid = await signer.sign({ ...base, 'kubernetes.io': { namespace: 'default', serviceaccount: { name: 'old', uid: 'x' } }, aud: ['https://kubernetes.default.svc.cluster.local'], iat: now, nbf: now, exp: now + 600 });
    expect((await whoami({ token: wrongUid })).status).toBe(401);
  });

  it('the plain-HTTP port serves system:admin without credentials', async () => {
    const r = await fetch(`${s.plainUrl}/apis/authentication.k8s.io/v1/selfsubjectreviews`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
    });
    expect(((await r.json()) as { status: { userInfo: unknown } }).status.userInfo).toEqual({ username: 'system:admin', groups: ['system:masters', 'system:authenticated'] });
  });
});

describe('--anonymous-auth=false', () => {
  it('turns requests without credentials into 401', async () => {
    const s = await startSecureTestServer('lmdb', { anonymous: false });
    try {
      const r = await s.call('GET', '/healthz', {});
      expect(r.status).toBe(401);
      expect(r.json.reason).toBe('Unauthorized');
    } finally {
      await s.close();
    }
  });
});
