/**
 * CertificateSigningRequest rules (spec §2.10, §3.1; upstream-resources §9.3–9.4):
 * the request must be a self-signed PKCS#10 PEM block, usages known and
 * unique, a valid signer, at least 600 s; Approved/Denied/Failed conditions
 * True, unique, never removed; Approved and Denied only through /approval;
 * the certificate only through /status, after approval, and never replaced.
 */
import { FieldError, FieldPath, fieldErrors } from '../../machinery/field-errors';
import { KObject, deepEqual } from '../../machinery/object';
import type { StrategyContext } from '../../machinery/resource-definition';
import type { CryptoPort, PublicKeyType } from '../../ports/crypto.port';
import { decodeBytes, goBytes, parseTime } from './certificates-wire';
import { validateSignerName } from './signer-name';

export const KNOWN_USAGES = [
  'signing', 'digital signature', 'content commitment', 'key encipherment', 'key agreement', 'data encipherment',
  'cert sign', 'crl sign', 'encipher only', 'decipher only', 'any', 'server auth', 'client auth', 'code signing',
  'email protection', 's/mime', 'ipsec end system', 'ipsec tunnel', 'ipsec user', 'timestamping', 'ocsp signing',
  'microsoft sgc', 'netscape sgc',
];
const knownUsages = new Set(KNOWN_USAGES);
const sortedUsages = [...KNOWN_USAGES].sort();
export const LEGACY_UNKNOWN_SIGNER = 'svc.io/legacy-unknown';
const TRUE_ONLY_TYPES = new Set(['Approved', 'Denied', 'Failed']);
const ALL_STATUSES = ['False', 'True', 'Unknown'];

export interface CsrCondition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  lastUpdateTime?: string | null;
  lastTransitionTime?: string | null;
}
export type CsrObject = KObject & {
  spec?: { request?: string; signerName?: string; expirationSeconds?: number | null; usages?: string[] | null };
  status?: { conditions?: CsrCondition[] | null; certificate?: string | null };
};

/** What an update path may do, and the compatibility relaxations upstream grants old objects. */
interface Options {
  allowSettingApprovalConditions: boolean;
  allowSettingCertificate: boolean;
  allowBothApprovedAndDenied: boolean;
  allowLegacySignerName: boolean;
  allowDuplicateConditionTypes: boolean;
  allowEmptyConditionType: boolean;
  allowArbitraryCertificate: boolean;
  allowUnknownUsages: boolean;
  allowDuplicateUsages: boolean;
}

const conditionsOf = (o: CsrObject | undefined): CsrCondition[] => o?.status?.conditions ?? [];
const usagesOf = (o: CsrObject | undefined): string[] => o?.spec?.usages ?? [];
const hasDuplicates = (xs: unknown[]) => new Set(xs).size !== xs.length;
const bytesText = (v: unknown) => {
  const b = decodeBytes(v);
  return typeof b === 'string' ? String(v) : Buffer.from(b).toString('latin1');
};

// Go's x509 verification errors, by key family, so messages read like upstream's.
function signatureError(keyType: PublicKeyType): string {
  if (keyType.startsWith('RSA')) return 'crypto/rsa: verification error';
  if (keyType.startsWith('ECDSA')) return 'x509: ECDSA verification failure';
  if (keyType === 'ED25519') return 'x509: Ed25519 verification failure';
  return 'x509: cannot verify signature: algorithm unimplemented';
}

