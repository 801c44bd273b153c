/**
 * The built-in signers and what each accepts, as upstream's signing
 * controller checks it (pkg/controller/certificates/signer and
 * pkg/apis/certificates/helpers.go), with upstream's messages; and the
 * mapping of API usages to X.509 key usages (authority/policies.go).
 */
import type { ParsedCertificateRequest, PublicKeyType } from '../../ports/crypto.port';
import type { KeyUsageBit } from '../../ports/certificate-authority.port';

export const signers = {
  apiserverClient: 'svc.io/apiserver-client',
  apiserverClientNode: 'svc.io/apiserver-client-node',
  nodeServing: 'svc.io/node-serving',
  apiserverClientPod: 'svc.io/apiserver-client-pod',
} as const;

/** The CSR signers of the signing controller. */
export const csrSigners = [signers.apiserverClient, signers.apiserverClientNode, signers.nodeServing] as const;

/** Key types the built-in signers certify. */
const supportedKeys: Record<PublicKeyType, boolean> = {
  RSA2048: true,
  RSA3072: true,
  RSA4096: true,
  RSA: false,
  ECDSAP256: true,
  ECDSAP384: true,
  ECDSAP521: false,
  ED25519: true,
  UNKNOWN: false,
};

export const supportedKeyTypesText = 'RSA (2048 bits or more), ECDSA P-256 or P-384, or Ed25519';

/** Why a key cannot be certified, or undefined. */
export function unsupportedKey(req: Pick<ParsedCertificateRequest, 'keyType' | 'rsaBits'>): string | undefined {
  if (supportedKeys[req.keyType] || (req.keyType === 'RSA' && (req.rsaBits ?? 0) >= 2048)) return undefined;
  const what = req.keyType === 'RSA' ? `an RSA key of ${req.rsaBits ?? 0} bits` : req.keyType === 'UNKNOWN' ? 'a key of an unknown type' : `an ${keyTypeName(req.keyType)} key`;
  return `${what} is not supported: the key must be ${supportedKeyTypesText}`;
}

function keyTypeName(t: PublicKeyType): string {
  if (t === 'ECDSAP521') return 'ECDSA P-521';
  if (t === 'ED25519') return 'Ed25519';
  return t;
}

const sortedList = (xs: string[]) => `[${[...xs].sort().join(' ')}]`;
const sameSet = (a: Set<string>, b: string[]) => a.size === b.length && b.every((x) => a.has(x));

const nodeClientUsages = ['digital signature', 'key encipherment', 'client auth'];
const nodeClientUsagesNoRSA = ['digital signature', 'client auth'];
const nodeServingUsages = ['digital signature', 'key encipherment', 'server auth'];
const nodeServingUsagesNoRSA = ['digital signature', 'server auth'];

const sameOrganizations = (o: string[]) => o.length === 1 && o[0] === 'system:nodes';

/** upstream's ValidateKubeletClientCSR. */
export function nodeClientError(req: ParsedCertificateRequest, usages: string[]): string | undefined {
  const set = new Set(usages);
  if (!sameOrganizations(req.organizations)) return 'subject organization is not system:nodes';
  if (req.dnsNames.length) return 'DNS subjectAltNames are not allowed';
  if (req.emailAddresses.length) return 'Email subjectAltNames are not allowed';
  if (req.ipAddresses.length) return 'IP subjectAltNames are not allowed';
  if (req.uris.length) return 'URI subjectAltNames are not allowed';
  if (!req.commonName.startsWith('system:node:')) return 'subject common name does not begin with system:node:';
  if (!sameSet(set, nodeClientUsages) && !sameSet(set, nodeClientUsagesNoRSA)) return `usages did not match ${sortedList(nodeClientUsages)}`;
  return undefined;
}

