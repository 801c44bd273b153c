/**
 * PodCertificateRequest spec rules (spec §2.7; upstream-resources §7.3–7.4):
 * identity fields, signer, user annotations, maxExpirationSeconds bounds, and
 * a stub PKCS#10 request whose signature verifies with a supported key.
 * The whole spec is immutable after creation.
 */
import { FieldError, FieldPath, fieldErrors, omitValue } from '../../machinery/field-errors';
import { KObject, deepEqual } from '../../machinery/object';
import type { StrategyContext } from '../../machinery/resource-definition';
import { byteLength, nameIsDNSSubdomain } from '../../machinery/validation/names';
import { FIELD_IMMUTABLE_ERROR_MSG, validateAnnotations } from '../../machinery/validation/object-meta';
import type { CryptoPort } from '../../ports/crypto.port';
import { decodeBytes } from '../certificate-signing-request/certificates-wire';
import { isReservedSignerName, validateSignerName } from '../certificate-signing-request/signer-name';

export const DEFAULT_MAX_EXPIRATION_SECONDS = 86400;
export const MIN_MAX_EXPIRATION_SECONDS = 3600;
export const MAX_MAX_EXPIRATION_SECONDS = 7862400;
/** Signers under svc.io never issue for longer than a day. */
export const RESERVED_MAX_EXPIRATION_SECONDS = 86400;
const MAX_UID_LENGTH = 128;
const MAX_STUB_REQUEST_SIZE = 10 * 1024;

export interface PcrSpec {
  signerName?: string;
  podName?: string;
  podUID?: string;
  serviceAccountName?: string;
  serviceAccountUID?: string;
  nodeName?: string;
  nodeUID?: string;
  maxExpirationSeconds?: number | null;
  stubPKCS10Request?: string;
  unverifiedUserAnnotations?: Record<string, string> | null;
}
export type PcrObject = KObject & { spec?: PcrSpec; status?: Record<string, unknown> };

const spec = FieldPath.root('spec');

function validateUid(path: FieldPath, uid: string): FieldError[] {
  if (uid.length === 0) return [fieldErrors.invalid(path, uid, 'must not be empty')];
  return byteLength(uid) > MAX_UID_LENGTH ? [fieldErrors.tooLong(path, MAX_UID_LENGTH)] : [];
}

function validateDnsName(path: FieldPath, name: string): FieldError[] {
  return nameIsDNSSubdomain(name, false).map((m) => fieldErrors.invalid(path, name, m));
}

/** Annotation key and size rules, plus a mandatory domain prefix on every key. */
export function validateUserAnnotations(annotations: Record<string, string>, path: FieldPath): FieldError[] {
  const errs = validateAnnotations(annotations, path);
  for (const key of Object.keys(annotations)) {
    if (!key.includes('/')) errs.push(fieldErrors.invalid(path, key, 'must be a domain-prefixed key (such as "acme.io/foo")'));
  }
  return errs;
}

function validateMaxExpiration(signerName: string, value: number): FieldError[] {
  const max = isReservedSignerName(signerName) ? RESERVED_MAX_EXPIRATION_SECONDS : MAX_MAX_EXPIRATION_SECONDS;
  if (value >= MIN_MAX_EXPIRATION_SECONDS && value <= max) return [];
  return [fieldErrors.invalid(spec.child('maxExpirationSeconds'), value, `must be in the range [${MIN_MAX_EXPIRATION_SECONDS}, ${max}]`)];
}

/** The stub request: DER PKCS#10, a supported key type, and a self-signature that verifies. */
async function validateStubRequest(value: unknown, crypto: CryptoPort): Promise<FieldError[]> {
  const path = spec.child('stubPKCS10Request');
  const der = decodeBytes(value);
  if (typeof der === 'string') return [fieldErrors.invalid(path, omitValue, der)];
  if (der.length === 0) return [fieldErrors.required(path)];
  if (der.length > MAX_STUB_REQUEST_SIZE) return [fieldErrors.tooLong(path, MAX_STUB_REQUEST_SIZE)];
  let parsed;
  try {
    parsed = await crypto.parseCertificateRequest(der);
  } catch {
    return [fieldErrors.invalid(path, omitValue, 'must be a valid DER-encoded PKCS#10 certificate request')];
  }
  switch (parsed.keyType) {
    case 'RSA3072':
    case 'RSA4096':
    case 'ECDSAP256':
    case 'ECDSAP384':
    case 'ECDSAP521':
    case 'ED25519':
      break;
    case 'RSA2048':
    case 'RSA':
      return [fieldErrors.invalid(path, `${parsed.rsaBits ?? 0}-bit modulus`, 'RSA keys must have modulus size 3072 or 4096')];
    default:
      return [fieldErrors.invalid(path, omitValue, 'unknown public key type; supported types are Ed25519, ECDSA, and RSA')];
  }
  if (!parsed.signatureValid) return [fieldErrors.invalid(path, omitValue, 'could not verify the PKCS#10 request signature')];
  return [];
}

export async function validatePcrCreate(obj: KObject, ctx: StrategyContext): Promise<FieldError[]> {
  const s = (obj as PcrObject).spec ?? {};
  const signerName = s.signerName ?? '';
  const errs = validateSignerName(spec.child('signerName'), signerName);
  if (s.unverifiedUserAnnotations) errs.push(...validateUserAnnotations(s.unverifiedUserAnnotations, spec.child('unverifiedUserAnnotations')));
  errs.push(...validateDnsName(spec.child('podName'), s.podName ?? ''));
  errs.push(...validateUid(spec.child('podUID'), s.podUID ?? ''));
  errs.push(...validateDnsName(spec.child('serviceAccountName'), s.serviceAccountName ?? ''));
  errs.push(...validateUid(spec.child('serviceAccountUID'), s.serviceAccountUID ?? ''));
  errs.push(...validateDnsName(spec.child('nodeName'), s.nodeName ?? ''));
  errs.push(...validateUid(spec.child('nodeUID'), s.nodeUID ?? ''));
  // Without a bound the remaining checks are meaningless (upstream stops here too).
  if (typeof s.maxExpirationSeconds !== 'number') {
    return [...errs, fieldErrors.required(spec.child('maxExpirationSeconds'), 'must be set')];
  }
  errs.push(...validateMaxExpiration(signerName, s.maxExpirationSeconds));
  errs.push(...(await validateStubRequest(s.stubPKCS10Request, ctx.crypto)));
  return errs;
}

/** The spec as semantic equality sees it: same bytes, empty map equal to none. */
function comparableSpec(s: PcrSpec | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(s ?? {}) };
  const der = decodeBytes(s?.stubPKCS10Request);
  out.stubPKCS10Request = typeof der === 'string' ? s?.stubPKCS10Request : Buffer.from(der).toString('base64');
  if (!s?.unverifiedUserAnnotations || Object.keys(s.unverifiedUserAnnotations).length === 0) delete out.unverifiedUserAnnotations;
  for (const k of Object.keys(out)) if (out[k] === null || out[k] === '') delete out[k];
  return out;
}

/** Main-resource updates: only metadata may change (status is kept by the registry). */
export function validatePcrUpdate(obj: KObject, old: KObject): FieldError[] {
  const [now, before] = [(obj as PcrObject).spec, (old as PcrObject).spec];
  if (deepEqual(comparableSpec(now), comparableSpec(before))) return [];
  return [fieldErrors.invalid(spec, omitValue, FIELD_IMMUTABLE_ERROR_MSG)];
}
