/** metav1.Condition list validation (upstream-resources §0.9), with upstream's messages. */
import { FieldError, FieldPath, fieldErrors } from '../../machinery/field-errors';
import { byteLength, regexError } from '../../machinery/validation/names';
import { validateLabelName } from '../../machinery/validation/object-meta';
import { parseTime } from '../certificate-signing-request/certificates-wire';

export interface MetaCondition {
  type?: string;
  status?: string;
  observedGeneration?: number;
  lastTransitionTime?: string | null;
  reason?: string;
  message?: string;
}

const STATUSES = ['False', 'True', 'Unknown'];
const MAX_REASON = 1024;
const MAX_MESSAGE = 32 * 1024;
const REASON_FMT = '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?';
const reasonRe = new RegExp(`^${REASON_FMT}$`);
const REASON_MSG =
  "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'";

export function validateCondition(c: MetaCondition, path: FieldPath): FieldError[] {
  const errs = validateLabelName(c.type ?? '', path.child('type'));
  const status = c.status ?? '';
  if (!STATUSES.includes(status)) errs.push(fieldErrors.notSupported(path.child('status'), status, STATUSES));
  if ((c.observedGeneration ?? 0) < 0) {
    errs.push(fieldErrors.invalid(path.child('observedGeneration'), c.observedGeneration, 'must be greater than or equal to zero'));
  }
  if (parseTime(c.lastTransitionTime) === undefined) errs.push(fieldErrors.required(path.child('lastTransitionTime'), 'must be set'));
  const reason = c.reason ?? '';
  if (reason === '') {
    errs.push(fieldErrors.required(path.child('reason'), 'must be set'));
  } else {
    if (!reasonRe.test(reason)) {
      errs.push(fieldErrors.invalid(path.child('reason'), reason, regexError(REASON_MSG, REASON_FMT, 'my_name', 'MY_NAME', 'MyName', 'ReasonA,ReasonB', 'ReasonA:ReasonB')));
    }
    if (byteLength(reason) > MAX_REASON) errs.push(fieldErrors.tooLong(path.child('reason'), MAX_REASON));
  }
  if (byteLength(c.message ?? '') > MAX_MESSAGE) errs.push(fieldErrors.tooLong(path.child('message'), MAX_MESSAGE));
  return errs;
}

export function validateConditions(conditions: MetaCondition[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  conditions.forEach((c, i) => {
    const type = c.type ?? '';
    if (seen.has(type)) errs.push(fieldErrors.duplicate(path.index(i).child('type'), type));
    seen.add(type);
    errs.push(...validateCondition(c, path.index(i)));
  });
  return errs;
}
