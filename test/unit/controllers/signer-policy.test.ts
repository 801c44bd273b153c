/** The signers' policy: upstream's usage mapping, lifetimes, key types, node rules, and the PodIdentity encoding. */
import { certificateTtlMs, validityWindow, ValidityError } from '../../../src/controllers/certificates/validity';
import { nodeClientError, nodeServingError, unsupportedKey, x509Usages } from '../../../src/controllers/certificates/signer-rules';
import { decodePodIdentity, encodePodIdentity } from '../../../src/machinery/pod-identity';
import type { ParsedCertificateRequest } from '../../../src/ports/crypto.port';

const minute = 60_000;
const hour = 60 * minute;

describe('lifetimes (upstream signer.duration and PermissiveSigningPolicy)', () => {
  const year = 365 * 24 * hour;
  test('expirationSeconds is honoured up to the maximum and never below ten minutes', () => {
    expect(certificateTtlMs(undefined, year)).toBe(year);
    expect(certificateTtlMs(null, year)).toBe(year);
    expect(certificateTtlMs(3600, year)).toBe(hour);
    expect(certificateTtlMs(10 * 365 * 86400, year)).toBe(year);
    expect(certificateTtlMs(60, year)).toBe(10 * minute);
  });

  const now = new Date('2030-01-01T00:00:00Z');
  const caNotAfter = new Date('2040-01-01T00:00:00Z');
  test('notBefore is backdated five minutes; long certificates lose the backdate at the end, short ones do not', () => {
    expect(validityWindow(now, 2 * hour, caNotAfter)).toEqual({ notBefore: new Date('2029-12-31T23:55:00Z'), notAfter: new Date('2030-01-01T02:00:00Z') });
    expect(validityWindow(now, 8 * hour, caNotAfter)).toEqual({ notBefore: new Date('2029-12-31T23:55:00Z'), notAfter: new Date('2030-01-01T07:55:00Z') });
  });
  test('never past the CA, and never from an expired CA', () => {
    expect(validityWindow(now, 24 * hour, new Date('2030-01-01T06:00:00Z')).notAfter).toEqual(new Date('2030-01-01T06:00:00Z'));
    expect(() => validityWindow(now, hour, new Date('2029-12-31T23:00:00Z'))).toThrow(new ValidityError('the signer has expired: NotAfter=2029-12-31T23:00:00.000Z'));
    expect(() => validityWindow(now, hour, new Date('2029-12-31T23:58:00Z'))).toThrow(new ValidityError('refusing to sign a certificate that expired in the past: NotAfter=2029-12-31T23:58:00.000Z'));
  });
});

describe('usages (upstream keyUsagesFromStrings)', () => {
  test('key usage bits and sorted, deduplicated extended key usages', () => {
    expect(x509Usages(['client auth', 'signing', 'digital signature', 'server auth', 's/mime', 'email protection'])).toEqual({
      keyUsage: ['digitalSignature'],
      extKeyUsage: ['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2', '1.3.6.1.5.5.7.3.4'],
      unknown: [],
    });
    expect(x509Usages(['cert sign', 'crl sign', 'any', 'netscape sgc', 'bogus'])).toEqual({ keyUsage: ['keyCertSign', 'cRLSign'], extKeyUsage: ['2.5.29.37.0', '2.16.840.1.113730.4.1'], unknown: ['bogus'] });
  });
});

describe('key types', () => {
  test('RSA 2048+, ECDSA P-256/P-384 and Ed25519 only', () => {
    for (const keyType of ['RSA2048', 'RSA3072', 'RSA4096', 'ECDSAP256', 'ECDSAP384', 'ED25519'] as const) expect(unsupportedKey({ keyType })).toBeUndefined();
    expect(unsupportedKey({ keyType: 'RSA', rsaBits: 8192 })).toBeUndefined();
    expect(unsupportedKey({ keyType: 'RSA', rsaBits: 1024 })).toBe('an RSA key of 1024 bits is not supported: the key must be RSA (2048 bits or more), ECDSA P-256 or P-384, or Ed25519');
    expect(unsupportedKey({ keyType: 'UNKNOWN' })).toBe('a key of an unknown type is not supported: the key must be RSA (2048 bits or more), ECDSA P-256 or P-384, or Ed25519');
  });
});

describe('node rules (upstream ValidateKubeletClientCSR / ValidateKubeletServingCSR)', () => {
  const req = (over: Partial<ParsedCertificateRequest>): ParsedCertificateRequest => ({
    signatureValid: true,
    keyType: 'ECDSAP256',
    subject: '',
    organizations: ['system:nodes'],
    commonName: 'system:node:n1',
    dnsNames: [],
    ipAddresses: [],
    emailAddresses: [],
    uris: [],
    requestsCA: false,
    ...over,
  });
  test('client: exactly system:nodes, no SANs, the node prefix, one of the two usage sets', () => {
    expect(nodeClientError(req({}), ['digital signature', 'key encipherment', 'client auth'])).toBeUndefined();
    expect(nodeClientError(req({}), ['client auth', 'digital signature'])).toBeUndefined();
    expect(nodeClientError(req({ organizations: ['system:nodes', 'x'] }), [])).toBe('subject organization is not system:nodes');
    expect(nodeClientError(req({ ipAddresses: ['10.0.0.1'] }), [])).toBe('IP subjectAltNames are not allowed');
    expect(nodeClientError(req({ commonName: 'n1' }), [])).toBe('subject common name does not begin with system:node:');
    expect(nodeClientError(req({}), ['client auth'])).toBe('usages did not match [client auth digital signature key encipherment]');
  });
  test('serving: a DNS or IP name is required', () => {
    expect(nodeServingError(req({ ipAddresses: ['10.0.0.1'] }), ['digital signature', 'server auth'])).toBeUndefined();
    expect(nodeServingError(req({}), ['digital signature', 'server auth'])).toBe('DNS or IP subjectAltName is required');
  });
});

describe('PodIdentity extension value', () => {
  test('a SEQUENCE of eight implicitly tagged UTF8Strings, read back the same', () => {
    const id = { namespace: 'default', namespaceUID: 'nu', serviceAccountName: 'sa', serviceAccountUID: 'su', podName: 'p', podUID: 'pu', nodeName: 'n', nodeUID: 'x'.repeat(200) };
    const der = encodePodIdentity(id);
    expect(Buffer.from(der.subarray(0, 4)).toString('hex')).toBe('3081ea80');
    expect(der[4]).toBe(7);
    expect(decodePodIdentity(der)).toEqual(id);
    expect(decodePodIdentity(der.subarray(0, der.length - 1))).toBeUndefined();
  });
});
