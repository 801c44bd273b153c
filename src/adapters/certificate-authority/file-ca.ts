/**
 * A signing CA read from a certificate file and a key file (PEM; PKCS#8,
 * PKCS#1 or SEC 1 keys; RSA, ECDSA or Ed25519), with @peculiar/x509 over
 * Node's WebCrypto. The files are checked on every use and read again when
 * they changed, as upstream's dynamic CA loader does, so replacing them
 * rotates the CA without a restart.
 */
import { createPrivateKey, createPublicKey, randomBytes, webcrypto, type KeyObject } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import * as x509 from '@peculiar/x509';
import {
  CertificateAuthorityError,
  type CertificateAuthorityPort,
  type CertificateTemplate,
  type KeyUsageBit,
  type SigningAuthority,
} from '../../ports/certificate-authority.port';

// x509 types the provider as the DOM `Crypto`; Node's WebCrypto is the same API.
x509.cryptoProvider.set(webcrypto as unknown as ReturnType<typeof x509.cryptoProvider.get>);

const keyUsageBits: Record<KeyUsageBit, x509.KeyUsageFlags> = {
  digitalSignature: x509.KeyUsageFlags.digitalSignature,
  contentCommitment: x509.KeyUsageFlags.nonRepudiation,
  keyEncipherment: x509.KeyUsageFlags.keyEncipherment,
  dataEncipherment: x509.KeyUsageFlags.dataEncipherment,
  keyAgreement: x509.KeyUsageFlags.keyAgreement,
  keyCertSign: x509.KeyUsageFlags.keyCertSign,
  cRLSign: x509.KeyUsageFlags.cRLSign,
  encipherOnly: x509.KeyUsageFlags.encipherOnly,
  decipherOnly: x509.KeyUsageFlags.decipherOnly,
};

interface Algorithms {
  import: webcrypto.AlgorithmIdentifier | webcrypto.RsaHashedImportParams | webcrypto.EcKeyImportParams;
  sign: webcrypto.Algorithm | webcrypto.EcdsaParams | webcrypto.RsaHashedImportParams;
}

/** Go's signingParamsForKey: SHA-256 for RSA, the curve's hash for ECDSA, pure Ed25519. */
function algorithmsFor(key: KeyObject): Algorithms {
  switch (key.asymmetricKeyType) {
    case 'rsa':
      return { import: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, sign: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } };
    case 'ec': {
      const curve = { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521' }[key.asymmetricKeyDetails?.namedCurve ?? ''];
      if (!curve) throw new CertificateAuthorityError(`unsupported CA key curve ${key.asymmetricKeyDetails?.namedCurve}`);
      const hash = curve === 'P-256' ? 'SHA-256' : curve === 'P-384' ? 'SHA-384' : 'SHA-512';
      return { import: { name: 'ECDSA', namedCurve: curve }, sign: { name: 'ECDSA', hash } };
    }
    case 'ed25519':
      return { import: { name: 'Ed25519' }, sign: { name: 'Ed25519' } };
    default:
      throw new CertificateAuthorityError(`unsupported CA key type ${key.asymmetricKeyType}`);
  }
}

/** A positive 128-bit serial number, as upstream's signer draws it. */
function serialNumber(): string {
  const b = randomBytes(16);
  b[0] &= 0x7f;
  if (b[0] === 0) b[0] = 1;
  return b.toString('hex');
}

