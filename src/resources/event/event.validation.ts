/**
 * Event rules, as upstream's ValidateEventCreate and ValidateEventUpdate,
 * always on the core form (field paths are core's, also for events.svc.io
 * requests, as upstream reports them). Writes through core v1 get only the
 * legacy checks; writes through events.svc.io/v1 get the strict ones too.
 */
import { FieldError, fieldErrors } from '../../machinery/field-errors';
import { KObject, isPlainObject } from '../../machinery/object';
import { isDNS1123Subdomain, isQualifiedName } from '../../machinery/validation/names';

export const REPORTING_INSTANCE_LIMIT = 128;
export const ACTION_LIMIT = 128;
export const REASON_LIMIT = 128;
export const NOTE_LIMIT = 1024;

export interface CoreEvent extends KObject {
  involvedObject?: Record<string, string>;
  reason?: string;
  message?: string;
  source?: { component?: string; host?: string };
  firstTimestamp?: string;
  lastTimestamp?: string;
  count?: number;
  type?: string;
  eventTime?: string;
  series?: { count?: number; lastObservedTime?: string };
  action?: string;
  related?: Record<string, string>;
  reportingComponent?: string;
  reportingInstance?: string;
}

const bytes = (s: string | undefined) => Buffer.byteLength(s ?? '');

function legacy(e: CoreEvent): FieldError[] {
  const errs: FieldError[] = [];
  const ns = e.metadata.namespace ?? '';
  const refNs = e.involvedObject?.namespace ?? '';
  const mismatch = () => errs.push(fieldErrors.invalid('involvedObject.namespace', refNs, 'does not match event.namespace'));
  if (!e.eventTime) {
    // Old-style events: the namespace is the involved object's ("default" for cluster-scoped ones).
    if (refNs ? ns !== refNs : ns !== '' && ns !== 'default') mismatch();
  } else {
    if (!refNs && ns !== 'default' && ns !== 'kube-system') mismatch();
    const controller = e.reportingComponent ?? '';
    if (!controller) errs.push(fieldErrors.required('reportingController', ''));
    for (const msg of isQualifiedName(controller)) errs.push(fieldErrors.invalid('reportingController', controller, msg));
    if (!e.reportingInstance) errs.push(fieldErrors.required('reportingInstance', ''));
    if (bytes(e.reportingInstance) > REPORTING_INSTANCE_LIMIT) errs.push(atMost('reportingInstance', REPORTING_INSTANCE_LIMIT));
    if (!e.action) errs.push(fieldErrors.required('action', ''));
    if (bytes(e.action) > ACTION_LIMIT) errs.push(atMost('action', ACTION_LIMIT));
    if (!e.reason) errs.push(fieldErrors.required('reason', ''));
    if (bytes(e.reason) > REASON_LIMIT) errs.push(atMost('reason', REASON_LIMIT));
    if (bytes(e.message) > NOTE_LIMIT) errs.push(atMost('message', NOTE_LIMIT));
  }
  for (const msg of isDNS1123Subdomain(ns)) errs.push(fieldErrors.invalid('namespace', ns, msg));
  return errs;
}

function atMost(field: string, limit: number): FieldError {
  return fieldErrors.invalid(field, '', `can have at most ${limit} characters`);
}

function series(e: CoreEvent): FieldError[] {
  if (!e.series) return [];
  const errs: FieldError[] = [];
  if ((e.series.count ?? 0) < 2) errs.push(fieldErrors.invalid('series.count', '', 'should be at least 2'));
  if (!e.series.lastObservedTime) errs.push(fieldErrors.required('series.lastObservedTime', ''));
  return errs;
}

export function validateEventCreate(e: CoreEvent, strict: boolean): FieldError[] {
  const errs = legacy(e);
  if (!strict) return errs;
  errs.push(...series(e));
  if (!e.eventTime) errs.push(fieldErrors.required('eventTime', ''));
  if (e.type !== 'Normal' && e.type !== 'Warning') errs.push(fieldErrors.invalid('type', '', `has invalid value: ${e.type ?? ''}`));
  if (e.firstTimestamp) errs.push(fieldErrors.invalid('firstTimestamp', '', 'needs to be unset'));
  if (e.lastTimestamp) errs.push(fieldErrors.invalid('lastTimestamp', '', 'needs to be unset'));
  if (e.count) errs.push(fieldErrors.invalid('count', '', 'needs to be unset'));
  if (e.source?.component || e.source?.host) errs.push(fieldErrors.invalid('source', '', 'needs to be unset'));
  return errs;
}

/** [core field, path upstream reports]; reason twice, as upstream checks it twice. */
const immutable: Array<[keyof CoreEvent, string]> = [
  ['involvedObject', 'involvedObject'],
  ['reason', 'reason'],
  ['message', 'message'],
  ['source', 'source'],
  ['firstTimestamp', 'firstTimestamp'],
  ['lastTimestamp', 'lastTimestamp'],
  ['count', 'count'],
  ['reason', 'reason'],
  ['type', 'type'],
  ['eventTime', 'eventTime'],
  ['action', 'action'],
  ['related', 'related'],
  ['reportingComponent', 'reportingController'],
  ['reportingInstance', 'reportingInstance'],
];

export function validateEventUpdate(e: CoreEvent, old: CoreEvent, strict: boolean): FieldError[] {
  const errs = legacy(e);
  if (!strict) return errs;
  if (!sameValue(e.series, old.series)) errs.push(...series(e));
  for (const [field, path] of immutable) {
    if (!sameValue(e[field], old[field])) errs.push(fieldErrors.invalid(path, e[field] ?? '', 'field is immutable'));
  }
  return errs;
}

/** Go's zero values: an absent field equals '', 0 or an empty struct. */
function zeroless(v: unknown): unknown {
  if (v === undefined || v === null || v === '' || v === 0 || v === false) return undefined;
  if (!isPlainObject(v)) return v;
  const entries = Object.entries(v)
    .map(([k, x]) => [k, zeroless(x)] as const)
    .filter(([, x]) => x !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length ? Object.fromEntries(entries) : undefined;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(zeroless(a)) === JSON.stringify(zeroless(b));
}
