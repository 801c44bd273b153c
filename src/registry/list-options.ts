/** Validation of list and watch options, as upstream's ValidateListOptions. */
import { errors } from '../machinery/status';
import { FieldError, fieldErrors } from '../machinery/field-errors';
import { ListOptions } from './request';

const maxUint64 = 18446744073709551615n;

/**
 * "" and "0" parse to 0; anything else must be an unsigned decimal (a uint64,
 * as upstream parses it). Revisions here are exact only up to 2^53 - 1, so a
 * larger one is refused too rather than rounded into some other revision.
 */
export function parseResourceVersion(rv: string | undefined): number {
  if (rv === undefined || rv === '') return 0;
  const invalid = (why: string) => errors.badRequest(`invalid resource version: strconv.ParseUint: parsing ${JSON.stringify(rv)}: ${why}`);
  if (!/^\d+$/.test(rv)) throw invalid('invalid syntax');
  const n = Number(rv);
  if (Number.isSafeInteger(n)) return n;
  if (BigInt(rv) > maxUint64) throw invalid('value out of range');
  throw errors.badRequest(`invalid resource version: ${rv} is beyond the largest revision this server can hold (${Number.MAX_SAFE_INTEGER})`);
}

export function validateListOptions(opts: ListOptions, watch: boolean): void {
  const errs: FieldError[] = [];
  const match = opts.resourceVersionMatch ?? '';
  const rv = opts.resourceVersion ?? '';
  if (match !== '' && match !== 'Exact' && match !== 'NotOlderThan') {
    errs.push(fieldErrors.notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']));
  }
  if (watch) {
    if (opts.sendInitialEvents !== undefined) {
      if (opts.sendInitialEvents && match !== 'NotOlderThan') {
        errs.push(fieldErrors.forbidden('sendInitialEvents', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
      } else if (match !== '' && match !== 'NotOlderThan') {
        errs.push(fieldErrors.notSupported('resourceVersionMatch', match, ['NotOlderThan']));
      }
    } else if (match !== '') {
      errs.push(fieldErrors.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    }
  } else {
    if (opts.sendInitialEvents !== undefined) errs.push(fieldErrors.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
    if (match !== '') {
      if (opts.continue) errs.push(fieldErrors.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
      else if (rv === '') errs.push(fieldErrors.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
      else if (match === 'Exact' && rv === '0') {
        errs.push(fieldErrors.forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
      }
    }
  }
  if (errs.length) throw errors.invalidOptions('ListOptions', errs);
  if (!watch && opts.continue && rv !== '' && rv !== '0') {
    throw errors.badRequest('specifying resource version is not allowed when using continue');
  }
}
