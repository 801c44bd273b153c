/** Validation of list and watch options, as upstream's ValidateListOptions. */
import { errors } from '../machinery/status';
import { FieldError, fieldErrors } from '../machinery/field-errors';
import { ListOptions } from './request';

/** "" and "0" parse to 0; anything else must be an unsigned decimal. */
export function parseResourceVersion(rv: string | undefined): number {
  if (rv === undefined || rv === '') return 0;
  if (!/^\d+$/.test(rv)) throw errors.badRequest(`invalid resource version: strconv.ParseUint: parsing ${JSON.stringify(rv)}: invalid syntax`);
  return Number(rv);
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
