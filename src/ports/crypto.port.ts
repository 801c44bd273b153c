/**
 * Parsing and verifying certificates and certificate requests. Strategies
 * call this port; the adapter under adapters/crypto implements it.
 */

export type PublicKeyType = 'RSA2048' | 'RSA3072' | 'RSA4096' | 'RSA' | 'ECDSAP256' | 'ECDSAP384' | 'ECDSAP521' | 'ED25519' | 'UNKNOWN';

export interface PemBlock {
  type: string;
  headers: Record<string, string>;
  /** DER bytes of the block body. */
  bytes: Uint8Array;
}

export interface ParsedCertificateRequest {
  /** Whether the request's self-signature verifies against its public key. */
  signatureValid: boolean;
  keyType: PublicKeyType;
  /** RSA modulus length in bits when keyType is RSA*. */
  rsaBits?: number;
  subject: string;
  /** Organization (O) values of the subject, in order. */
  organizations: string[];
  /** The subject's common name (the last CN, as Go reads it); '' when there is none. */
  commonName: string;
  /** Subject alternative names requested through the extensionRequest attribute, by type. */
  dnsNames: string[];
  ipAddresses: string[];
  emailAddresses: string[];
  uris: string[];
  /** Whether the request asks for a CA certificate (basicConstraints cA true). */
  requestsCA: boolean;
}

export interface ParsedCertificate {
  notBefore: Date;
  notAfter: Date;
  /** basicConstraints CA flag; false when the extension is absent. */
  isCA: boolean;
  subject: string;
}

export class CryptoParseError extends Error {}

export interface CryptoPort {
  /** Splits PEM text into blocks; throws CryptoParseError on malformed armor. Text outside blocks is ignored. */
  parsePem(text: string): PemBlock[];
  /** Parses a DER PKCS#10 request and verifies its signature; throws CryptoParseError if undecodable. */
  parseCertificateRequest(der: Uint8Array): Promise<ParsedCertificateRequest>;
  /** Parses a DER X.509 certificate; throws CryptoParseError if undecodable. */
  parseCertificate(der: Uint8Array): ParsedCertificate;
  /** SHA-256 of the bytes (of the UTF-8 text), lowercase hex. */
  sha256Hex(data: Uint8Array | string): string;
}