/** upstream's ValidateKubeletServingCSR. */
export function nodeServingError(req: ParsedCertificateRequest, usages: string[]): string | undefined {
  const set = new Set(usages);
  if (!sameOrganizations(req.organizations)) return 'subject organization is not system:nodes';
  if (!req.dnsNames.length && !req.ipAddresses.length) return 'DNS or IP subjectAltName is required';
  if (req.emailAddresses.length) return 'Email subjectAltNames are not allowed';
  if (req.uris.length) return 'URI subjectAltNames are not allowed';
  if (!sameSet(set, nodeServingUsages) && !sameSet(set, nodeServingUsagesNoRSA)) return `usages did not match ${sortedList(nodeServingUsages)}`;
  if (!req.commonName.startsWith('system:node:')) return 'subject common name does not begin with system:node:';
  return undefined;
}

/** upstream's validAPIServerClientUsages. */
export function apiserverClientError(_req: ParsedCertificateRequest, usages: string[]): string | undefined {
  let clientAuth = false;
  for (const u of usages) {
    if (u === 'client auth') clientAuth = true;
    else if (u !== 'digital signature' && u !== 'key encipherment') return `invalid usage for client certificate: ${u}`;
  }
  return clientAuth ? undefined : 'missing required usage for client certificate: client auth';
}

/** The signer's rule check for a CSR signer name; undefined for names that are not ours. */
export function ruleFor(signerName: string): ((req: ParsedCertificateRequest, usages: string[]) => string | undefined) | undefined {
  switch (signerName) {
    case signers.apiserverClient:
      return apiserverClientError;
    case signers.apiserverClientNode:
      return nodeClientError;
    case signers.nodeServing:
      return nodeServingError;
    default:
      return undefined;
  }
}

/** Whether the request is a node client certificate request (upstream's IsKubeletClientCSR, with the signer). */
export function isNodeClientRequest(signerName: string, req: ParsedCertificateRequest, usages: string[]): boolean {
  return signerName === signers.apiserverClientNode && nodeClientError(req, usages) === undefined;
}

const keyUsages: Record<string, KeyUsageBit> = {
  signing: 'digitalSignature',
  'digital signature': 'digitalSignature',
  'content commitment': 'contentCommitment',
  'key encipherment': 'keyEncipherment',
  'key agreement': 'keyAgreement',
  'data encipherment': 'dataEncipherment',
  'cert sign': 'keyCertSign',
  'crl sign': 'cRLSign',
  'encipher only': 'encipherOnly',
  'decipher only': 'decipherOnly',
};

// In the order of Go's x509.ExtKeyUsage constants, which upstream sorts by.
const extKeyUsages: Array<[string[], string]> = [
  [['any'], '2.5.29.37.0'],
  [['server auth'], '1.3.6.1.5.5.7.3.1'],
  [['client auth'], '1.3.6.1.5.5.7.3.2'],
  [['code signing'], '1.3.6.1.5.5.7.3.3'],
  [['email protection', 's/mime'], '1.3.6.1.5.5.7.3.4'],
  [['ipsec end system'], '1.3.6.1.5.5.7.3.5'],
  [['ipsec tunnel'], '1.3.6.1.5.5.7.3.6'],
  [['ipsec user'], '1.3.6.1.5.5.7.3.7'],
  [['timestamping'], '1.3.6.1.5.5.7.3.8'],
  [['ocsp signing'], '1.3.6.1.5.5.7.3.9'],
  [['microsoft sgc'], '1.3.6.1.4.1.311.10.3.3'],
  [['netscape sgc'], '2.16.840.1.113730.4.1'],
];

/** upstream's keyUsagesFromStrings: key usage bits and sorted, deduplicated extended key usage OIDs. */
export function x509Usages(usages: string[]): { keyUsage: KeyUsageBit[]; extKeyUsage: string[]; unknown: string[] } {
  const keyUsage = new Set<KeyUsageBit>();
  const unknown: string[] = [];
  for (const u of usages) {
    if (keyUsages[u]) keyUsage.add(keyUsages[u]);
    else if (!extKeyUsages.some(([names]) => names.includes(u))) unknown.push(u);
  }
  const extKeyUsage = extKeyUsages.filter(([names]) => names.some((n) => usages.includes(n))).map(([, oid]) => oid);
  return { keyUsage: [...keyUsage], extKeyUsage, unknown };
}
