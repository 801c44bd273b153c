/** Key pairs and certificates for the generated PKI, with @peculiar/x509 over Node's WebCrypto. */
import { randomBytes, webcrypto, X509Certificate as NodeX509 } from 'node:crypto';
import * as x509 from '@peculiar/x509';

// x509 types the provider as the DOM `Crypto`; Node's WebCrypto is the same API.
x509.cryptoProvider.set(webcrypto as unknown as ReturnType<typeof x509.cryptoProvider.get>);

const ecdsa = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };

export interface KeyAndCert {
  keyPem: string;
  certPem: string;
}

function pem(label: string, der: ArrayBuffer): string {
  const b64 = Buffer.from(der).toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}

export async function newKeyPair(): Promise<webcrypto.CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
}

export async function privateKeyPem(key: webcrypto.CryptoKey): Promise<string> {
  return pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', key));
}

export async function publicKeyPem(key: webcrypto.CryptoKey): Promise<string> {
  return pem('PUBLIC KEY', await webcrypto.subtle.exportKey('spki', key));
}

async function importPrivateKey(keyPem: string): Promise<webcrypto.CryptoKey> {
  const der = Buffer.from(keyPem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, ''), 'base64');
  return webcrypto.subtle.importKey('pkcs8', der, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign']);
}

function serial(): string {
  const b = randomBytes(16);
  b[0] &= 0x7f; // positive
  return b.toString('hex');
}

function validity(days: number, now: Date) {
  // Backdated a little so that clocks slightly behind ours accept it.
  return { notBefore: new Date(now.getTime() - 5 * 60_000), notAfter: new Date(now.getTime() + days * 86_400_000) };
}

export async function selfSignedCa(commonName: string, now: Date): Promise<KeyAndCert> {
  const keys = await newKeyPair();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${commonName}`,
    ...validity(3650, now),
    keys,
    signingAlgorithm: ecdsa,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { keyPem: await privateKeyPem(keys.privateKey), certPem: cert.toString('pem') + '\n' };
}

export interface LeafRequest {
  commonName: string;
  organizations?: string[];
  dnsNames?: string[];
  ipAddresses?: string[];
  /** 'peer': both server and client authentication (an etcd member's certificate, for clients and peers). */
  usage: 'server' | 'client' | 'peer';
  days: number;
}

/** Escapes a value for an RFC 4514 name string. */
function rdn(value: string): string {
  return value.replace(/([,+"\\<>;=])/g, '\\$1').replace(/^([ #])/, '\\$1');
}

export async function issueLeaf(ca: KeyAndCert, req: LeafRequest, now: Date): Promise<KeyAndCert> {
  const keys = await newKeyPair();
  const caCert = new x509.X509Certificate(ca.certPem);
  const caKey = await importPrivateKey(ca.keyPem);
  const name = [`CN=${rdn(req.commonName)}`, ...(req.organizations ?? []).map((o) => `O=${rdn(o)}`)].join(', ');
  const sans: x509.JsonGeneralName[] = [
    ...(req.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(req.ipAddresses ?? []).map((value) => ({ type: 'ip' as const, value })),
  ];
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: name,
    issuer: caCert.subject,
    ...validity(req.days, now),
    publicKey: keys.publicKey,
    signingKey: caKey,
    signingAlgorithm: ecdsa,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      new x509.ExtendedKeyUsageExtension(
        req.usage === 'peer' ? [x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth] : [req.usage === 'server' ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth],
      ),
      await x509.AuthorityKeyIdentifierExtension.create(caCert),
      ...(sans.length ? [new x509.SubjectAlternativeNameExtension(sans)] : []),
    ],
  });
  return { keyPem: await privateKeyPem(keys.privateKey), certPem: cert.toString('pem') + '\n' };
}

/** Whether a PEM certificate is still valid `marginDays` from now. */
export function validFor(certPem: string, now: Date, marginDays: number): boolean {
  try {
    const c = new NodeX509(certPem);
    return new Date(c.validTo).getTime() > now.getTime() + marginDays * 86_400_000;
  } catch {
    return false;
  }
}

/** SHA-256 fingerprint of the first certificate in a PEM bundle. */
export function fingerprint(certPem: string): string {
  return new NodeX509(certPem).fingerprint256;
}
