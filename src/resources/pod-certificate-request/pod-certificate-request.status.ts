/**
 * PodCertificateRequest /status rules (spec §2.7, §3.2; upstream-resources §7.4):
 * a pending request moves once to Issued, Denied or Failed and is then frozen.
 * Issuing sets certificateChain, notBefore, notAfter and beginRefreshAt
 * together, consistent with the leaf certificate and the requested lifetime.
 */
import { FieldError, FieldPath, fieldErrors, omitValue } from '../../machinery/field-errors';
import { KObject, deepEqual } from '../../machinery/object';
import type { StrategyContext } from '../../machinery/resource-definition';
import { byteLength } from '../../machinery/validation/names';
import type { CryptoPort, PemBlock } from '../../ports/crypto.port';
import { authorizedForSigner } from '../../machinery/signer-permission';
import { goDuration, goTime, parseTime } from '../certificate-signing-request/certificates-wire';
import { MetaCondition, validateConditions } from './conditions';
import { DEFAULT_MAX_EXPIRATION_SECONDS, PcrObject } from './pod-certificate-request.validation';

export interface PcrStatus {
  conditions?: MetaCondition[] | null;
  certificateChain?: string | null;
  notBefore?: string | null;
  notAfter?: string | null;
  beginRefreshAt?: string | null;
}

const TERMINAL_TYPES = ['Issued', 'Denied', 'Failed'];
const MAX_CHAIN_SIZE = 100 * 1024;
const MIN_LIFETIME_MS = 3600 * 1000;
const REFRESH_MARGIN_MS = 10 * 60 * 1000;
const statusPath = FieldPath.root('status');
const chainPath = statusPath.child('certificateChain');
const notBeforePath = statusPath.child('notBefore');
const notAfterPath = statusPath.child('notAfter');
const beginRefreshPath = statusPath.child('beginRefreshAt');

const statusOf = (o: KObject): PcrStatus => ((o as PcrObject).status ?? {}) as PcrStatus;
const has = (s: PcrStatus, type: string) => (s.conditions ?? []).some((c) => c.type === type && c.status === 'True');
const isTerminal = (s: PcrStatus) => TERMINAL_TYPES.some((t) => has(s, t));

/** Status as upstream's semantic equality compares it: empty equals unset, times by instant. */
function comparable(s: PcrStatus): unknown {
  const conditions = (s.conditions ?? []).map((c) => ({
    type: c.type ?? '',
    status: c.status ?? '',
    observedGeneration: c.observedGeneration ?? 0,
    lastTransitionTime: parseTime(c.lastTransitionTime) ?? null,
    reason: c.reason ?? '',
    message: c.message ?? '',
  }));
  return {
    conditions,
    certificateChain: s.certificateChain ?? '',
    notBefore: parseTime(s.notBefore) ?? null,
    notAfter: parseTime(s.notAfter) ?? null,
    beginRefreshAt: parseTime(s.beginRefreshAt) ?? null,
  };
}

function unchanged(a: PcrStatus, b: PcrStatus, detail: string): FieldError[] {
  return deepEqual(comparable(a), comparable(b)) ? [] : [fieldErrors.invalid(statusPath, omitValue, detail)];
}

/** Which of the terminal conditions are there, at most one, and all True. */
function validateConditionShape(conditions: MetaCondition[]): FieldError[] {
  const errs: FieldError[] = [];
  let terminal = 0;
  conditions.forEach((c, i) => {
    // Upstream builds this path with the index as a child: `status.conditions.[0].type`.
    const p = statusPath.child('conditions', `[${i}]`);
    const type = c.type ?? '';
    if (!TERMINAL_TYPES.includes(type)) {
      errs.push(fieldErrors.notSupported(p.child('type'), type, TERMINAL_TYPES));
      return;
    }
    if (++terminal > 1) {
      errs.push(fieldErrors.invalid(p.child('type'), type, 'There may be at most one condition with type "Issued", "Denied", or "Failed"'));
    }
    if (c.status !== 'True') errs.push(fieldErrors.notSupported(p.child('status'), c.status ?? '', ['True']));
  });
  return errs;
}

function pemBlocks(text: string, crypto: CryptoPort): PemBlock[] | undefined {
  try {
    return crypto.parsePem(text);
  } catch {
    return undefined;
  }
}

