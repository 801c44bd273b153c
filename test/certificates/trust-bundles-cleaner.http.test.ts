/**
 * The ClusterTrustBundle publisher (one bundle per built-in signer, renamed
 * and replaced when the CA files are rotated) and the CSR and
 * PodCertificateRequest cleaners (upstream's rules, against a clock moved
 * forward), on both backends.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backends } from '../support/test-server';
import { until } from '../support/until';
import { startSecureTestServer, type Credentials, type SecureTestServer } from '../support/secure-server';
import { inspectCertificate, opensslRequest } from '../support/certificate-check';
import { makeLeafCertPem } from '../support/crypto-fixtures';
import { FileCertificateAuthority } from '../../src/adapters/certificate-authority';
import { cleanCertificateSigningRequests, cleanPodCertificateRequests } from '../../src/controllers/certificates/cleaner';
import { WebCryptoAdapter } from '../../src/adapters/crypto';

const crypto = new WebCryptoAdapter();

const CTBS = '/apis/certificates.svc.io/v1/clustertrustbundles';
const CSRS = '/apis/certificates.svc.io/v1/certificatesigningrequests';
const PCRS = '/apis/certificates.svc.io/v1/namespaces/default/podcertificaterequests';
const signers = ['svc.io/apiserver-client', 'svc.io/apiserver-client-node', 'svc.io/node-serving', 'svc.io/apiserver-client-pod'];
const minute = 60_000;
const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64');

/** This suite's waits had 15 s (300 probes 50 ms apart) before the shared until, and keep it. */
const slow = { timeoutMs: 15_000 };

/** upstream's bundle name, computed here without the server's code. */
const expectedName = (signer: string, pem: string) => `${signer.replace('/', ':')}:${createHash('sha256').update(pem).digest('hex').slice(0, 24)}`;

