/**
 * Issuing X.509 certificates with a signing CA, as the certificate
 * controllers need it. The adapter holds the CA's private key and builds and
 * signs the certificate; what goes into it (validity, usages, names) is the
 * controllers' policy.
 */

/** X.509 keyUsage bits, by their RFC 5280 names. */
export type KeyUsageBit =
  | 'digitalSignature'
  | 'contentCommitment'
  | 'keyEncipherment'
  | 'dataEncipherment'
  | 'keyAgreement'
  | 'keyCertSign'
  | 'cRLSign'
  | 'encipherOnly'
  | 'decipherOnly';

export interface CertificateExtension {
  oid: string;
  critical: boolean;
  /** DER of the extension's value (the content of extnValue). */
  value: Uint8Array;
}

export interface CertificateTemplate {
  /** A DER PKCS#10 request whose public key is certified; the caller has checked its signature. */
  request: Uint8Array;
  /** Copy the request's subject (true), or leave the subject empty. */
  copySubject: boolean;
  dnsNames: string[];
  ipAddresses: string[];
  emailAddresses: string[];
  uris: string[];
  keyUsage: KeyUsageBit[];
  /** extendedKeyUsage OIDs, in order. */
  extKeyUsage: string[];
  notBefore: Date;
  notAfter: Date;
  /** Further extensions, after the standard ones. */
  extensions?: CertificateExtension[];
}

/** One CA as it was read: its certificate, and issuing with its key. Never a CA certificate (basicConstraints cA false). */
export interface SigningAuthority {
  /** The CA certificate, PEM. */
  certificatePem: string;
  notBefore: Date;
  notAfter: Date;
  /** Builds and signs a leaf certificate; resolves to its PEM. */
  issue(template: CertificateTemplate): Promise<string>;
}

export class CertificateAuthorityError extends Error {}

export interface CertificateAuthorityPort {
  /**
   * The CA as it is now. Files replaced on disk (CA rotation) are read again;
   * throws CertificateAuthorityError when they cannot be read or do not match.
   */
  current(): Promise<SigningAuthority>;
}
