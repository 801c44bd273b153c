/**
 * metav1.Condition lists, as upstream's ValidateConditions (apimachinery
 * meta/v1/validation): shared by every status that carries conditions.
 */
import { FieldError, FieldPath, fieldErrors } from '../field-errors';
import { regexError } from './names';
import { validateLabelName } from './object-meta';

export interface MetaCondition {
  type?: string;
  status?: string;
  observedGeneration?: number;
  lastTransitionTime?: string | null;
  reason?: string;
  message?: string;
}

const statuses = ['False', 'True', 'Unknown'];
const maxReasonLen = 1024;
const maxMessageLen = 32 * 1024;
const REASON_FMT = '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?';
const reasonRe = new RegExp(`^(?:${REASON_FMT})$`);
const reasonMsg = regexError(
  "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'",
  REASON_FMT,
  'my_name',
  'MY_NAME',
  'MyName',
  'ReasonA,ReasonB',
  'ReasonA:ReasonB',
);

/** Go decodes an absent or unreadable time to the zero time, which counts as unset. */
function isUnsetTime(t: string | null | undefined): boolean {
  if (!t) return true;
  const ms = Date.parse(t);
  return Number.isNaN(ms) || ms === Date.parse('0001-01-01T00:00:00Z');
}

export function validateCondition(c: MetaCondition, p: FieldPath): FieldError[] {
  const errs = validateLabelName(c.type ?? '', p.child('type'));
  if (!statuses.includes(c.status ?? '')) errs.push(fieldErrors.notSupported(p.child('status'), c.status ?? '', statuses));
  if ((c.observedGeneration ?? 0) < 0) {
    errs.push(fieldErrors.invalid(p.child('observedGeneration'), c.observedGeneration, 'must be greater than or equal to zero'));
  }
  if (isUnsetTime(c.lastTransitionTime)) errs.push(fieldErrors.required(p.child('lastTransitionTime'), 'must be set'));
  const reason = c.reason ?? '';
  if (!reason) errs.push(fieldErrors.required(p.child('reason'), 'must be set'));
  else {
    if (!reasonRe.test(reason)) errs.push(fieldErrors.invalid(p.child('reason'), reason, reasonMsg));
    if (Buffer.byteLength(reason) > maxReasonLen) errs.push(fieldErrors.tooLong(p.child('reason'), maxReasonLen));
  }
  if (Buffer.byteLength(c.message ?? '') > maxMessageLen) errs.push(fieldErrors.tooLong(p.child('message'), maxMessageLen));
  return errs;
}

export function validateConditions(conditions: MetaCondition[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (conditions ?? []).forEach((c, i) => {
    const type = c.type ?? '';
    if (seen.has(type)) errs.push(fieldErrors.duplicate(path.index(i).child('type'), type));
    seen.add(type);
    errs.push(...validateCondition(c, path.index(i)));
  });
  return errs;
}
