import { CryptoParseError, type PublicKeyType } from '../../../src/ports/crypto.port';
import { WebCryptoAdapter } from '../../../src/adapters/crypto';
import { makeCaCertPem, makeCsrPem, makeLeafCertPem, type FixtureKeyType } from '../../support/crypto-fixtures';
import { opensslRequest } from '../../support/certificate-check';

const crypto = new WebCryptoAdapter();
const DAY = 24 * 60 * 60 * 1000;

/** Flips a byte near the end of the DER, which is inside the signature BIT STRING. */
function tamperSignature(der: Uint8Array): Uint8Array {
  const copy = new Uint8Array(der);
  copy[copy.length - 5] ^= 0x01;
  return copy;
}

/** Replaces the first or last occurrence of a DER-encoded OID (same length) in a copy. */
function replaceOid(der: Uint8Array, from: number[], to: number[], which: 'first' | 'last'): Uint8Array {
  const hex = Buffer.from(der).toString('hex');
  const needle = Buffer.from(from).toString('hex');
  const i = which === 'first' ? hex.indexOf(needle) : hex.lastIndexOf(needle);
  expect(i).toBeGreaterThanOrEqual(0);
  return new Uint8Array(Buffer.from(hex.slice(0, i) + Buffer.from(to).toString('hex') + hex.slice(i + needle.length), 'hex'));
}

// id-Ed25519 (1.3.101.112) and an unassigned sibling (1.3.101.127).
const OID_ED25519 = [0x06, 0x03, 0x2b, 0x65, 0x70];
const OID_UNKNOWN = [0x06, 0x03, 0x2b, 0x65, 0x7f];

describe('parseCertificateRequest', () => {
  const cases: Array<[FixtureKeyType, PublicKeyType, number | undefined]> = [
    ['RSA2048', 'RSA2048', 2048],
    ['RSA3072', 'RSA3072', 3072],
    ['ECDSAP256', 'ECDSAP256', undefined],
    ['ECDSAP384', 'ECDSAP384', undefined],
    ['ECDSAP521', 'ECDSAP521', undefined],
    ['ED25519', 'ED25519', undefined],
  ];

  it.each(cases)('%s: classifies key and verifies signature', async (keyType, expected, rsaBits) => {
    const { pem, der } = await makeCsrPem({ keyType, cn: `node-${keyType}` });
    const [block] = crypto.parsePem(pem);
    expect(block.type).toBe('CERTIFICATE REQUEST');
    expect(block.bytes).toEqual(der);

    const parsed = await crypto.parseCertificateRequest(block.bytes);
    expect(parsed).toEqual({
      signatureValid: true,
      keyType: expected,
      subject: `CN=node-${keyType}`,
      organizations: [],
      commonName: `node-${keyType}`,
      dnsNames: [],
      ipAddresses: [],
      emailAddresses: [],
      uris: [],
      requestsCA: false,
      ...(rsaBits ? { rsaBits } : {}),
    });
  });

  it('reads the subject and the requested names, as Go does', async () => {
    const { request } = opensslRequest({ keyType: 'p256', subject: '/CN=first/O=b/O=a/CN=last', sans: 'DNS:x.example,IP:10.0.0.1,email:m@example.com,URI:spiffe://td/w,otherName:1.2.3.4;UTF8:z', basicConstraintsCA: true, der: true });
    const parsed = await crypto.parseCertificateRequest(new Uint8Array(request));
    expect(parsed).toMatchObject({
      organizations: ['b', 'a'],
      commonName: 'last',
      dnsNames: ['x.example'],
      ipAddresses: ['10.0.0.1'],
      emailAddresses: ['m@example.com'],
      uris: ['spiffe://td/w'],
      requestsCA: true,
    });
  });

  it.each(cases)('%s: tampered signature is not valid', async (keyType) => {
    const { der } = await makeCsrPem({ keyType });
    const tampered = tamperSignature(der);
    // A flipped byte may break the ECDSA signature's inner DER; either outcome is acceptable.
    const outcome = await crypto.parseCertificateRequest(tampered).then(
      (r) => r.signatureValid,
      (err: unknown) => (err instanceof CryptoParseError ? 'parse-error' : err),
    );
    expect([false, 'parse-error']).toContain(outcome);
  });

  // As Go: an unknown key algorithm still parses (PublicKey nil), the signature just cannot verify.
  it('unknown public key algorithm → UNKNOWN, signature not valid', async () => {
    const { der } = await makeCsrPem({ keyType: 'ED25519' });
    const parsed = await crypto.parseCertificateRequest(replaceOid(der, OID_ED25519, OID_UNKNOWN, 'first'));
    expect(parsed).toMatchObject({ keyType: 'UNKNOWN', signatureValid: false });
  });

  it('unsupported signature algorithm → signatureValid false, no throw', async () => {
    const { der } = await makeCsrPem({ keyType: 'ED25519' });
    const parsed = await crypto.parseCertificateRequest(replaceOid(der, OID_ED25519, OID_UNKNOWN, 'last'));
    expect(parsed).toMatchObject({ keyType: 'ED25519', signatureValid: false });
  });

  it('accepts a Buffer view into a larger pool', async () => {
    const { der } = await makeCsrPem({ keyType: 'ECDSAP256' });
    const pooled = Buffer.concat([Buffer.from([9, 9, 9]), Buffer.from(der)]).subarray(3);
    expect((await crypto.parseCertificateRequest(pooled)).signatureValid).toBe(true);
  });

  it.each([
    ['empty', new Uint8Array()],
    ['garbage', new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])],
    ['SEQUENCE of nonsense', new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x00])],
  ])('%s → CryptoParseError', async (_name, bytes) => {
    await expect(crypto.parseCertificateRequest(bytes)).rejects.toBeInstanceOf(CryptoParseError);
  });

  it('rejects truncated and trailing data like Go', async () => {
    const { der } = await makeCsrPem({ keyType: 'ECDSAP256' });
    await expect(crypto.parseCertificateRequest(der.subarray(0, der.length - 1))).rejects.toBeInstanceOf(CryptoParseError);
    await expect(crypto.parseCertificateRequest(new Uint8Array([...der, 0]))).rejects.toBeInstanceOf(CryptoParseError);
  });

  it('a certificate is not a certificate request', async () => {
    const ca = await makeCaCertPem();
    await expect(crypto.parseCertificateRequest(ca.der)).rejects.toBeInstanceOf(CryptoParseError);
  });
});

