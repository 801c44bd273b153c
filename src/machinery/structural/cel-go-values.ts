/**
 * How upstream prints a ValidationRule as the bad value of a compile error:
 * the internal Go struct through %#v, since it has no String method.
 */
import { RenderedValue } from '../field-errors';
import { goQuote } from '../managed-fields/go-values';
import type { ValidationRule } from './json-schema-props';

/**
 * Go prints a set pointer field as its address, which differs from run to
 * run; we print a fixed one, so only the pointer fields' text is not upstream's.
 */
const SOME_ADDRESS = '0xc000000000';

const pointer = (type: string, v: unknown) => `(*${type})(${v === undefined || v === null ? 'nil' : SOME_ADDRESS})`;

export function goRuleValue(r: ValidationRule): RenderedValue {
  return new RenderedValue(
    `apiextensions.ValidationRule{Rule:${goQuote(r.rule ?? '')}, Message:${goQuote(r.message ?? '')}, ` +
      `MessageExpression:${goQuote(r.messageExpression ?? '')}, Reason:${pointer('apiextensions.FieldValueErrorReason', r.reason)}, ` +
      `FieldPath:${goQuote(r.fieldPath ?? '')}, OptionalOldSelf:${pointer('bool', r.optionalOldSelf)}}`,
  );
}