/** The Issued transition: chain, times and lifetime consistent with the leaf. */
function validateIssued(s: PcrStatus, maxExpirationSeconds: number, crypto: CryptoPort): FieldError[] {
  const chain = s.certificateChain ?? '';
  if (byteLength(chain) > MAX_CHAIN_SIZE) return [fieldErrors.tooLong(chainPath, MAX_CHAIN_SIZE)];
  const blocks = pemBlocks(chain, crypto);
  if (blocks === undefined) return [fieldErrors.invalid(chainPath, chain, 'issued certificate chain must consist entirely of CERTIFICATE PEM blocks')];
  const [leafBlock, ...rest] = blocks;
  if (!leafBlock) return [fieldErrors.invalid(chainPath, chain, 'issued certificate chain must contain at least one certificate')];
  if (leafBlock.type !== 'CERTIFICATE') {
    return [fieldErrors.invalid(chainPath, chain, 'issued certificate chain must consist entirely of CERTIFICATE PEM blocks')];
  }
  let leaf;
  try {
    leaf = crypto.parseCertificate(leafBlock.bytes);
  } catch {
    return [fieldErrors.invalid(chainPath, chain, 'leaf certificate does not parse as valid X.509')];
  }

  const [notBefore, notAfter, beginRefresh] = [parseTime(s.notBefore), parseTime(s.notAfter), parseTime(s.beginRefreshAt)];
  const missing: FieldError[] = [];
  if (notBefore === undefined) missing.push(fieldErrors.required(notBeforePath, 'must be present and consistent with the issued certificate'));
  if (notAfter === undefined) missing.push(fieldErrors.required(notAfterPath, 'must be present and consistent with the issued certificate'));
  if (beginRefresh === undefined) {
    missing.push(fieldErrors.required(beginRefreshPath, 'must be present and in the range [notbefore+10min, notafter-10min]'));
  }
  if (notBefore === undefined || notAfter === undefined || beginRefresh === undefined) return missing;

  const [leafFrom, leafTo] = [leaf.notBefore.getTime(), leaf.notAfter.getTime()];
  if (notBefore !== leafFrom) {
    return [fieldErrors.invalid(notBeforePath, goTime(notBefore), 'must be set to the NotBefore time encoded in the leaf certificate')];
  }
  if (notAfter !== leafTo) {
    return [fieldErrors.invalid(notAfterPath, goTime(notAfter), 'must be set to the NotAfter time encoded in the leaf certificate')];
  }
  const lifetime = leafTo - leafFrom;
  if (lifetime < MIN_LIFETIME_MS) return [fieldErrors.invalid(chainPath, goDuration(lifetime), 'leaf certificate lifetime must be >= 1 hour')];
  if (lifetime > maxExpirationSeconds * 1000) {
    return [
      fieldErrors.invalid(chainPath, goDuration(lifetime), `leaf certificate lifetime must be <= spec.maxExpirationSeconds (${maxExpirationSeconds})`),
    ];
  }
  if (beginRefresh < notBefore + REFRESH_MARGIN_MS) {
    return [fieldErrors.invalid(beginRefreshPath, goTime(beginRefresh), 'must be at least 10 minutes after status.notBefore')];
  }
  if (beginRefresh > notAfter - REFRESH_MARGIN_MS) {
    return [fieldErrors.invalid(beginRefreshPath, goTime(beginRefresh), 'must be at least 10 minutes before status.notAfter')];
  }
  for (const block of rest) {
    // "CERTFICATE" is upstream's own spelling in this message.
    if (block.type !== 'CERTIFICATE') return [fieldErrors.invalid(chainPath, chain, 'issued certificate chain must consist entirely of CERTFICATE PEM blocks')];
    try {
      crypto.parseCertificate(block.bytes);
    } catch {
      return [fieldErrors.invalid(chainPath, chain, 'intermediate certificate does not parse as valid X.509')];
    }
  }
  return [];
}

export function validatePcrStatusUpdate(obj: KObject, old: KObject, ctx: StrategyContext): FieldError[] {
  const errs = validateStatusTransition(obj, old, ctx);
  if (errs.length) return errs;
  // Upstream's status strategy: changing the status takes `sign` on the signer.
  const [now, before] = [statusOf(obj), statusOf(old)];
  const signer = (old as PcrObject).spec?.signerName ?? '';
  if (!deepEqual(comparable(now), comparable(before)) && !authorizedForSigner(ctx, 'sign', signer)) {
    return [fieldErrors.forbidden(FieldPath.root('spec').child('signerName'), `User "${ctx.user.username}" is not permitted to "sign" for signer "${signer}"`)];
  }
  return [];
}

function validateStatusTransition(obj: KObject, old: KObject, ctx: StrategyContext): FieldError[] {
  const [now, before] = [statusOf(obj), statusOf(old)];
  const conditions = now.conditions ?? [];
  const errs = [...validateConditionShape(conditions), ...validateConditions(conditions, statusPath.child('conditions'))];
  // The conditions drive everything below; stop while they are wrong.
  if (errs.length) return errs;

  if (isTerminal(before)) return unchanged(now, before, 'immutable after PodCertificateRequest is issued, denied, or failed');
  if (has(now, 'Denied') || has(now, 'Failed')) {
    return unchanged(now, { conditions }, 'non-condition status fields must be empty when denying or failing the PodCertificateRequest');
  }
  if (has(now, 'Issued')) {
    const max = (obj as PcrObject).spec?.maxExpirationSeconds ?? DEFAULT_MAX_EXPIRATION_SECONDS;
    return validateIssued(now, max, ctx.crypto);
  }
  return unchanged(now, before, 'status is immutable unless transitioning to "Issued", "Denied", or "Failed"');
}
