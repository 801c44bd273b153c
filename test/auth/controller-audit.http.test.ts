/**
 * Controllers' writes are audited as upstream audits kube-controller-manager
 * over HTTP, in the same event shape as HTTP requests, to the real file sink
 * (what --audit-log-path builds), on both backends: the signer's
 * certificatesigningrequests/status update under its service account, with
 * the request and response objects a RequestResponse policy asks for; the
 * apiserver's own post-start writes as system:apiserver.
 */
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backends } from '../support/test-server';
import { startSecureTestServer, type Credentials, type SecureTestServer } from '../support/secure-server';
import { opensslRequest } from '../support/certificate-check';
import { until } from '../support/until';
import { FileAuditSink } from '../../src/adapters/audit';
import { FileCertificateAuthority } from '../../src/adapters/certificate-authority';
import { parsePolicy } from '../../src/auth/audit/policy';

const CSRS = '/apis/certificates.svc.io/v1/certificatesigningrequests';

describe.each(backends)('audit of controller writes on %s', (backend) => {
  let s: SecureTestServer;
  let admin: Credentials;
  let path: string;
  beforeAll(async () => {
    path = join(mkdtempSync(join(tmpdir(), 'svc-audit-')), 'audit.log');
    const policy = parsePolicy({
      kind: 'Policy',
      rules: [
        { level: 'RequestResponse', resources: [{ group: 'certificates.svc.io', resources: ['certificatesigningrequests/status'] }] },
        { level: 'Metadata' },
      ],
    });
    s = await startSecureTestServer(
      backend,
      { audit: { policy, sink: new FileAuditSink({ path, maxSizeMB: 100, maxBackups: 1 }) } },
      { controllers: (pki) => ({ signing: { authorities: new Map([['svc.io/apiserver-client', new FileCertificateAuthority(pki.paths.caCert, pki.paths.caKey)]]), maxTtlMs: 3600_000 } }) },
    );
    admin = await s.clientCert('system:admin', ['system:masters']);
  });
  afterAll(() => s.close());

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const events = (): any[] => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);
  /** The audit events that `pick` accepts, once there are some (the sink writes in the background). */
  const eventually = (what: string, pick: (e: { [k: string]: any }) => boolean) =>
    until(`an audit event for ${what}`, () => {
      const found = events().filter(pick);
      return found.length ? found : undefined;
    });

  it("the signer's certificatesigningrequests/status update, as its service account, in the HTTP request's shape", async () => {
    const { request } = opensslRequest({ keyType: 'p256', subject: '/CN=audited' });
    const created = await s.call('POST', CSRS, admin, { metadata: { name: 'audited' }, spec: { request: request.toString('base64'), signerName: 'svc.io/apiserver-client', usages: ['client auth'] } });
    expect(created.status).toBe(201);
    const approval = [{ op: 'add', path: '/status/conditions', value: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'approved by the test' }] }];
    expect((await s.call('PATCH', `${CSRS}/audited/approval`, admin, approval, 'application/json-patch+json')).status).toBe(200);
    const uri = `${CSRS}/audited/status`;
    const signer = await eventually('the signer', (e) => e.requestURI === uri && e.stage === 'ResponseComplete');
    expect(signer).toHaveLength(1);
    const done = signer[0];
    expect(done).toMatchObject({
      kind: 'Event',
      apiVersion: 'audit.svc.io/v1',
      level: 'RequestResponse',
      verb: 'update',
      requestURI: uri,
      user: { username: 'system:serviceaccount:kube-system:certificate-controller', groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'] },
      sourceIPs: ['127.0.0.1'],
      userAgent: expect.stringMatching(/^kube-controller-manager\/v\S+ \(\S+\) kubernetes\/\S+\/system:serviceaccount:kube-system:certificate-controller$/),
      objectRef: { resource: 'certificatesigningrequests', name: 'audited', apiGroup: 'certificates.svc.io', apiVersion: 'v1', subresource: 'status' },
      responseStatus: { metadata: {}, code: 200 },
    });
    expect(done.requestObject.status.certificate).toEqual(expect.any(String));
    expect(done.responseObject).toMatchObject({ kind: 'CertificateSigningRequest', metadata: { name: 'audited' }, status: { certificate: done.requestObject.status.certificate } });
    expect(done.stageTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    // RequestReceived first, under the same audit ID, without the objects.
    const stages = events().filter((e) => e.auditID === done.auditID);
    expect(stages.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseComplete']);
    expect(stages[0].requestObject).toBeUndefined();
    // The admin's approval is there too, as an HTTP request; the controller's write is not mistaken for it.
    expect(events().some((e) => e.requestURI === `${CSRS}/audited/approval` && e.user.username === 'system:admin' && e.stage === 'ResponseComplete')).toBe(true);
  });

  it("the apiserver's post-start writes (bootstrap policy, system namespaces) as system:apiserver", async () => {
    const [role] = await eventually('the bootstrap policy', (e) => e.requestURI === '/apis/rbac.authorization.svc.io/v1/clusterroles' && e.stage === 'ResponseComplete' && e.verb === 'create');
    expect(role).toMatchObject({ level: 'Metadata', user: { username: 'system:apiserver' }, userAgent: expect.stringMatching(/^kube-apiserver\//), responseStatus: { code: 201 } });
    expect(role.requestObject).toBeUndefined();
    const [ns] = await eventually('the system namespaces', (e) => e.requestURI === '/api/v1/namespaces' && e.verb === 'create' && e.stage === 'ResponseComplete');
    expect(ns).toMatchObject({ user: { username: 'system:apiserver' }, objectRef: { resource: 'namespaces', apiGroup: '', apiVersion: 'v1' } });
  });
});
