/**
 * The CSR signing controller and the node-client approver in the production
 * wiring, on both backends. Requests are made with the openssl CLI and every
 * issued certificate is checked independently (openssl verify, Node's
 * X509Certificate): chain to the CA, validity window, usages, subject, SANs.
 */
import { X509Certificate } from 'node:crypto';
import { backends } from '../support/test-server';
import { until } from '../support/until';
import { startSecureTestServer, type Credentials, type SecureTestServer } from '../support/secure-server';
import { inspectCertificate, opensslRequest, type OpensslKeyType } from '../support/certificate-check';
import { FileCertificateAuthority } from '../../src/adapters/certificate-authority';

const CSRS = '/apis/certificates.svc.io/v1/certificatesigningrequests';
const rbac = '/apis/rbac.authorization.svc.io/v1';
const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64');
const hour = 3600_000;
const maxTtlMs = 48 * hour;
const bootstrapToken = '07401b.f395accd246ae52d';

describe.each(backends)('certificate signing and approval on %s', (backend) => {
  let s: SecureTestServer;
  let admin: Credentials;

  beforeAll(async () => {
    s = await startSecureTestServer(
      backend,
      { staticTokens: new Map([[bootstrapToken, { username: 'kubelet-bootstrap', uid: '10001', groups: ['system:bootstrappers'] }]]) },
      {
        controllers: (pki) => {
          const ca = new FileCertificateAuthority(pki.paths.caCert, pki.paths.caKey);
          const signers = ['svc.io/apiserver-client', 'svc.io/apiserver-client-node', 'svc.io/node-serving', 'svc.io/apiserver-client-pod'];
          return { signing: { authorities: new Map(signers.map((n) => [n, ca])), maxTtlMs } };
        },
      },
    );
    admin = await s.clientCert('system:admin', ['system:masters']);
  });
  afterAll(() => s.close());

  const create = async (name: string, signerName: string, request: Buffer, usages: string[], extra: Record<string, unknown> = {}, creds = admin) => {
    const r = await s.call('POST', CSRS, creds, { metadata: { name }, spec: { request: b64(request), signerName, usages, ...extra } });
    expect(r.status).toBe(201);
    return r.json;
  };
  const approve = async (name: string) => {
    const r = await s.call('PATCH', `${CSRS}/${name}/approval`, admin, [{ op: 'add', path: '/status/conditions', value: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'approved by the test' }] }], 'application/json-patch+json');
    expect(r.status).toBe(200);
  };
  const get = async (name: string) => (await s.call('GET', `${CSRS}/${name}`, admin)).json;
  const issued = (name: string) =>
    until(`a certificate for ${name}`, async () => {
      const csr = await get(name);
      return csr.status?.certificate ? Buffer.from(csr.status.certificate, 'base64').toString('utf8') : undefined;
    });
  const failed = (name: string) =>
    until(`a Failed condition on ${name}`, async () => (await get(name)).status?.conditions?.find((c: { type: string }) => c.type === 'Failed'));

  describe('svc.io/apiserver-client', () => {
    it.each<[OpensslKeyType]>([['rsa2048'], ['p256'], ['p384'], ['ed25519']])('issues a client certificate for a %s key', async (keyType) => {
      const name = `client-${keyType}`;
      const { request } = opensslRequest({ keyType, subject: `/CN=alice-${keyType}/O=dev/O=qa` });
      const before = Date.now();
      await create(name, 'svc.io/apiserver-client', request, ['digital signature', 'key encipherment', 'client auth'], { expirationSeconds: 7200 });
      await approve(name);
      const cert = inspectCertificate(await issued(name), s.pki.ca.certPem);
      expect(cert.opensslVerify).toEqual({ ok: true, output: expect.stringContaining(': OK') });
      expect(cert.signedByCa).toBe(true);
      expect(cert.subject).toBe(`CN=alice-${keyType}\nO=dev\nO=qa`);
      expect(cert.subjectAltName).toBeUndefined();
      expect(cert.isCA).toBe(false);
      expect(cert.keyUsage).toEqual(['Digital Signature', 'Key Encipherment']);
      expect(cert.keyUsageCritical).toBe(true);
      expect(cert.extKeyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
      // Backdated five minutes; a short certificate keeps its whole requested lifetime after now.
      const seconds = (d: Date) => Math.floor(d.getTime() / 1000);
      expect(seconds(cert.notBefore)).toBeGreaterThanOrEqual(seconds(new Date(before - 5 * 60_000)) - 1);
      expect(seconds(cert.notBefore)).toBeLessThanOrEqual(seconds(new Date(Date.now() - 5 * 60_000)));
      expect(cert.notAfter.getTime() - cert.notBefore.getTime()).toBe(2 * hour + 5 * 60_000);
    });

    it('caps expirationSeconds at --cluster-signing-duration and takes the backdate off long certificates', async () => {
      const { request } = opensslRequest({ keyType: 'p256', subject: '/CN=long-lived' });
      await create('long', 'svc.io/apiserver-client', request, ['client auth'], { expirationSeconds: 30 * 24 * 3600 });
      await approve('long');
      const cert = inspectCertificate(await issued('long'), s.pki.ca.certPem);
      expect(cert.opensslVerify.ok).toBe(true);
      // maxTtl 48 h, minus the five minutes of backdate at the end, plus the five at the start.
      expect(cert.notAfter.getTime() - cert.notBefore.getTime()).toBe(maxTtlMs);
      expect(cert.keyUsage).toEqual([]);
      expect(cert.extKeyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
    });

    it('never issues a CA certificate, even when the request asks for one', async () => {
      const { request } = opensslRequest({ keyType: 'p256', subject: '/CN=wants-ca', basicConstraintsCA: true });
      await create('wants-ca', 'svc.io/apiserver-client', request, ['digital signature', 'client auth']);
      await approve('wants-ca');
      const cert = inspectCertificate(await issued('wants-ca'), s.pki.ca.certPem);
      expect(cert.isCA).toBe(false);
      expect(cert.text).toMatch(/Basic Constraints: critical\n\s*CA:FALSE/);
    });

    it('fails a request with a usage a client certificate may not have, with upstream message', async () => {
      const { request } = opensslRequest({ keyType: 'p256', subject: '/CN=server-too' });
      await create('bad-usage', 'svc.io/apiserver-client', request, ['digital signature', 'client auth', 'server auth']);
      await approve('bad-usage');
      expect(await failed('bad-usage')).toMatchObject({ status: 'True', reason: 'SignerValidationFailure', message: 'invalid usage for client certificate: server auth', lastUpdateTime: expect.any(String) });
      expect((await get('bad-usage')).status.certificate).toBeUndefined();
    });

    it('fails a request without client auth', async () => {
      const { request } = opensslRequest({ keyType: 'p256', subject: '/CN=no-client-auth' });
      await create('no-client-auth', 'svc.io/apiserver-client', request, ['digital signature']);
      await approve('no-client-auth');
      expect((await failed('no-client-auth')).message).toBe('missing required usage for client certificate: client auth');
    });

    it('fails a key type the signers do not certify, naming the supported ones', async () => {
      const { request } = opensslRequest({ keyType: 'p521', subject: '/CN=p521' });
      await create('p521', 'svc.io/apiserver-client', request, ['client auth']);
      await approve('p521');
      expect((await failed('p521')).message).toBe('an ECDSA P-521 key is not supported: the key must be RSA (2048 bits or more), ECDSA P-256 or P-384, or Ed25519');
    });

    it('leaves pending and denied requests alone', async () => {
      const { request } = opensslRequest({ keyType: 'p256', subject: '/CN=waiting' });
      await create('pending', 'svc.io/apiserver-client', request, ['client auth']);
      await create('denied', 'svc.io/apiserver-client', request, ['client auth']);
      const r = await s.call('PATCH', `${CSRS}/denied/approval`, admin, [{ op: 'add', path: '/status/conditions', value: [{ type: 'Denied', status: 'True', reason: 'No', message: 'no' }] }], 'application/json-patch+json');
      expect(r.status).toBe(200);
      // An approved request made after them is issued, so the controller has passed over both.
      await create('after', 'svc.io/apiserver-client', request, ['client auth']);
      await approve('after');
      await issued('after');
      for (const name of ['pending', 'denied']) expect((await get(name)).status.certificate).toBeUndefined();
    });

    it('an issued certificate authenticates its subject to this server', async () => {
      const { request, keyPem } = opensslRequest({ keyType: 'p256', subject: '/CN=carol/O=ops' });
      await create('carol', 'svc.io/apiserver-client', request, ['digital signature', 'client auth']);
      await approve('carol');
      const cert = await issued('carol');
      const r = await s.call('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { cert, key: keyPem }, { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
      expect(r.status).toBe(201);
      expect(r.json.status.userInfo).toEqual({ username: 'carol', groups: ['ops', 'system:authenticated'] });
    });
  });

  describe('svc.io/node-serving', () => {
    it('issues a serving certificate with the DNS and IP names of the request', async () => {
      const { request } = opensslRequest({ keyType: 'p256', subject: '/O=system:nodes/CN=system:node:node-1', sans: 'DNS:node-1.example,IP:10.0.0.7' });
      await create('serving', 'svc.io/node-serving', request, ['digital signature', 'key encipherment', 'server auth']);
      await approve('serving');
      const cert = inspectCertificate(await issued('serving'), s.pki.ca.certPem);
      expect(cert.opensslVerify.ok).toBe(true);
      expect(cert.subject).toBe('O=system:nodes\nCN=system:node:node-1');
      expect(cert.subjectAltName).toBe('DNS:node-1.example, IP Address:10.0.0.7');
      expect(cert.extKeyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
      expect(cert.keyUsage).toEqual(['Digital Signature', 'Key Encipherment']);
      expect(new X509Certificate(await issued('serving')).checkHost('node-1.example')).toBe('node-1.example');
    });

    it.each([
      ['email-san', '/O=system:nodes/CN=system:node:n', 'DNS:n.example,email:n@example.com', 'Email subjectAltNames are not allowed'],
      ['uri-san', '/O=system:nodes/CN=system:node:n', 'DNS:n.example,URI:spiffe://n', 'URI subjectAltNames are not allowed'],
      ['no-san', '/O=system:nodes/CN=system:node:n', undefined, 'DNS or IP subjectAltName is required'],
      ['not-node-org', '/O=system:masters/CN=system:node:n', 'DNS:n.example', 'subject organization is not system:nodes'],
      ['not-node-cn', '/O=system:nodes/CN=n', 'DNS:n.example', 'subject common name does not begin with system:node:'],
    ])('fails %s', async (name, subject, sans, message) => {
      const { request } = opensslRequest({ keyType: 'p256', subject, sans });
      await create(name, 'svc.io/node-serving', request, ['digital signature', 'key encipherment', 'server auth']);
      await approve(name);
      expect(await failed(name)).toMatchObject({ reason: 'SignerValidationFailure', message });
    });

    it('fails usages that are not a serving certificate’s', async () => {
      const { request } = opensslRequest({ keyType: 'p256', subject: '/O=system:nodes/CN=system:node:n', sans: 'DNS:n.example' });
      await create('serving-usages', 'svc.io/node-serving', request, ['digital signature', 'client auth']);
      await approve('serving-usages');
      expect((await failed('serving-usages')).message).toBe('usages did not match [digital signature key encipherment server auth]');
    });
  });

  describe('svc.io/apiserver-client-node and the approver', () => {
    const nodeRequest = (node: string, keyType: OpensslKeyType = 'p256') => opensslRequest({ keyType, subject: `/O=system:nodes/CN=system:node:${node}` });
    const bootstrap: Credentials = { token: bootstrapToken };
    const bind = async (name: string, role: string, subject: { kind: string; name: string }) => {
      const r = await s.call('POST', `${rbac}/clusterrolebindings`, admin, {
        metadata: { name },
        roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: role },
        subjects: [{ ...subject, apiGroup: 'rbac.authorization.svc.io' }],
      });
      expect(r.status).toBe(201);
    };

    it('fails a node client request with SANs', async () => {
      const { request } = opensslRequest({ keyType: 'p256', subject: '/O=system:nodes/CN=system:node:x', sans: 'DNS:x.example' });
      await create('node-with-san', 'svc.io/apiserver-client-node', request, ['digital signature', 'client auth']);
      await approve('node-with-san');
      expect((await failed('node-with-san')).message).toBe('DNS subjectAltNames are not allowed');
    });

    it('does not approve a node request whose requester lacks certificatesigningrequests/nodeclient', async () => {
      await bind('bootstrappers-create-csrs', 'system:node-bootstrapper', { kind: 'Group', name: 'system:bootstrappers' });
      const r = await s.call('POST', CSRS, bootstrap, { metadata: { name: 'node-early' }, spec: { request: b64(nodeRequest('early').request), signerName: 'svc.io/apiserver-client-node', usages: ['digital signature', 'key encipherment', 'client auth'] } });
      expect(r.status).toBe(201);
      // A request the approver recognizes and may approve, made afterwards, is approved: the early one was seen and left.
      await bind('admin-nodeclient', 'system:certificates.svc.io:certificatesigningrequests:nodeclient', { kind: 'User', name: 'system:admin' });
      await create('node-by-admin', 'svc.io/apiserver-client-node', nodeRequest('by-admin').request, ['digital signature', 'key encipherment', 'client auth']);
      await issued('node-by-admin');
      expect((await get('node-early')).status.conditions).toBeUndefined();
    });

    it('node bootstrap: a token-authenticated bootstrap identity gets a node client certificate with no human step', async () => {
      await bind('bootstrappers-nodeclient', 'system:certificates.svc.io:certificatesigningrequests:nodeclient', { kind: 'Group', name: 'system:bootstrappers' });
      const { request, keyPem } = nodeRequest('node-7', 'ed25519');
      const r = await s.call('POST', CSRS, bootstrap, { metadata: { name: 'node-7' }, spec: { request: b64(request), signerName: 'svc.io/apiserver-client-node', usages: ['digital signature', 'client auth'] } });
      expect(r.status).toBe(201);
      expect(r.json.spec).toMatchObject({ username: 'kubelet-bootstrap', uid: '10001', groups: ['system:bootstrappers', 'system:authenticated'] });
      const pem = await issued('node-7');
      const approved = (await get('node-7')).status.conditions.find((c: { type: string }) => c.type === 'Approved');
      expect(approved).toMatchObject({ status: 'True', reason: 'AutoApproved', message: 'Auto approving kubelet client certificate after SubjectAccessReview.' });
      const cert = inspectCertificate(pem, s.pki.ca.certPem);
      expect(cert.opensslVerify.ok).toBe(true);
      expect(cert.subject).toBe('O=system:nodes\nCN=system:node:node-7');
      expect(cert.subjectAltName).toBeUndefined();
      expect(cert.keyUsage).toEqual(['Digital Signature']);
      expect(cert.extKeyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
      // The node now authenticates with its certificate.
      const who = await s.call('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { cert: pem, key: keyPem }, { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
      expect(who.json.status.userInfo).toEqual({ username: 'system:node:node-7', groups: ['system:nodes', 'system:authenticated'] });
    });

    it('a node renewing its own certificate is approved as selfnodeclient', async () => {
      await bind('nodes-selfnodeclient', 'system:certificates.svc.io:certificatesigningrequests:selfnodeclient', { kind: 'Group', name: 'system:nodes' });
      await bind('nodes-create-csrs', 'system:node-bootstrapper', { kind: 'Group', name: 'system:nodes' });
      const node = await s.clientCert('system:node:node-8', ['system:nodes']);
      const r = await s.call('POST', CSRS, node, { metadata: { name: 'node-8-renew' }, spec: { request: b64(nodeRequest('node-8').request), signerName: 'svc.io/apiserver-client-node', usages: ['digital signature', 'key encipherment', 'client auth'] } });
      expect(r.status).toBe(201);
      await issued('node-8-renew');
      const approved = (await get('node-8-renew')).status.conditions.find((c: { type: string }) => c.type === 'Approved');
      expect(approved.message).toBe('Auto approving self kubelet client certificate after SubjectAccessReview.');
    });
  });

  it('runs the controllers as their own identities, bound by the bootstrap policy', async () => {
    const binding = await s.call('GET', `${rbac}/clusterrolebindings/system:controller:certificate-controller`, admin);
    expect(binding.json.subjects).toEqual([{ kind: 'ServiceAccount', name: 'certificate-controller', namespace: 'kube-system' }]);
    expect(s.assembled.controllers.active()).toEqual(
      expect.arrayContaining(['certificatesigningrequest-signing-controller', 'certificatesigningrequest-approving-controller', 'certificatesigningrequest-cleaner-controller']),
    );
  });
});
