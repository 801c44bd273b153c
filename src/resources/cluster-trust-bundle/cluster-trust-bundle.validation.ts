/**
 * ClusterTrustBundle rules (spec §2.11; upstream-resources §11): a name tied
 * to the signer, a valid and immutable signerName, and a bundle of distinct,
 * header-free PEM CA certificates.
 */
import { FieldError, FieldPath, fieldErrors } from '../../machinery/field-errors';
import type { KObject } from '../../machinery/object';
import type { StrategyContext } from '../../machinery/resource-definition';
import { byteLength, nameIsDNSSubdomain } from '../../machinery/validation/names';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../machinery/validation/object-meta';
import type { CryptoPort, PemBlock } from '../../ports/crypto.port';
import { validateSignerName } from '../certificate-signing-request/signer-name';

const MAX_TRUST_BUNDLE_SIZE = 1024 * 1024;
const OMITTED = '<value omitted>';

type CtbObject = KObject & { spec?: { signerName?: string; trustBundle?: string } };

/** Upstream's ValidateClusterTrustBundleName: the name rule depends on spec.signerName. */
export function clusterTrustBundleName(signerName: string) {
  return (name: string, prefix: boolean): string[] => {
    if (!signerName) {
      if (name.includes(':')) return ['ClusterTrustBundle without signer name must not have ":" in its name'];
      return nameIsDNSSubdomain(name, prefix);
    }
    const required = `${signerName.replace(/\//g, ':')}:`;
    if (!name.startsWith(required)) return [`ClusterTrustBundle for signerName ${signerName} must be named with prefix ${required}`];
    return nameIsDNSSubdomain(name.slice(required.length), prefix);
  };
}

function validateNames(obj: CtbObject): FieldError[] {
  const rule = clusterTrustBundleName(obj.spec?.signerName ?? '');
  const errs: FieldError[] = [];
  const { name, generateName } = obj.metadata;
  if (generateName) for (const m of rule(generateName, true)) errs.push(fieldErrors.invalid('metadata.generateName', generateName, m));
  if (name) for (const m of rule(name, false)) errs.push(fieldErrors.invalid('metadata.name', name, m));
  return errs;
}

function blocksOf(bundle: string, crypto: CryptoPort): PemBlock[] | string {
  try {
    return crypto.parsePem(bundle);
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

export function validateTrustBundle(bundle: string, crypto: CryptoPort): FieldError[] {
  const path = FieldPath.root('spec').child('trustBundle');
  if (byteLength(bundle) > MAX_TRUST_BUNDLE_SIZE) return [fieldErrors.tooLong(path, MAX_TRUST_BUNDLE_SIZE)];
  const blocks = blocksOf(bundle, crypto);
  if (typeof blocks === 'string') return [fieldErrors.invalid(path, OMITTED, blocks)];
  const errs: FieldError[] = [];
  const seen = new Map<string, number[]>();
  blocks.forEach((b, i) => {
    let why: string | undefined;
    if (b.type !== 'CERTIFICATE') why = `entry ${i} has bad block type: ${b.type}`;
    else if (Object.keys(b.headers).length) why = `entry ${i} has PEM block headers`;
    else {
      try {
        if (!crypto.parseCertificate(b.bytes).isCA) why = `entry ${i} does not have the CA bit set`;
      } catch {
        why = `entry ${i} does not parse as X.509`;
      }
    }
    if (why) {
      errs.push(fieldErrors.invalid(path, OMITTED, why));
      return;
    }
    const key = Buffer.from(b.bytes).toString('base64');
    seen.set(key, [...(seen.get(key) ?? []), i]);
  });
  // A malformed entry already explains the problem; skip the follow-on count and duplicate errors.
  if (errs.length) return errs;
  if (seen.size === 0) errs.push(fieldErrors.invalid(path, OMITTED, 'at least one trust anchor must be provided'));
  for (const indices of seen.values()) {
    if (indices.length > 1) errs.push(fieldErrors.invalid(path, OMITTED, `duplicate trust anchor (indices [${indices.join(' ')}])`));
  }
  return errs;
}

function validateCtb(obj: CtbObject, crypto: CryptoPort, parseBundle: boolean): FieldError[] {
  const errs = validateNames(obj);
  const signerName = obj.spec?.signerName ?? '';
  if (signerName) errs.push(...validateSignerName(FieldPath.root('spec').child('signerName'), signerName));
  if (parseBundle) errs.push(...validateTrustBundle(obj.spec?.trustBundle ?? '', crypto));
  return errs;
}

export function validateCtbCreate(obj: KObject, ctx: StrategyContext): FieldError[] {
  return validateCtb(obj as CtbObject, ctx.crypto, true);
}

export function validateCtbUpdate(obj: KObject, old: KObject, ctx: StrategyContext): FieldError[] {
  const [now, before] = [obj as CtbObject, old as CtbObject];
  // An unchanged bundle is not re-parsed, so parser changes never strand stored objects.
  const errs = validateCtb(now, ctx.crypto, (now.spec?.trustBundle ?? '') !== (before.spec?.trustBundle ?? ''));
  const signerName = now.spec?.signerName ?? '';
  if (signerName !== (before.spec?.signerName ?? '')) {
    errs.push(fieldErrors.invalid('spec.signerName', signerName, FIELD_IMMUTABLE_ERROR_MSG));
  }
  return errs;
}