/** Builds the issuing side of one CA from PEM text. */
export async function signingAuthority(certPem: string, keyPem: string, where = 'the CA'): Promise<SigningAuthority> {
  const firstCert = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(certPem)?.[0];
  if (!firstCert) throw new CertificateAuthorityError(`${where}: no CERTIFICATE block in the certificate file`);
  let ca: x509.X509Certificate;
  let key: KeyObject;
  try {
    ca = new x509.X509Certificate(firstCert);
    key = createPrivateKey(keyPem);
  } catch (e) {
    throw new CertificateAuthorityError(`${where}: ${(e as Error).message}`);
  }
  const certKey = createPublicKey(firstCert).export({ type: 'spki', format: 'der' });
  if (!certKey.equals(createPublicKey(key).export({ type: 'spki', format: 'der' }))) {
    throw new CertificateAuthorityError(`${where}: the private key does not match the certificate`);
  }
  const alg = algorithmsFor(key);
  const signingKey = await webcrypto.subtle.importKey('pkcs8', key.export({ type: 'pkcs8', format: 'der' }), alg.import, false, ['sign']);
  const ski = ca.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId;
  const pem = ca.toString('pem') + '\n';
  return {
    certificatePem: pem,
    notBefore: ca.notBefore,
    notAfter: ca.notAfter,
    async issue(t: CertificateTemplate): Promise<string> {
      const request = new x509.Pkcs10CertificateRequest(new Uint8Array(t.request).buffer);
      const sans: x509.JsonGeneralName[] = [
        ...t.dnsNames.map((value) => ({ type: 'dns' as const, value })),
        ...t.emailAddresses.map((value) => ({ type: 'email' as const, value })),
        ...t.ipAddresses.map((value) => ({ type: 'ip' as const, value })),
        ...t.uris.map((value) => ({ type: 'url' as const, value })),
      ];
      const usage = t.keyUsage.reduce((bits, u) => bits | keyUsageBits[u], 0);
      // Go's order and criticality: keyUsage (critical), extKeyUsage, basicConstraints (critical), AKI, SAN.
      const extensions: x509.Extension[] = [];
      if (usage) extensions.push(new x509.KeyUsagesExtension(usage, true));
      if (t.extKeyUsage.length) extensions.push(new x509.ExtendedKeyUsageExtension(t.extKeyUsage, false));
      extensions.push(new x509.BasicConstraintsExtension(false, undefined, true));
      if (ski) extensions.push(new x509.AuthorityKeyIdentifierExtension(ski, false));
      const subject = t.copySubject ? request.subjectName : new x509.Name([]);
      // An empty subject makes the SAN extension critical (RFC 5280 4.2.1.6).
      if (sans.length) extensions.push(new x509.SubjectAlternativeNameExtension(sans, !t.copySubject || subject.toJSON().length === 0));
      for (const e of t.extensions ?? []) extensions.push(new x509.Extension(e.oid, e.critical, new Uint8Array(e.value)));
      const cert = await x509.X509CertificateGenerator.create({
        serialNumber: serialNumber(),
        subject,
        issuer: ca.subjectName,
        notBefore: t.notBefore,
        notAfter: t.notAfter,
        publicKey: request.publicKey,
        signingKey,
        signingAlgorithm: alg.sign,
        extensions,
      });
      return cert.toString('pem') + '\n';
    },
  };
}

/** The CA in `certFile` and `keyFile`, read again whenever either file changes. */
export class FileCertificateAuthority implements CertificateAuthorityPort {
  private loaded?: { stamp: string; authority: SigningAuthority };

  constructor(
    readonly certFile: string,
    readonly keyFile: string,
  ) {}

  async current(): Promise<SigningAuthority> {
    let stamp: string;
    try {
      const [c, k] = await Promise.all([stat(this.certFile), stat(this.keyFile)]);
      stamp = `${c.mtimeMs}:${c.size}:${c.ino}/${k.mtimeMs}:${k.size}:${k.ino}`;
    } catch (e) {
      throw new CertificateAuthorityError(`cannot read the signing CA: ${(e as Error).message}`);
    }
    if (this.loaded?.stamp === stamp) return this.loaded.authority;
    let certPem: string;
    let keyPem: string;
    try {
      [certPem, keyPem] = await Promise.all([readFile(this.certFile, 'utf8'), readFile(this.keyFile, 'utf8')]);
    } catch (e) {
      throw new CertificateAuthorityError(`cannot read the signing CA: ${(e as Error).message}`);
    }
    const authority = await signingAuthority(certPem, keyPem, `${this.certFile} and ${this.keyFile}`);
    this.loaded = { stamp, authority };
    return authority;
  }
}
