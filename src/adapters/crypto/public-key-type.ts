import { createPublicKey } from 'node:crypto';
import type { PublicKeyType } from '../../ports/crypto.port';

// Node reports OpenSSL curve names; the API speaks NIST names.
const EC_CURVES: Record<string, PublicKeyType> = {
  prime256v1: 'ECDSAP256',
  secp384r1: 'ECDSAP384',
  secp521r1: 'ECDSAP521',
};

const RSA_SIZES: Record<number, PublicKeyType> = { 2048: 'RSA2048', 3072: 'RSA3072', 4096: 'RSA4096' };

/**
 * Classifies a DER SubjectPublicKeyInfo the way Kubernetes' validation switches
 * on Go key types. Keys Go's x509 would not decode (RSASSA-PSS OID, DSA, X25519,
 * unknown OIDs) are UNKNOWN rather than errors, as Go leaves PublicKey nil.
 */
export function classifyPublicKey(spki: Uint8Array): { keyType: PublicKeyType; rsaBits?: number } {
  let key;
  try {
    key = createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' });
  } catch {
    return { keyType: 'UNKNOWN' };
  }
  const details = key.asymmetricKeyDetails ?? {};
  switch (key.asymmetricKeyType) {
    case 'rsa': {
      const bits = details.modulusLength ?? 0;
      return { keyType: RSA_SIZES[bits] ?? 'RSA', rsaBits: bits };
    }
    case 'ec':
      return { keyType: EC_CURVES[details.namedCurve ?? ''] ?? 'UNKNOWN' };
    case 'ed25519':
      return { keyType: 'ED25519' };
    default:
      return { keyType: 'UNKNOWN' };
  }
}
