import { createHash, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import {
  CryptoParseError,
  type CryptoPort,
  type ParsedCertificate,
  type ParsedCertificateRequest,
  type PemBlock,
} from '../../ports/crypto.port';
import { parsePem } from './pem';
import { classifyPublicKey } from './public-key-type';

let providerSet = false;

/** Points @peculiar/x509 at Node's WebCrypto; idempotent so tests and main may both call it. */
export function ensureX509CryptoProvider(): void {
  if (providerSet) return;
  // x509 types the provider as the DOM `Crypto`, which this project's lib settings don't declare.
  x509.cryptoProvider.set(webcrypto as unknown as ReturnType<typeof x509.cryptoProvider.get>);
  providerSet = true;
}
ensureX509CryptoProvider();

/**
 * Go's asn1.Unmarshal rejects trailing bytes after the outer SEQUENCE; the
 * asn1 parser under @peculiar/x509 does not, so check the outer TLV length here.
 * Also returns an exact-size copy, since a Buffer may view a larger pool.
 */
function singleDerSequence(der: Uint8Array, what: string): ArrayBuffer {
  const fail = (why: string) => new CryptoParseError(`${what}: ${why}`);
  if (der.length < 2 || der[0] !== 0x30) throw fail('not a DER SEQUENCE');
  let length = der[1];
  let header = 2;
  if (length & 0x80) {
    const n = length & 0x7f;
    if (n === 0 || n > 4 || der.length < 2 + n) throw fail('bad DER length');
    length = 0;
    for (let i = 0; i < n; i++) length = length * 256 + der[2 + i];
    header += n;
  }
  if (header + length < der.length) throw fail('trailing data');
  if (header + length > der.length) throw fail('truncated');
  return new Uint8Array(der).buffer;
}

function decode<T>(what: string, make: () => T): T {
  try {
    return make();
  } catch (err) {
    throw new CryptoParseError(`${what}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

export class WebCryptoAdapter implements CryptoPort {
  parsePem(text: string): PemBlock[] {
    return parsePem(text);
  }

  async parseCertificateRequest(der: Uint8Array): Promise<ParsedCertificateRequest> {
    const raw = singleDerSequence(der, 'certificate request');
    const csr = decode('certificate request', () => {
      const parsed = new x509.Pkcs10CertificateRequest(raw);
      // Touch the lazily decoded parts so a malformed request fails here, not later.
      void parsed.subject;
      void parsed.publicKey.rawData;
      return parsed;
    });
    const { keyType, rsaBits } = classifyPublicKey(new Uint8Array(csr.publicKey.rawData));
    const names = decode('certificate request', () => requestedNames(csr));
    return {
      signatureValid: await verifySelfSignature(csr),
      keyType,
      ...(rsaBits !== undefined ? { rsaBits } : {}),
      subject: csr.subject,
      organizations: csr.subjectName.getField('O'),
      commonName: csr.subjectName.getField('CN').at(-1) ?? '',
      ...names,
    };
  }

  sha256Hex(data: Uint8Array | string): string {
    return createHash('sha256').update(data).digest('hex');
  }

  parseCertificate(der: Uint8Array): ParsedCertificate {
    const raw = singleDerSequence(der, 'certificate');
    return decode('certificate', () => {
      const cert = new x509.X509Certificate(raw);
      const basic = cert.getExtension(x509.BasicConstraintsExtension);
      return { notBefore: cert.notBefore, notAfter: cert.notAfter, isCA: basic?.ca ?? false, subject: cert.subject };
    });
  }
}

/** SANs and the CA request from the extensionRequest attribute; other SAN types are dropped, as Go's parser does. */
function requestedNames(csr: x509.Pkcs10CertificateRequest) {
  const names = { dnsNames: [] as string[], ipAddresses: [] as string[], emailAddresses: [] as string[], uris: [] as string[], requestsCA: false };
  const san = csr.extensions.find((e): e is x509.SubjectAlternativeNameExtension => e instanceof x509.SubjectAlternativeNameExtension);
  for (const n of san?.names.items ?? []) {
    if (n.type === 'dns') names.dnsNames.push(n.value);
    else if (n.type === 'ip') names.ipAddresses.push(n.value);
    else if (n.type === 'email') names.emailAddresses.push(n.value);
    else if (n.type === 'url') names.uris.push(n.value);
  }
  names.requestsCA = csr.extensions.find((e): e is x509.BasicConstraintsExtension => e instanceof x509.BasicConstraintsExtension)?.ca ?? false;
  return names;
}

/** Unsupported or malformed signature algorithms/values count as an invalid signature, never an exception. */
async function verifySelfSignature(csr: x509.Pkcs10CertificateRequest): Promise<boolean> {
  try {
    return await csr.verify();
  } catch {
    return false;
  }
}
