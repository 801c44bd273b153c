/**
 * The svc.io/apiserver-client-pod PodCertificateRequest signer on both
 * backends: what it issues (checked with openssl and Node's X509Certificate,
 * the PodIdentity extension read by a DER walk written here), what it
 * denies and when it fails; and the `sign` permission /status writes need.
 */
import { grantClusterRole } from '../support/rbac-grant';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backends } from '../support/test-server';
import { until } from '../support/until';
import { startSecureTestServer, type Credentials, type SecureTestServer } from '../support/secure-server';
import { inspectCertificate, opensslRequest, type OpensslKeyType } from '../support/certificate-check';
import { FileCertificateAuthority } from '../../src/adapters/certificate-authority';
import { encodePodIdentity } from '../../src/machinery/pod-identity';
import { createHash, X509Certificate } from 'node:crypto';

const ns = 'default';
const PCRS = `/apis/certificates.svc.io/v1/namespaces/${ns}/podcertificaterequests`;
const SAS = `/api/v1/namespaces/${ns}/serviceaccounts`;
const rbac = '/apis/rbac.authorization.svc.io/v1';
const hour = 3600_000;
const podSigner = 'svc.io/apiserver-client-pod';

/** The value of the extension with this dotted OID, from `openssl asn1parse`, as DER bytes. */
function extensionValue(certPem: string, oid: string): { critical: boolean; der: Buffer } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'svc-asn1-'));
  try {
    const file = join(dir, 'c.pem');
    writeFileSync(file, certPem);
    const lines = execFileSync('openssl', ['asn1parse', '-in', file], { encoding: 'utf8' }).split('\n');
    const at = lines.findIndex((l) => l.endsWith(`:${oid}`));
    if (at < 0) return undefined;
    const critical = /BOOLEAN\s+:255/.test(lines[at + 1]);
    const octets = lines.slice(at + 1, at + 3).find((l) => l.includes('OCTET STRING'))!;
    return { critical, der: Buffer.from(/\[HEX DUMP\]:([0-9A-F]+)/.exec(octets)![1], 'hex') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** SEQUENCE of [n] IMPLICIT UTF8String, read back into strings. */
function readTaggedStrings(der: Buffer): Array<[number, string]> {
  expect(der[0]).toBe(0x30);
  let at = der[1] & 0x80 ? 2 + (der[1] & 0x7f) : 2;
  const out: Array<[number, string]> = [];
  while (at < der.length) {
    const tag = der[at] & 0x1f;
    const len = der[at + 1];
    out.push([tag, der.subarray(at + 2, at + 2 + len).toString('utf8')]);
    at += 2 + len;
  }
  return out;
}

describe.each(backends)('PodCertificateRequest signer on %s', (backend) => {
  let s: SecureTestServer;
  let admin: Credentials;
  let saUid: string;
  let caDir: string;
  let rsa3072Stub: string;

  beforeAll(async () => {
    // An RSA 3072 key takes openssl seconds on this thread (over 5 on a busy machine): made before the server
    // exists. Made during a test, the server's keep-alive timeout fires in the wait and resets the next request.
    rsa3072Stub = opensslRequest({ keyType: 'rsa3072', subject: '/', der: true }).request.toString('base64');
    caDir = mkdtempSync(join(tmpdir(), 'svc-podca-'));
    s = await startSecureTestServer(backend, {}, {
      controllers: (pki) => {
        // The pod signer gets its own copy of the CA files, so that one test can take them away.
        execFileSync('cp', [pki.paths.caCert, join(caDir, 'ca.crt')]);
        execFileSync('cp', [pki.paths.caKey, join(caDir, 'ca.key')]);
        return { signing: { authorities: new Map([[podSigner, new FileCertificateAuthority(join(caDir, 'ca.crt'), join(caDir, 'ca.key'))]]), maxTtlMs: hour } };
      },
    });
    admin = await s.clientCert('system:admin', ['system:masters']);
    const sa = await s.call('POST', SAS, admin, { metadata: { name: 'builder' } });
    expect(sa.status).toBe(201);
    saUid = sa.json.metadata.uid;
  });
  afterAll(async () => {
    await s.close();
    rmSync(caDir, { recursive: true, force: true });
  });

  const pcr = (name: string, keyType: OpensslKeyType, spec: Record<string, unknown> = {}) => ({
    metadata: { name },
    spec: {
      signerName: podSigner,
      podName: `${name}-pod`,
      podUID: `pod-uid-${name}`,
      serviceAccountName: 'builder',
      serviceAccountUID: saUid,
      nodeName: 'node-1',
      nodeUID: 'node-uid-1',
      stubPKCS10Request: keyType === 'rsa3072' ? rsa3072Stub : opensslRequest({ keyType, subject: '/', der: true }).request.toString('base64'),
      ...spec,
    },
  });
  const create = async (body: ReturnType<typeof pcr>) => {
    const r = await s.call('POST', PCRS, admin, body);
    expect(r.status).toBe(201);
  };
  const finished = (name: string) =>
    until(`a terminal condition on ${name}`, async () => {
      const obj = (await s.call('GET', `${PCRS}/${name}`, admin)).json;
      return obj.status?.conditions?.length ? obj : undefined;
    });

  it.each<[OpensslKeyType, string[]]>([
    ['ed25519', ['Digital Signature']],
    ['p256', ['Digital Signature']],
    ['p384', ['Digital Signature']],
    ['rsa3072', ['Digital Signature', 'Key Encipherment']],
  ])('issues a client certificate for the pod’s service account (%s key)', async (keyType, keyUsage) => {
    const name = `issued-${keyType}`;
    await create(pcr(name, keyType, { maxExpirationSeconds: 7200 }));
    const obj = await finished(name);
    expect(obj.status.conditions).toEqual([{ type: 'Issued', status: 'True', reason: 'Issued', message: `issued by ${podSigner}`, lastTransitionTime: expect.any(String) }]);
    const chain: string = obj.status.certificateChain;
    const cert = inspectCertificate(chain, s.pki.ca.certPem);
    expect(cert.signedByCa).toBe(true);
    // openssl does not know the PodIdentity extension, and it is critical: plain verify refuses, the chain itself is sound.
    expect(cert.opensslVerify.output).toContain('unhandled critical extension');
    expect(cert.opensslVerifyIgnoringCritical.ok).toBe(true);
    // An empty subject: Node reports none, openssl prints nothing after "Subject:".
    expect(cert.subject).toBeUndefined();
    expect(cert.text).toMatch(/Subject: *\n/);
    expect(cert.subjectAltName).toBeUndefined();
    expect(cert.isCA).toBe(false);
    expect(cert.keyUsage).toEqual(keyUsage);
    expect(cert.extKeyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
    // Lifetime min(maxExpirationSeconds, 24 h); status times are the leaf's; refresh half way.
    expect(cert.notAfter.getTime() - cert.notBefore.getTime()).toBe(2 * hour);
    expect(Date.parse(obj.status.notBefore)).toBe(cert.notBefore.getTime());
    expect(Date.parse(obj.status.notAfter)).toBe(cert.notAfter.getTime());
    expect(Date.parse(obj.status.beginRefreshAt)).toBe(cert.notBefore.getTime() + hour);
    expect(cert.notBefore.getTime()).toBeLessThanOrEqual(Date.now() - 5 * 60_000);
    const identity = extensionValue(chain, '1.3.6.1.4.1.57683.1');
    expect(identity?.critical).toBe(true);
    const nsUid = (await s.call('GET', `/api/v1/namespaces/${ns}`, admin)).json.metadata?.uid ?? '';
    expect(readTaggedStrings(identity!.der)).toEqual([
      [0, ns],
      [1, nsUid],
      [2, 'builder'],
      [3, saUid],
      [4, `${name}-pod`],
      [5, `pod-uid-${name}`],
      [6, 'node-1'],
      [7, 'node-uid-1'],
    ]);
  });

  it('caps the lifetime at 24 hours', async () => {
    await create(pcr('default-lifetime', 'p256'));
    const obj = await finished('default-lifetime');
    expect(Date.parse(obj.status.notAfter) - Date.parse(obj.status.notBefore)).toBe(24 * hour);
  });

  it('denies an unsupported key type with UnsupportedKeyType, naming the supported types', async () => {
    await create(pcr('p521', 'p521'));
    const obj = await finished('p521');
    expect(obj.status.conditions).toEqual([
      {
        type: 'Denied',
        status: 'True',
        reason: 'UnsupportedKeyType',
        message: 'svc.io/apiserver-client-pod cannot issue for this request: an ECDSA P-521 key is not supported: the key must be RSA (2048 bits or more), ECDSA P-256 or P-384, or Ed25519 (use keyType RSA3072, RSA4096, ECDSAP256, ECDSAP384 or ED25519)',
        lastTransitionTime: expect.any(String),
      },
    ]);
    expect(obj.status.certificateChain).toBeUndefined();
  });

  it('denies unverifiedUserAnnotations it does not know, and a service account that is not the one named', async () => {
    await create(pcr('annotated', 'p256', { unverifiedUserAnnotations: { 'example.com/mode': 'x' } }));
    expect((await finished('annotated')).status.conditions[0]).toMatchObject({ type: 'Denied', reason: 'InvalidUserConfig', message: 'svc.io/apiserver-client-pod supports no unverifiedUserAnnotations, got example.com/mode' });
    await create(pcr('stranger', 'p256', { serviceAccountUID: 'not-the-uid' }));
    expect((await finished('stranger')).status.conditions[0]).toMatchObject({ type: 'Denied', reason: 'InvalidServiceAccount', message: `service account ${ns}/builder with UID not-the-uid does not exist` });
  });

  it('leaves requests for other signers alone', async () => {
    await create(pcr('elsewhere', 'p256', { signerName: 'example.com/other' }));
    await create(pcr('after-elsewhere', 'p256'));
    await finished('after-elsewhere');
    expect((await s.call('GET', `${PCRS}/elsewhere`, admin)).json.status).toEqual({});
  });

  it('changing the status needs sign on the signer', async () => {
    const alice = await s.clientCert('alice');
    const grant = (name: string, rules: unknown[]) => grantClusterRole(s, admin, name, rules, 'alice');
    await grant('pcr-status-writer', [{ apiGroups: ['certificates.svc.io'], resources: ['podcertificaterequests', 'podcertificaterequests/status'], verbs: ['get', 'update'] }]);
    await create(pcr('to-fail', 'p256', { signerName: 'example.com/manual' }));
    const current = (await s.call('GET', `${PCRS}/to-fail`, alice)).json;
    const failedBody = { ...current, status: { conditions: [{ type: 'Failed', status: 'True', reason: 'Manual', message: 'no', lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }] } };
    const refused = await s.call('PUT', `${PCRS}/to-fail/status`, alice, failedBody);
    expect(refused.status).toBe(422);
    expect(refused.json.details.causes).toEqual([{ reason: 'FieldValueForbidden', field: 'spec.signerName', message: 'Forbidden: User "alice" is not permitted to "sign" for signer "example.com/manual"' }]);
    await grant('pcr-signer', [{ apiGroups: ['certificates.svc.io'], resources: ['signers'], verbs: ['sign'], resourceNames: ['example.com/*'] }]);
    expect((await s.call('PUT', `${PCRS}/to-fail/status`, alice, failedBody)).status).toBe(200);
  });

  it('an issued pod certificate authenticates as the pod’s service account while that account exists', async () => {
    const { keyPem, request } = opensslRequest({ keyType: 'p256', subject: '/', der: true });
    const sa = await s.call('POST', SAS, admin, { metadata: { name: 'web' } });
    const body = pcr('authn', 'p256', { serviceAccountName: 'web', serviceAccountUID: sa.json.metadata.uid });
    body.spec.stubPKCS10Request = request.toString('base64');
    await create(body);
    const chain: string = (await finished('authn')).status.certificateChain;
    const review = () => s.call('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { cert: chain, key: keyPem }, { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
    const who = await review();
    expect(who.status).toBe(201);
    const sha256 = createHash('sha256').update(new X509Certificate(chain).raw).digest('hex');
    expect(who.json.status.userInfo).toEqual({
      username: `system:serviceaccount:${ns}:web`,
      uid: sa.json.metadata.uid,
      groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'],
      extra: {
        'authentication.kubernetes.io/pod-name': ['authn-pod'],
        'authentication.kubernetes.io/pod-uid': ['pod-uid-authn'],
        'authentication.kubernetes.io/node-name': ['node-1'],
        'authentication.kubernetes.io/node-uid': ['node-uid-1'],
        'authentication.kubernetes.io/credential-id': [`X509SHA256=${sha256}`],
      },
    });
    expect((await s.call('DELETE', `${SAS}/web`, admin)).status).toBe(200);
    await until('the account to be gone from the cache', async () => ((await review()).status === 401 ? true : undefined));
    expect((await review()).json.message).toBe('Unauthorized');
  });

  it('a pod certificate from another CA does not authenticate', async () => {
    const other = join(caDir, 'other');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', `${other}.key`, '-out', `${other}.crt`, '-subj', '/CN=other', '-days', '1'], { stdio: 'ignore' });
    const foreign = await new FileCertificateAuthority(`${other}.crt`, `${other}.key`).current();
    const { keyPem, request } = opensslRequest({ keyType: 'p256', subject: '/', der: true });
    const identity = encodePodIdentity({ namespace: ns, namespaceUID: '', serviceAccountName: 'builder', serviceAccountUID: saUid, podName: 'p', podUID: 'u', nodeName: 'n', nodeUID: 'nu' });
    const cert = await foreign.issue({
      request,
      copySubject: false,
      dnsNames: [],
      ipAddresses: [],
      emailAddresses: [],
      uris: [],
      keyUsage: ['digitalSignature'],
      extKeyUsage: ['1.3.6.1.5.5.7.3.2'],
      notBefore: new Date(Date.now() - 60_000),
      notAfter: new Date(Date.now() + hour),
      extensions: [{ oid: '1.3.6.1.4.1.57683.1', critical: true, value: identity }],
    });
    const r = await s.call('GET', '/api/v1/namespaces/default/serviceaccounts', { cert, key: keyPem });
    expect(r.status).toBe(401);
  });

  it('fails a request it cannot issue (the CA files are gone)', async () => {
    rmSync(join(caDir, 'ca.key'));
    await create(pcr('no-ca', 'p256'));
    const condition = (await finished('no-ca')).status.conditions[0];
    expect(condition).toMatchObject({ type: 'Failed', status: 'True', reason: 'SignerUnavailable' });
    expect(condition.message).toMatch(/^the signing CA cannot be read: cannot read the signing CA: ENOENT/);
  });
});