describe.each(backends)('trust bundles and cleaners on %s', (backend) => {
  let s: SecureTestServer;
  let admin: Credentials;
  let caDir: string;
  const caCert = () => join(caDir, 'ca.crt');
  const caKey = () => join(caDir, 'ca.key');

  beforeAll(async () => {
    caDir = mkdtempSync(join(tmpdir(), 'svc-rotate-'));
    s = await startSecureTestServer(backend, {}, {
      controllers: (pki) => {
        writeFileSync(caCert(), readFileSync(pki.paths.caCert));
        writeFileSync(caKey(), readFileSync(pki.paths.caKey));
        const ca = new FileCertificateAuthority(caCert(), caKey());
        return { signing: { authorities: new Map(signers.map((n) => [n, ca])), maxTtlMs: 24 * 60 * minute } };
      },
    });
    admin = await s.clientCert('system:admin', ['system:masters']);
  });
  afterAll(async () => {
    await s.close();
    rmSync(caDir, { recursive: true, force: true });
  });

  const bundles = async () => ((await s.call('GET', CTBS, admin)).json.items as Array<{ metadata: { name: string }; spec: { signerName: string; trustBundle: string } }>).filter((b) => signers.includes(b.spec.signerName));

  it('publishes one ClusterTrustBundle per built-in signer, named as upstream, holding the CA', async () => {
    const ca = readFileSync(caCert(), 'utf8');
    const found = await until('four bundles', async () => ((await bundles()).length === 4 ? bundles() : undefined), slow);
    expect(found.map((b) => b.metadata.name).sort()).toEqual(signers.map((n) => expectedName(n, ca)).sort());
    for (const b of found) expect(b.spec.trustBundle).toBe(ca);
    // Readable by any authenticated user, as the spec says.
    expect((await s.call('GET', CTBS, await s.clientCert('nobody'))).status).toBe(200);
  });

  it('a deleted bundle comes back', async () => {
    const [first] = await bundles();
    expect((await s.call('DELETE', `${CTBS}/${first.metadata.name}`, admin)).status).toBe(200);
    await until('the bundle again', async () => ((await s.call('GET', `${CTBS}/${first.metadata.name}`, admin)).status === 200 ? true : undefined), slow);
  });

  it('replacing the CA files rotates the signing CA and its bundles', async () => {
    const next = join(caDir, 'next');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-384', '-nodes', '-keyout', `${next}.key`, '-out', `${next}.crt`, '-subj', '/CN=rotated-ca', '-days', '30',
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'], { stdio: 'ignore' });
    renameSync(`${next}.key`, caKey());
    renameSync(`${next}.crt`, caCert());
    const rotated = readFileSync(caCert(), 'utf8');
    const names = signers.map((n) => expectedName(n, rotated)).sort();
    await until('the rotated bundles', async () => {
      const now = await bundles();
      return now.length === 4 && JSON.stringify(now.map((b) => b.metadata.name).sort()) === JSON.stringify(names) ? true : undefined;
    }, slow);
    // Certificates issued from now on chain to the new CA.
    const { request } = opensslRequest({ keyType: 'p256', subject: '/CN=after-rotation' });
    expect((await s.call('POST', CSRS, admin, { metadata: { name: 'after-rotation' }, spec: { request: b64(request), signerName: 'svc.io/apiserver-client', usages: ['client auth'] } })).status).toBe(201);
    await s.call('PATCH', `${CSRS}/after-rotation/approval`, admin, [{ op: 'add', path: '/status/conditions', value: [{ type: 'Approved', status: 'True', reason: 'T', message: 't' }] }], 'application/json-patch+json');
    const pem = await until('the certificate', async () => {
      const c = (await s.call('GET', `${CSRS}/after-rotation`, admin)).json.status?.certificate;
      return c ? Buffer.from(c, 'base64').toString() : undefined;
    }, slow);
    const cert = inspectCertificate(pem, rotated);
    expect(cert.opensslVerify.ok).toBe(true);
    expect(cert.issuer).toBe('CN=rotated-ca');
    expect(cert.text).toContain('Signature Algorithm: ecdsa-with-SHA384');
  });

  describe('the CSR cleaner', () => {
    const at = (ms: number) => ({ now: () => new Date(Date.now() + ms) });
    // The cleaner reads the watch cache; a consistent LIST first waits until the cache holds every write made so far.
    const clean = async (ms: number) => {
      expect((await s.call('GET', CSRS, admin)).status).toBe(200);
      return cleanCertificateSigningRequests(s.assembled.registry, { clock: at(ms), crypto, log: () => undefined });
    };
    const conditions = async (name: string, type: string, extra: Record<string, unknown> = {}) => {
      const r = await s.call('PATCH', `${CSRS}/${name}/approval`, admin, [{ op: 'add', path: '/status/conditions', value: [{ type, status: 'True', reason: 'T', message: 't', ...extra }] }], 'application/json-patch+json');
      expect(r.status).toBe(200);
    };
    const make = async (name: string, signerName = 'example.com/manual') => {
      const { request } = opensslRequest({ keyType: 'p256', subject: `/CN=${name}` });
      expect((await s.call('POST', CSRS, admin, { metadata: { name }, spec: { request: b64(request), signerName, usages: ['client auth'] } })).status).toBe(201);
    };
    const exists = async (name: string) => (await s.call('GET', `${CSRS}/${name}`, admin)).status === 200;

    it('deletes issued, denied and failed requests an hour after their condition, pending ones after a day', async () => {
      await make('c-issued', 'svc.io/apiserver-client');
      await conditions('c-issued', 'Approved');
      await until('issuance', async () => ((await s.call('GET', `${CSRS}/c-issued`, admin)).json.status?.certificate ? true : undefined), slow);
      await make('c-denied');
      await conditions('c-denied', 'Denied');
      await make('c-approved-only');
      await conditions('c-approved-only', 'Approved');
      await make('c-pending');
      await make('c-failed', 'svc.io/apiserver-client');
      // Only the signer (with sign) may add Failed; the admin may too.
      const failed = (await s.call('GET', `${CSRS}/c-failed`, admin)).json;
      const put = await s.call('PUT', `${CSRS}/c-failed/status`, admin, { ...failed, status: { conditions: [{ type: 'Failed', status: 'True', reason: 'T', message: 't' }] } });
      expect(put.status).toBe(200);

      const ours = (names: string[]) => names.filter((n) => n.startsWith('c-')).sort();
      expect(ours(await clean(59 * minute))).toEqual([]);
      expect(ours(await clean(61 * minute))).toEqual(['c-denied', 'c-failed', 'c-issued']);
      expect(await exists('c-issued')).toBe(false);
      expect(ours(await clean(23 * 60 * minute))).toEqual([]);
      expect(ours(await clean(25 * 60 * minute))).toEqual(['c-pending']);
      // Approved but never issued: upstream keeps it.
      expect(await exists('c-approved-only')).toBe(true);
    });

    it('deletes an issued request as soon as its certificate has expired', async () => {
      await make('c-expired');
      await conditions('c-expired', 'Approved');
      const expired = await makeLeafCertPem({ notBefore: new Date(Date.now() - 2 * 86_400_000), notAfter: new Date(Date.now() - 86_400_000) });
      const current = (await s.call('GET', `${CSRS}/c-expired`, admin)).json;
      const put = await s.call('PUT', `${CSRS}/c-expired/status`, admin, { ...current, status: { ...current.status, certificate: b64(expired.pem) } });
      expect(put.status).toBe(200);
      expect((await clean(0)).filter((n) => n === 'c-expired')).toEqual(['c-expired']);
    });
  });

  it('the PodCertificateRequest cleaner deletes requests fifteen minutes after creation', async () => {
    const sa = await s.call('POST', '/api/v1/namespaces/default/serviceaccounts', admin, { metadata: { name: 'cleaner-sa' } });
    const body = {
      metadata: { name: 'old-pcr' },
      spec: {
        signerName: 'example.com/none',
        podName: 'p',
        podUID: 'pu',
        serviceAccountName: 'cleaner-sa',
        serviceAccountUID: sa.json.metadata.uid,
        nodeName: 'n',
        nodeUID: 'nu',
        stubPKCS10Request: opensslRequest({ keyType: 'p256', subject: '/', der: true }).request.toString('base64'),
      },
    };
    expect((await s.call('POST', PCRS, admin, body)).status).toBe(201);
    expect((await s.call('GET', PCRS, admin)).status).toBe(200); // the cache now holds the request
    const clean = (ms: number) => cleanPodCertificateRequests(s.assembled.registry, { clock: { now: () => new Date(Date.now() + ms) }, crypto, log: () => undefined });
    expect(await clean(14 * minute)).toEqual([]);
    expect(await clean(16 * minute)).toEqual(['default/old-pcr']);
    expect((await s.call('GET', `${PCRS}/old-pcr`, admin)).status).toBe(404);
  });
});