/** Why spec.request is not an acceptable CSR, or undefined. */
async function requestError(request: unknown, crypto: CryptoPort): Promise<string | undefined> {
  const bytes = decodeBytes(request);
  if (typeof bytes === 'string') return bytes;
  let block;
  try {
    block = crypto.parsePem(Buffer.from(bytes).toString('latin1'))[0];
  } catch {
    block = undefined;
  }
  if (!block || block.type !== 'CERTIFICATE REQUEST') return 'PEM block type must be CERTIFICATE REQUEST';
  try {
    const parsed = await crypto.parseCertificateRequest(block.bytes);
    return parsed.signatureValid ? undefined : signatureError(parsed.keyType);
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** Why status.certificate is not a list of header-free PEM CERTIFICATE blocks, or undefined. */
export function certificateError(certificate: unknown, crypto: CryptoPort): string | undefined {
  const bytes = decodeBytes(certificate);
  if (typeof bytes === 'string') return bytes;
  if (bytes.length === 0) return undefined;
  let blocks;
  try {
    blocks = crypto.parsePem(Buffer.from(bytes).toString('latin1'));
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  for (const block of blocks) {
    if (block.type !== 'CERTIFICATE') return `only CERTIFICATE PEM blocks are allowed, found ${JSON.stringify(block.type)}`;
    if (Object.keys(block.headers).length !== 0) return 'no PEM block headers are permitted';
    try {
      crypto.parseCertificate(block.bytes);
    } catch {
      return 'x509: malformed certificate';
    }
  }
  return blocks.length === 0 ? 'must contain at least one CERTIFICATE PEM block' : undefined;
}

function validateConditions(csr: CsrObject, opts: Options): FieldError[] {
  const path = FieldPath.root('status').child('conditions');
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let approved = false;
  let denied = false;
  conditionsOf(csr).forEach((c, i) => {
    const type = c.type ?? '';
    const status = c.status ?? '';
    if (!opts.allowEmptyConditionType && type === '') errs.push(fieldErrors.required(path.index(i).child('type')));
    const allowed = TRUE_ONLY_TYPES.has(type) ? ['True'] : ALL_STATUSES;
    if (status === '') errs.push(fieldErrors.required(path.index(i).child('status')));
    else if (!allowed.includes(status)) errs.push(fieldErrors.notSupported(path.index(i).child('status'), status, allowed));
    if (!opts.allowBothApprovedAndDenied) {
      if (type === 'Approved') approved = true;
      if (type === 'Denied') denied = true;
      if ((type === 'Approved' && denied) || (type === 'Denied' && approved)) {
        errs.push(fieldErrors.invalid(path, type, 'Approved and Denied conditions are mutually exclusive'));
      }
    }
    if (!opts.allowDuplicateConditionTypes) {
      if (seen.has(type)) errs.push(fieldErrors.duplicate(path.index(i).child('type'), type));
      seen.add(type);
    }
  });
  return errs;
}

async function validateCsr(csr: CsrObject, opts: Options, crypto: CryptoPort): Promise<FieldError[]> {
  const spec = FieldPath.root('spec');
  const errs: FieldError[] = [];
  const requestErr = await requestError(csr.spec?.request, crypto);
  if (requestErr) {
    const bytes = decodeBytes(csr.spec?.request);
    errs.push(fieldErrors.invalid(spec.child('request'), typeof bytes === 'string' ? csr.spec?.request : goBytes(bytes), requestErr));
  }
  const usages = usagesOf(csr);
  if (usages.length === 0) errs.push(fieldErrors.required(spec.child('usages')));
  if (!opts.allowUnknownUsages) {
    usages.forEach((u, i) => {
      if (!knownUsages.has(u)) errs.push(fieldErrors.notSupported(spec.child('usages').index(i), u, sortedUsages));
    });
  }
  if (!opts.allowDuplicateUsages) {
    const seen = new Set<string>();
    usages.forEach((u, i) => {
      if (seen.has(u)) errs.push(fieldErrors.duplicate(spec.child('usages').index(i), u));
      seen.add(u);
    });
  }
  const signerName = csr.spec?.signerName ?? '';
  if (!opts.allowLegacySignerName && signerName === LEGACY_UNKNOWN_SIGNER) {
    errs.push(fieldErrors.invalid(spec.child('signerName'), signerName, 'the legacy signerName is not allowed via this API version'));
  } else {
    errs.push(...validateSignerName(spec.child('signerName'), signerName));
  }
  const expiration = csr.spec?.expirationSeconds;
  if (typeof expiration === 'number' && expiration < 600) {
    errs.push(fieldErrors.invalid(spec.child('expirationSeconds'), expiration, 'may not specify a duration less than 600 seconds (10 minutes)'));
  }
  errs.push(...validateConditions(csr, opts));
  if (!opts.allowArbitraryCertificate) {
    const certErr = certificateError(csr.status?.certificate, crypto);
    if (certErr) errs.push(fieldErrors.invalid(FieldPath.root('status').child('certificate'), '<certificate data>', certErr));
  }
  return errs;
}

function options(csr: CsrObject, old: CsrObject | undefined, crypto: CryptoPort): Options {
  const oldTypes = conditionsOf(old).map((c) => c.type ?? '');
  const sameCertificate = !!old && bytesText(csr.status?.certificate) === bytesText(old.status?.certificate);
  return {
    allowSettingApprovalConditions: false,
    allowSettingCertificate: false,
    allowBothApprovedAndDenied: oldTypes.includes('Approved') && oldTypes.includes('Denied'),
    allowLegacySignerName: old?.spec?.signerName === LEGACY_UNKNOWN_SIGNER,
    allowDuplicateConditionTypes: hasDuplicates(oldTypes),
    allowEmptyConditionType: oldTypes.includes(''),
    allowArbitraryCertificate: sameCertificate || (!!old && certificateError(old.status?.certificate, crypto) !== undefined),
    allowUnknownUsages: usagesOf(old).some((u) => !knownUsages.has(u)),
    allowDuplicateUsages: hasDuplicates(usagesOf(old)),
  };
}

/** Conditions compared as upstream's semantic equality does: times by instant. */
function sameConditions(a: CsrCondition[], b: CsrCondition[]): boolean {
  const norm = (c: CsrCondition) => ({
    ...c,
    lastUpdateTime: parseTime(c.lastUpdateTime) ?? null,
    lastTransitionTime: parseTime(c.lastTransitionTime) ?? null,
  });
  return deepEqual(a.map(norm), b.map(norm));
}

async function validateCsrUpdateWith(csr: CsrObject, old: CsrObject, opts: Options, crypto: CryptoPort): Promise<FieldError[]> {
  const errs = await validateCsr(csr, opts, crypto);
  const conditions = FieldPath.root('status').child('conditions');
  const ofType = (o: CsrObject, t: string) => conditionsOf(o).filter((c) => c.type === t);
  for (const t of ['Approved', 'Denied', 'Failed']) {
    if (ofType(csr, t).length < ofType(old, t).length) {
      errs.push(fieldErrors.forbidden(conditions, `updates may not remove a condition of type ${JSON.stringify(t)}`));
    }
  }
  if (!opts.allowSettingApprovalConditions) {
    for (const t of ['Approved', 'Denied']) {
      const [now, before] = [ofType(csr, t), ofType(old, t)];
      if (now.length > before.length) {
        errs.push(fieldErrors.forbidden(conditions, `updates may not add a condition of type ${JSON.stringify(t)}`));
      } else if (now.length === before.length && !sameConditions(now, before)) {
        errs.push(fieldErrors.forbidden(conditions, `updates may not modify a condition of type ${JSON.stringify(t)}`));
      }
    }
  }
  const certificate = FieldPath.root('status').child('certificate');
  const [newCert, oldCert] = [bytesText(csr.status?.certificate), bytesText(old.status?.certificate)];
  if (newCert !== oldCert) {
    if (!opts.allowSettingCertificate) {
      errs.push(fieldErrors.forbidden(certificate, 'updates may not set certificate content'));
    } else if (oldCert.length > 0) {
      errs.push(fieldErrors.forbidden(certificate, 'updates may not modify existing certificate content'));
    } else if (!ofType(csr, 'Approved').some((c) => c.status === 'True')) {
      // Spec §3.1: the signer issues only once the request is Approved.
      errs.push(fieldErrors.forbidden(certificate, 'certificate may only be set once the request has an Approved condition'));
    }
  }
  return errs;
}

export function validateCsrCreate(obj: KObject, ctx: StrategyContext): Promise<FieldError[]> {
  const csr = obj as CsrObject;
  return validateCsr(csr, options(csr, undefined, ctx.crypto), ctx.crypto);
}

export function validateCsrUpdate(obj: KObject, old: KObject, ctx: StrategyContext): Promise<FieldError[]> {
  const [csr, prev] = [obj as CsrObject, old as CsrObject];
  return validateCsrUpdateWith(csr, prev, options(csr, prev, ctx.crypto), ctx.crypto);
}

export function validateCsrStatusUpdate(obj: KObject, old: KObject, ctx: StrategyContext): Promise<FieldError[]> {
  const [csr, prev] = [obj as CsrObject, old as CsrObject];
  return validateCsrUpdateWith(csr, prev, { ...options(csr, prev, ctx.crypto), allowSettingCertificate: true }, ctx.crypto);
}

export function validateCsrApprovalUpdate(obj: KObject, old: KObject, ctx: StrategyContext): Promise<FieldError[]> {
  const [csr, prev] = [obj as CsrObject, old as CsrObject];
  return validateCsrUpdateWith(csr, prev, { ...options(csr, prev, ctx.crypto), allowSettingApprovalConditions: true }, ctx.crypto);
}
