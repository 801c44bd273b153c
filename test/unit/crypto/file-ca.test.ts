/**
 * The file-backed signing CA: RSA, ECDSA and Ed25519 CAs made by the openssl
 * CLI (PKCS#1, SEC 1 and PKCS#8 keys), checked with openssl verify; a key
 * that does not match; files replaced on disk.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileCertificateAuthority } from '../../../src/adapters/certificate-authority';
import { CertificateAuthorityError, type CertificateTemplate } from '../../../src/ports/certificate-authority.port';
import { inspectCertificate, opensslRequest } from '../../support/certificate-check';

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'svc-fileca-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A self-signed CA by openssl, with its key in the given encoding. */
function makeCa(name: string, keyArgs: string[], keyForm: 'pkcs8' | 'traditional'): { cert: string; key: string } {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  execFileSync('openssl', ['genpkey', ...keyArgs, '-out', key], { stdio: 'ignore' });
  if (keyForm === 'traditional') {
    const alg = keyArgs[1] === 'RSA' ? 'rsa' : 'ec';
    execFileSync('openssl', [alg, '-in', key, '-out', key, ...(alg === 'rsa' ? ['-traditional'] : [])], { stdio: 'ignore' });
  }
  execFileSync('openssl', ['req', '-x509', '-new', '-key', key, '-out', cert, '-subj', `/CN=${name}`, '-days', '10', '-addext', 'basicConstraints=critical,CA:TRUE'], { stdio: 'ignore' });
  return { cert, key };
}

const template = (request: Buffer, over: Partial<CertificateTemplate> = {}): CertificateTemplate => ({
  request,
  copySubject: true,
  dnsNames: ['a.example'],
  ipAddresses: ['10.1.2.3', '::1'],
  emailAddresses: [],
  uris: [],
  keyUsage: ['digitalSignature', 'keyEncipherment'],
  extKeyUsage: ['1.3.6.1.5.5.7.3.1'],
  notBefore: new Date(Date.now() - 60_000),
  notAfter: new Date(Date.now() + 3_600_000),
  ...over,
});

describe('FileCertificateAuthority', () => {
  it.each([
    ['rsa-pkcs1', ['-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048'], 'traditional', 'sha256WithRSAEncryption'],
    ['ec-sec1', ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-384'], 'traditional', 'ecdsa-with-SHA384'],
    ['ed25519', ['-algorithm', 'ED25519'], 'pkcs8', 'ED25519'],
  ] as const)('signs with a %s CA', async (name, keyArgs, form, algorithm) => {
    const files = makeCa(name, [...keyArgs], form);
    const ca = await new FileCertificateAuthority(files.cert, files.key).current();
    const { request } = opensslRequest({ keyType: 'p256', subject: '/CN=leaf/O=org', der: true });
    const pem = await ca.issue(template(request));
    const cert = inspectCertificate(pem, ca.certificatePem);
    expect(cert.opensslVerify.ok).toBe(true);
    expect(cert.subject).toBe('CN=leaf\nO=org');
    expect(cert.subjectAltName).toBe('DNS:a.example, IP Address:10.1.2.3, IP Address:0:0:0:0:0:0:0:1');
    expect(cert.keyUsage).toEqual(['Digital Signature', 'Key Encipherment']);
    expect(cert.extKeyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(cert.text).toContain(`Signature Algorithm: ${algorithm}`);
    expect(cert.text).toContain('X509v3 Subject Alternative Name: \n');
    expect(cert.isCA).toBe(false);
  });

  it('makes subjectAltName critical when the subject is empty', async () => {
    const files = makeCa('empty-subject', ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256'], 'pkcs8');
    const ca = await new FileCertificateAuthority(files.cert, files.key).current();
    const { request } = opensslRequest({ keyType: 'ed25519', subject: '/CN=ignored', der: true });
    const cert = inspectCertificate(await ca.issue(template(request, { copySubject: false })), ca.certificatePem);
    expect(cert.subject).toBeUndefined();
    expect(cert.text).toContain('X509v3 Subject Alternative Name: critical');
  });

  it('refuses a key that is not the certificate’s, and missing files', async () => {
    const a = makeCa('a', ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256'], 'pkcs8');
    const b = makeCa('b', ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256'], 'pkcs8');
    await expect(new FileCertificateAuthority(a.cert, b.key).current()).rejects.toThrow(new CertificateAuthorityError(`${a.cert} and ${b.key}: the private key does not match the certificate`));
    await expect(new FileCertificateAuthority(join(dir, 'none.crt'), a.key).current()).rejects.toBeInstanceOf(CertificateAuthorityError);
  });

  it('reads the files again when they are replaced', async () => {
    const first = makeCa('first', ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256'], 'pkcs8');
    const ca = new FileCertificateAuthority(join(dir, 'live.crt'), join(dir, 'live.key'));
    renameSync(first.cert, join(dir, 'live.crt'));
    renameSync(first.key, join(dir, 'live.key'));
    const before = await ca.current();
    expect(await ca.current()).toBe(before);
    const second = makeCa('second', ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256'], 'pkcs8');
    renameSync(second.key, join(dir, 'live.key'));
    renameSync(second.cert, join(dir, 'live.crt'));
    const after = await ca.current();
    expect(after.certificatePem).not.toBe(before.certificatePem);
    expect(inspectCertificate(after.certificatePem, after.certificatePem).subject).toBe('CN=second');
    writeFileSync(join(dir, 'live.key'), 'not a key');
    await expect(ca.current()).rejects.toBeInstanceOf(CertificateAuthorityError);
  });
});