describe('parseCertificate', () => {
  it('self-signed CA: isCA true, validity and subject', async () => {
    const notBefore = new Date(Math.floor(Date.now() / 1000) * 1000 - DAY);
    const notAfter = new Date(notBefore.getTime() + 10 * DAY);
    const ca = await makeCaCertPem({ cn: 'my-ca', notBefore, notAfter });
    const [block] = crypto.parsePem(ca.pem);
    expect(block.type).toBe('CERTIFICATE');
    expect(crypto.parseCertificate(block.bytes)).toEqual({ notBefore, notAfter, isCA: true, subject: 'CN=my-ca' });
  });

  it('leaf signed by a CA: isCA false', async () => {
    const ca = await makeCaCertPem();
    const notBefore = new Date('2024-01-01T00:00:00Z');
    const notAfter = new Date('2024-01-02T00:00:00Z');
    const leaf = await makeLeafCertPem({ notBefore, notAfter, issuer: ca, cn: 'leaf' });
    expect(crypto.parseCertificate(leaf.der)).toEqual({ notBefore, notAfter, isCA: false, subject: 'CN=leaf' });
  });

  it('self-signed leaf by default', async () => {
    const leaf = await makeLeafCertPem({ notBefore: new Date(), notAfter: new Date(Date.now() + DAY) });
    expect(crypto.parseCertificate(leaf.der).isCA).toBe(false);
  });

  it.each([
    ['garbage', new Uint8Array([0xde, 0xad, 0xbe, 0xef])],
    ['empty SEQUENCE', new Uint8Array([0x30, 0x00])],
  ])('%s → CryptoParseError', (_name, bytes) => {
    expect(() => crypto.parseCertificate(bytes)).toThrow(CryptoParseError);
  });

  it('a certificate request is not a certificate', async () => {
    const { der } = await makeCsrPem({ keyType: 'ED25519' });
    expect(() => crypto.parseCertificate(der)).toThrow(CryptoParseError);
  });
});
