/**
 * metav1.Condition checks as upstream's ValidateConditions (apimachinery
 * meta/v1/validation), used for PDB status.conditions.
 */
import { FieldError, FieldPath, fieldErrors } from '../../machinery/field-errors';
import { regexError } from '../../machinery/validation/names';
import { validateLabelName } from '../../machinery/validation/object-meta';

/** The condition the disruption controller maintains, and its reasons (spec §3.3; the list may grow). */
export const DISRUPTION_ALLOWED = 'DisruptionAllowed';
export const DisruptionAllowedReasons = { syncFailed: 'SyncFailed', insufficientPods: 'InsufficientPods', sufficientPods: 'SufficientPods' } as const;

export interface Condition {
  type?: string;
  status?: string;
  observedGeneration?: number;
  lastTransitionTime?: string;
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

/** Go's zero time decodes from an absent value or from year 1. */
function isZeroTime(t: string | undefined): boolean {
  return !t || Date.parse(t) === Date.parse('0001-01-01T00:00:00Z');
}

export function validateConditions(conditions: Condition[] | undefined, path: FieldPath): FieldError[] {
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

function validateCondition(c: Condition, p: FieldPath): FieldError[] {
  const errs = validateLabelName(c.type ?? '', p.child('type'));
  if (!statuses.includes(c.status ?? '')) errs.push(fieldErrors.notSupported(p.child('status'), c.status ?? '', statuses));
  if ((c.observedGeneration ?? 0) < 0) {
    errs.push(fieldErrors.invalid(p.child('observedGeneration'), c.observedGeneration, 'must be greater than or equal to zero'));
  }
  if (isZeroTime(c.lastTransitionTime)) errs.push(fieldErrors.required(p.child('lastTransitionTime'), 'must be set'));
  const reason = c.reason ?? '';
  if (!reason) errs.push(fieldErrors.required(p.child('reason'), 'must be set'));
  else {
    if (!reasonRe.test(reason)) errs.push(fieldErrors.invalid(p.child('reason'), reason, reasonMsg));
    if (Buffer.byteLength(reason) > maxReasonLen) errs.push(fieldErrors.tooLong(p.child('reason'), maxReasonLen));
  }
  if (Buffer.byteLength(c.message ?? '') > maxMessageLen) errs.push(fieldErrors.tooLong(p.child('message'), maxMessageLen));
  return errs;
}
