/**
 * Verifying pod certificates (KEP-4317) presented as TLS client
 * certificates. OpenSSL refuses them for their critical PodIdentity
 * extension, which it does not know; this check does what it would have
 * done otherwise, knowing that extension: signed directly by a CA of the
 * client CA bundle, within its validity, usable for client authentication,
 * no other unknown critical extension, and, as the design asks, no
 * subjectAltName.
 */
import { createHash, X509Certificate as NodeX509 } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { decodePodIdentity, podIdentityOid, type PodIdentity } from '../../machinery/pod-identity';
import { ensureX509CryptoProvider } from './webcrypto.adapter';

ensureX509CryptoProvider();

export type PodCertificateCheck = { identity: PodIdentity; sha256: string } | { error: string };

// keyUsage, subjectAltName, basicConstraints, nameConstraints, policy constraints, extKeyUsage, inhibitAnyPolicy.
const understood = new Set(['2.5.29.15', '2.5.29.17', '2.5.29.19', '2.5.29.30', '2.5.29.36', '2.5.29.37', '2.5.29.54', podIdentityOid]);
const clientAuth = '1.3.6.1.5.5.7.3.2';
const anyUsage = '2.5.29.37.0';

/** A checker for certificates against the client CA bundle; undefined for certificates without a PodIdentity. */
export function podCertificateVerifier(clientCaPem: string): (der: Uint8Array, now: Date) => PodCertificateCheck | undefined {
  const cas = (clientCaPem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []).map((pem) => new NodeX509(pem));
  return (der, now) => {
    let cert: x509.X509Certificate;
    try {
      cert = new x509.X509Certificate(new Uint8Array(der).buffer);
    } catch {
      return undefined;
    }
    const ext = cert.extensions.find((e) => e.type === podIdentityOid);
    if (!ext) return undefined;
    const identity = decodePodIdentity(new Uint8Array(ext.value));
    if (!identity) return { error: 'x509: malformed PodIdentity extension' };
    const unknown = cert.extensions.find((e) => e.critical && !understood.has(e.type));
    if (unknown) return { error: `x509: unhandled critical extension ${unknown.type}` };
    if (cert.extensions.some((e) => e.type === '2.5.29.17')) return { error: 'x509: a pod certificate may not carry subjectAltNames' };
    const eku = cert.getExtension(x509.ExtendedKeyUsageExtension);
    if (eku && !eku.usages.some((u) => u === clientAuth || u === anyUsage)) return { error: 'x509: certificate specifies an incompatible key usage' };
    if (now < cert.notBefore || now > cert.notAfter) return { error: 'x509: certificate has expired or is not yet valid' };
    const leaf = new NodeX509(Buffer.from(der));
    if (!cas.some((ca) => leaf.checkIssued(ca) && leaf.verify(ca.publicKey))) return { error: 'x509: certificate signed by unknown authority' };
    return { identity, sha256: createHash('sha256').update(der).digest('hex') };
  };
}
