/**
 * IntOrString checks used by PodDisruptionBudget minAvailable/maxUnavailable:
 * upstream apps validation ValidatePositiveIntOrPercent and
 * IsNotMoreThan100Percent (1.32). Upstream shows the offending value with
 * Go's %#v of the IntOrString struct, reproduced here.
 */
import { FieldError, FieldPath, RenderedValue, fieldErrors } from '../field-errors';
import { regexError } from './names';
import { IS_NEGATIVE_ERROR_MSG } from './object-meta';

export type IntOrString = number | string;

const PERCENT_FMT = '[0-9]+%';
const percentRe = /^[0-9]+%$/;

export function isValidPercent(percent: string): string[] {
  if (percentRe.test(percent)) return [];
  return [regexError("a valid percent string must be a numeric string followed by an ending '%'", PERCENT_FMT, '1%', '93%')];
}

/** `intstr.IntOrString{Type:1, IntVal:0, StrVal:"50%"}` — how upstream prints these values. */
export function renderIntOrString(v: IntOrString): RenderedValue {
  return typeof v === 'string'
    ? new RenderedValue(`intstr.IntOrString{Type:1, IntVal:0, StrVal:${JSON.stringify(v)}}`)
    : new RenderedValue(`intstr.IntOrString{Type:0, IntVal:${v}, StrVal:""}`);
}

/** A non-negative integer, or a percentage string `N%`. */
export function validatePositiveIntOrPercent(v: unknown, path: FieldPath | string): FieldError[] {
  if (typeof v === 'string') return isValidPercent(v).map((msg) => fieldErrors.invalid(path, renderIntOrString(v), msg));
  if (typeof v === 'number' && Number.isInteger(v)) return v < 0 ? [fieldErrors.invalid(path, v, IS_NEGATIVE_ERROR_MSG)] : [];
  // Upstream passes this text without formatting, so the doubled '%' is shown as is.
  return [fieldErrors.invalid(path, v, "must be an integer or percentage (e.g '5%%')")];
}

/** Percentages above 100 are rejected; integers and malformed strings are left to the check above. */
export function isNotMoreThan100Percent(v: unknown, path: FieldPath | string): FieldError[] {
  if (typeof v !== 'string' || isValidPercent(v).length) return [];
  if (BigInt(v.slice(0, -1)) <= 100n) return [];
  return [fieldErrors.invalid(path, renderIntOrString(v), 'must not be greater than 100%')];
}

/** Both checks, in upstream's order (what PDB runs for each of its two fields). */
export function validateIntOrPercent(v: unknown, path: FieldPath | string): FieldError[] {
  return [...validatePositiveIntOrPercent(v, path), ...isNotMoreThan100Percent(v, path)];
}
