/**
 * Independent checks of an issued certificate, by code that shares nothing
 * with the issuer: Node's X509Certificate (OpenSSL underneath) for names,
 * validity and the signature, and the openssl CLI for `verify` against the
 * CA and for the key usage and extension text.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface CertificateFacts {
  /** Node's rendering: `CN=alice\nO=dev`; undefined for an empty subject. */
  subject?: string;
  issuer: string;
  notBefore: Date;
  notAfter: Date;
  isCA: boolean;
  /** keyUsage names as openssl prints them (`Digital Signature`), and whether the extension is critical. */
  keyUsage: string[];
  keyUsageCritical: boolean;
  /** extendedKeyUsage OIDs. */
  extKeyUsage: string[];
  /** Node's rendering (`DNS:a.example, IP Address:10.0.0.1`), or undefined. */
  subjectAltName?: string;
  /** The signature verifies with the CA's public key and the issuer matches the CA's subject. */
  signedByCa: boolean;
  /** `openssl verify -CAfile ca` output (and whether it passed). */
  opensslVerify: { ok: boolean; output: string };
  /** The same with `-ignore_critical` (for extensions openssl does not know). */
  opensslVerifyIgnoringCritical: { ok: boolean; output: string };
  /** `openssl x509 -text` of the certificate. */
  text: string;
}

/** The first PEM certificate of a chain. */
export function firstCertificate(chainPem: string): string {
  const m = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n?/.exec(chainPem);
  if (!m) throw new Error('no CERTIFICATE block');
  return m[0];
}

export function inspectCertificate(certPem: string, caPem: string): CertificateFacts {
  const dir = mkdtempSync(join(tmpdir(), 'svc-certcheck-'));
  try {
    const certFile = join(dir, 'cert.pem');
    const caFile = join(dir, 'ca.pem');
    writeFileSync(certFile, firstCertificate(certPem));
    writeFileSync(caFile, caPem);
    const cert = new X509Certificate(firstCertificate(certPem));
    const ca = new X509Certificate(caPem);
    const verify = (extra: string[]) => {
      const r = spawnSync('openssl', ['verify', ...extra, '-CAfile', caFile, certFile], { encoding: 'utf8' });
      return { ok: r.status === 0, output: `${r.stdout}${r.stderr}`.trim() };
    };
    const text = execFileSync('openssl', ['x509', '-in', certFile, '-noout', '-text'], { encoding: 'utf8' });
    const ku = /X509v3 Key Usage:( critical)?\n\s*(.+)\n/.exec(text);
    return {
      subject: cert.subject,
      issuer: cert.issuer,
      notBefore: new Date(cert.validFrom),
      notAfter: new Date(cert.validTo),
      isCA: cert.ca,
      keyUsage: ku ? ku[2].split(',').map((s) => s.trim()) : [],
      keyUsageCritical: !!ku?.[1],
      extKeyUsage: cert.keyUsage ?? [],
      subjectAltName: cert.subjectAltName,
      signedByCa: cert.checkIssued(ca) && cert.verify(ca.publicKey),
      opensslVerify: verify([]),
      opensslVerifyIgnoringCritical: verify(['-ignore_critical']),
      text,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export type OpensslKeyType = 'rsa2048' | 'rsa3072' | 'p256' | 'p384' | 'p521' | 'ed25519';

/** A private key and a PKCS#10 request made by the openssl CLI (PEM, or DER with `der`). */
export function opensslRequest(opts: { keyType: OpensslKeyType; subject: string; sans?: string; basicConstraintsCA?: boolean; der?: boolean }): { keyPem: string; request: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-openssl-'));
  try {
    const key = join(dir, 'key.pem');
    const keyArgs: Record<OpensslKeyType, string[]> = {
      rsa2048: ['-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048'],
      rsa3072: ['-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:3072'],
      p256: ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256'],
      p384: ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-384'],
      p521: ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-521'],
      ed25519: ['-algorithm', 'ED25519'],
    };
    execFileSync('openssl', ['genpkey', ...keyArgs[opts.keyType], '-out', key], { stdio: 'ignore' });
    const args = ['req', '-new', '-key', key, '-subj', opts.subject, '-outform', opts.der ? 'DER' : 'PEM'];
    if (opts.sans) args.push('-addext', `subjectAltName=${opts.sans}`);
    if (opts.basicConstraintsCA) args.push('-addext', 'basicConstraints=critical,CA:TRUE');
    const request = execFileSync('openssl', args);
    return { keyPem: readFileSync(key, 'utf8'), request };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
