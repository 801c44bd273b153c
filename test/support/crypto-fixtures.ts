/**
 * Real keys, CSRs and certificates generated at test time with @peculiar/x509,
 * for suites that need valid (or deliberately broken) crypto fixtures.
 */
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { ensureX509CryptoProvider } from '../../src/adapters/crypto/webcrypto.adapter';

ensureX509CryptoProvider();

export type FixtureKeyType = 'RSA2048' | 'RSA3072' | 'RSA4096' | 'ECDSAP256' | 'ECDSAP384' | 'ECDSAP521' | 'ED25519';

type KeyPair = webcrypto.CryptoKeyPair;
type Algorithms = {
  generate: webcrypto.RsaHashedKeyGenParams | webcrypto.EcKeyGenParams | webcrypto.Algorithm;
  sign: webcrypto.RsaHashedImportParams | webcrypto.EcdsaParams | webcrypto.Algorithm;
};

function algorithms(keyType: FixtureKeyType): Algorithms {
  const rsa = (modulusLength: number): Algorithms => ({
    generate: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength },
    sign: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
  });
  const ec = (namedCurve: string, hash: string): Algorithms => ({
    generate: { name: 'ECDSA', namedCurve },
    sign: { name: 'ECDSA', hash },
  });
  switch (keyType) {
    case 'RSA2048': return rsa(2048);
    case 'RSA3072': return rsa(3072);
    case 'RSA4096': return rsa(4096);
    case 'ECDSAP256': return ec('P-256', 'SHA-256');
    case 'ECDSAP384': return ec('P-384', 'SHA-384');
    case 'ECDSAP521': return ec('P-521', 'SHA-512');
    case 'ED25519': return { generate: { name: 'Ed25519' }, sign: { name: 'Ed25519' } };
  }
}

// RSA generation costs seconds, so key pairs are reused per type unless a caller asks for a fresh one.
const keyCache = new Map<FixtureKeyType, Promise<KeyPair>>();

export function makeKeyPair(keyType: FixtureKeyType, fresh = false): Promise<KeyPair> {
  const generate = () =>
    webcrypto.subtle.generateKey(algorithms(keyType).generate, true, ['sign', 'verify']) as Promise<KeyPair>;
  if (fresh) return generate();
  let keys = keyCache.get(keyType);
  if (!keys) keyCache.set(keyType, (keys = generate()));
  return keys;
}

export interface CsrFixture {
  /** "-----BEGIN CERTIFICATE REQUEST-----" armored request. */
  pem: string;
  /** DER bytes of the request. */
  der: Uint8Array;
  keys: KeyPair;
}

export async function makeCsrPem(opts: { keyType: FixtureKeyType; cn?: string; organizations?: string[]; freshKey?: boolean }): Promise<CsrFixture> {
  const keys = await makeKeyPair(opts.keyType, opts.freshKey);
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: [`CN=${opts.cn ?? 'test'}`, ...(opts.organizations ?? []).map((o) => `O=${o}`)].join(', '),
    keys,
    signingAlgorithm: algorithms(opts.keyType).sign,
  });
  return { pem: csr.toString('pem'), der: new Uint8Array(csr.rawData), keys };
}

export interface CertFixture {
  /** "-----BEGIN CERTIFICATE-----" armored certificate. */
  pem: string;
  der: Uint8Array;
  keys: KeyPair;
  subject: string;
}

let serial = 1;
const nextSerial = () => (serial++).toString(16).padStart(2, '0');
const DAY = 24 * 60 * 60 * 1000;

/** Self-signed CA certificate (basicConstraints CA=true), ECDSA P-256. */
export async function makeCaCertPem(opts: { cn?: string; notBefore?: Date; notAfter?: Date } = {}): Promise<CertFixture> {
  const keys = await makeKeyPair('ECDSAP256', true);
  const subject = `CN=${opts.cn ?? 'test-ca'}`;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: nextSerial(),
    name: subject,
    notBefore: opts.notBefore ?? new Date(Date.now() - DAY),
    notAfter: opts.notAfter ?? new Date(Date.now() + 365 * DAY),
    keys,
    signingAlgorithm: algorithms('ECDSAP256').sign,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    ],
  });
  return { pem: cert.toString('pem'), der: new Uint8Array(cert.rawData), keys, subject };
}

/**
 * Non-CA certificate (basicConstraints CA=false). Signed by `issuer` when
 * given (e.g. from makeCaCertPem), otherwise self-signed.
 */
export async function makeLeafCertPem(opts: {
  notBefore: Date;
  notAfter: Date;
  issuer?: CertFixture;
  cn?: string;
}): Promise<CertFixture> {
  const keys = await makeKeyPair('ECDSAP256', true);
  const subject = `CN=${opts.cn ?? 'test-leaf'}`;
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: nextSerial(),
    subject,
    issuer: opts.issuer?.subject ?? subject,
    notBefore: opts.notBefore,
    notAfter: opts.notAfter,
    publicKey: keys.publicKey,
    signingKey: (opts.issuer?.keys ?? keys).privateKey,
    signingAlgorithm: algorithms('ECDSAP256').sign,
    extensions: [new x509.BasicConstraintsExtension(false, undefined, true)],
  });
  return { pem: cert.toString('pem'), der: new Uint8Array(cert.rawData), keys, subject };
}
