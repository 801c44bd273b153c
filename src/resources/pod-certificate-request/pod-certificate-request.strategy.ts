/**
 * PodCertificateRequest strategy (upstream-resources §7.2, §7.5): default the
 * lifetime bound, start with an empty status, and let /status change only
 * the status.
 */
import type { KObject } from '../../machinery/object';
import { canonicalTime, WireChecks } from '../certificate-signing-request/certificates-wire';
import type { PcrStatus } from './pod-certificate-request.status';
import { DEFAULT_MAX_EXPIRATION_SECONDS, PcrObject } from './pod-certificate-request.validation';

const wire = new WireChecks('PodCertificateRequest', 'v1');
const TIME_FIELDS = ['notBefore', 'notAfter', 'beginRefreshAt'] as const;

const statusOf = (obj: KObject) => (obj as PcrObject).status as PcrStatus | undefined;

/** Bad base64 or times are decode errors (400) upstream, before any validation. */
function checkWire(obj: KObject): void {
  wire.bytes((obj as PcrObject).spec?.stubPKCS10Request);
  const status = statusOf(obj);
  for (const f of TIME_FIELDS) wire.time(status?.[f]);
  for (const c of status?.conditions ?? []) wire.time(c.lastTransitionTime);
}

export function applyPcrDefaults(obj: KObject): void {
  checkWire(obj);
  const spec = (obj as PcrObject).spec;
  if (spec && (spec.maxExpirationSeconds === undefined || spec.maxExpirationSeconds === null)) {
    spec.maxExpirationSeconds = DEFAULT_MAX_EXPIRATION_SECONDS;
  }
}

export function preparePcrForCreate(obj: KObject): void {
  obj.status = {};
}

/** /status: spec comes from the stored object (and user metadata, see the definition's resetObjectMeta). */
export function preparePcrStatusUpdate(obj: KObject, old: KObject): void {
  checkWire(obj);
  obj.spec = structuredClone(old.spec);
  if (obj.status === undefined || obj.status === null) obj.status = {};
}

/** Times at second precision, as metav1.Time stores them. */
export function canonicalizePcr(obj: KObject): void {
  const status = statusOf(obj) as Record<string, unknown> | undefined;
  for (const f of TIME_FIELDS) canonicalTime(status, f);
  for (const c of statusOf(obj)?.conditions ?? []) canonicalTime(c as Record<string, unknown>, 'lastTransitionTime');
}
