/**
 * Query and body options of writes and reads, validated as upstream's
 * CreateOptions/UpdateOptions/PatchOptions/DeleteOptions/ListOptions.
 */
import type { Request } from 'express';
import type { QueryValues } from '../../auth/request-info';
import { errors } from '../../machinery/status';
import { FieldError, fieldErrors } from '../../machinery/field-errors';
import { userOf } from './request-user';
import { auditAnnotationsOf } from './request-body';
import type { DeleteOptions, FieldValidation, ListOptions, WriteOptions } from '../../registry/request';


type OptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' | 'DeleteOptions';

/** Default field manager: the User-Agent up to its first '/', printable only, at most 128 bytes. */
export function defaultManager(req: Request): string {
  const ua = req.headers['user-agent'] ?? '';
  // A client sends the same User-Agent on every request: the last one's manager is the answer again.
  if (ua !== lastAgent.ua) lastAgent = { ua, manager: ua.split('/')[0].replace(/[^\x20-\x7e]/g, '').slice(0, 128) };
  return lastAgent.manager;
}

let lastAgent = { ua: '', manager: '' };

function validateManager(manager: string | undefined, errs: FieldError[]): void {
  if (manager === undefined) return;
  if (manager.length > 128) errs.push(fieldErrors.tooLongCharacters('fieldManager', 128));
  else if (/[^\x20-\x7e]/.test(manager)) errs.push(fieldErrors.invalid('fieldManager', manager, 'must only contain printable characters'));
}

function validateDryRun(values: string[], errs: FieldError[]): boolean {
  if (values.length === 0) return false;
  if (values.some((v) => v !== 'All')) {
    errs.push(fieldErrors.notSupported('dryRun', values, ['All']));
  }
  return true;
}

/** Create, update and patch options from the query; the request gives the user and the default field manager. */
export function writeOptions(req: Request, query: QueryValues, kind: OptionsKind, dryRunValues = query.all('dryRun')): WriteOptions {
  const errs: FieldError[] = [];
  const dryRun = validateDryRun(dryRunValues, errs);
  const manager = query.first('fieldManager');
  validateManager(manager, errs);
  let fieldValidation: FieldValidation = 'Warn';
  if (kind !== 'DeleteOptions') {
    const fv = query.first('fieldValidation') ?? '';
    if (fv === 'Ignore' || fv === 'Warn' || fv === 'Strict') fieldValidation = fv;
    else if (fv !== '') errs.push(fieldErrors.notSupported('fieldValidation', fv, ['', 'Ignore', 'Strict', 'Warn']));
  }
  if (errs.length) throw errors.invalidOptions(kind, errs);
  return { user: userOf(req), dryRun, fieldManager: manager ?? defaultManager(req), fieldValidation, warnings: [], kind, auditAnnotations: auditAnnotationsOf(req) };
}

/** DeleteOptions from the JSON body, or from the query when the body is empty. */
export function deleteOptions(req: Request, query: QueryValues, body: Record<string, unknown> | undefined): DeleteOptions {
  // Query parameters count only when there is no body (upstream decodes one or the other).
  const src: Record<string, unknown> = body ?? {
    gracePeriodSeconds: query.first('gracePeriodSeconds'),
    propagationPolicy: query.first('propagationPolicy'),
    orphanDependents: query.flag('orphanDependents'),
    dryRun: query.all('dryRun'),
    ignoreStoreReadErrorWithClusterBreakingPotential: query.flag('ignoreStoreReadErrorWithClusterBreakingPotential'),
  };
  const dryRunValues = Array.isArray(src.dryRun) ? src.dryRun.map(String) : [];
  const base = writeOptions(req, query, 'DeleteOptions', dryRunValues);
  const errs: FieldError[] = [];
  const policy = src.propagationPolicy === null ? undefined : (src.propagationPolicy as string | undefined);
  const orphan = src.orphanDependents === null ? undefined : (src.orphanDependents as boolean | undefined);
  if (orphan !== undefined && policy) {
    errs.push(fieldErrors.invalid('propagationPolicy', policy, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  if (policy !== undefined && policy !== '' && !['Foreground', 'Background', 'Orphan'].includes(policy)) {
    errs.push(fieldErrors.notSupported('propagationPolicy', policy, ['Foreground', 'Background', 'Orphan', 'nil']));
  }
  const grace = src.gracePeriodSeconds === undefined || src.gracePeriodSeconds === null || src.gracePeriodSeconds === '' ? undefined : Number(src.gracePeriodSeconds);
  if (grace !== undefined && !Number.isInteger(grace)) errs.push(fieldErrors.invalid('gracePeriodSeconds', src.gracePeriodSeconds, 'must be an integer'));
  const pre = (src.preconditions ?? undefined) as DeleteOptions['preconditions'];
  const unsafe = src.ignoreStoreReadErrorWithClusterBreakingPotential === true;
  if (unsafe) {
    // 1.32's ValidateIgnoreStoreReadError: the unsafe delete takes no other option.
    const field = 'ignoreStoreReadErrorWithClusterBreakingPotential';
    if (dryRunValues.length) errs.push(fieldErrors.invalid(field, true, 'cannot be set together with .dryRun'));
    if (policy) errs.push(fieldErrors.invalid(field, true, 'cannot be set together with .propagationPolicy'));
    if (orphan !== undefined) errs.push(fieldErrors.invalid(field, true, 'cannot be set together with .orphanDependents'));
    if (grace !== undefined) errs.push(fieldErrors.invalid(field, true, 'cannot be set together with .gracePeriodSeconds'));
    if (pre) errs.push(fieldErrors.invalid(field, true, 'cannot be set together with .preconditions'));
  }
  if (errs.length) throw errors.invalidOptions('DeleteOptions', errs);
  return {
    ...base,
    gracePeriodSeconds: grace,
    propagationPolicy: (policy || undefined) as DeleteOptions['propagationPolicy'],
    orphanDependents: orphan,
    preconditions: pre,
    ignoreStoreReadErrorWithClusterBreakingPotential: unsafe || undefined,
  };
}

/**
 * An int64 query parameter as upstream's parameter codec reads it
 * (strconv.ParseInt); undefined when absent or empty. Its errors are 400s.
 */
function queryInt64(query: QueryValues, name: string): number | undefined {
  const raw = query.first(name);
  if (raw === undefined || raw === '') return undefined;
  if (!/^[+-]?\d+$/.test(raw)) throw errors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(raw)}: invalid syntax`);
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw errors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(raw)}: value out of range`);
  return n;
}

export function listOptions(query: QueryValues, namespace: string | undefined): ListOptions {
  const limit = queryInt64(query, 'limit');
  const timeoutSeconds = queryInt64(query, 'timeoutSeconds');
  // Upstream lets a negative timeout end the watch at once; it is a mistake, so say so.
  if (timeoutSeconds !== undefined && timeoutSeconds < 0) {
    throw errors.badRequest(`invalid timeoutSeconds ${timeoutSeconds}: must be 0 (no timeout of its own) or more`);
  }
  return {
    namespace,
    labelSelector: query.first('labelSelector'),
    fieldSelector: query.first('fieldSelector'),
    limit,
    continue: query.first('continue') || undefined,
    resourceVersion: query.first('resourceVersion'),
    resourceVersionMatch: query.first('resourceVersionMatch') || undefined,
    allowWatchBookmarks: query.flag('allowWatchBookmarks'),
    sendInitialEvents: query.flag('sendInitialEvents'),
    timeoutSeconds,
    shardSelector: query.first('shardSelector'),
  };
}
