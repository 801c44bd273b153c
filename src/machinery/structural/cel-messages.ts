/**
 * The errors a CEL rule gives at run time, in upstream's words: a false
 * result reads the messageExpression's result (when it evaluates to a short,
 * one-line, non-empty string), else the message, else `failed rule: <rule>`,
 * typed by `reason`; evaluation errors and the cost budget show the node's
 * schema type as the bad value.
 */
import { COST_LIMIT_EXCEEDED, evaluate, PER_CALL_LIMIT } from '../cel';
import { FieldError, fieldErrors, omitValue } from '../field-errors';
import { goQuote } from '../managed-fields/go-values';
import type { CompiledRule } from './cel-rule-compile';
import { goBadValue } from './go-format';
import type { ValidationRule } from './json-schema-props';

/** One validation call's state: what is left of the budget, whether it ended, what it found. */
export interface Run {
  budget: number;
  stopped: boolean;
  readonly errors: FieldError[];
  readonly warnings: string[];
}

/** Upstream's celconfig.MaxEvaluatedMessageExpressionSizeBytes. */
const MAX_MESSAGE_BYTES = 5 * 1024;

const BUDGET_EXHAUSTED = 'validation failed due to running out of cost budget, no further validation rules will be run';

export const budgetError = (field: string, typeName: string): FieldError => fieldErrors.invalid(field, typeName, BUDGET_EXHAUSTED);

/** Records `e` and ends the validation: nothing runs once the budget or a per-call limit is exceeded. */
export function stopBudget(run: Run, e: FieldError): void {
  run.errors.push(e);
  run.stopped = true;
}

export const evalFailure = (field: string, typeName: string, detail: string): FieldError => fieldErrors.invalid(field, typeName, detail);

/** The rule as error texts name it: its message when it has one. */
const ruleErrorString = (r: ValidationRule) => (r.message ? r.message.trim() : r.rule.trim());

function ruleMessageOrDefault(r: ValidationRule): string {
  return r.message ? r.message.trim() : `failed rule: ${ruleErrorString(r)}`;
}

/** An evaluation error of a rule; `stop` when it used up the per-call limit. */
export function ruleFailure(field: string, typeName: string, err: string, rule: ValidationRule): { error: FieldError; stop: boolean } {
  const name = ruleErrorString(rule);
  if (err.startsWith('no such overload')) {
    // Only dyn values (int-or-string) reach this at run time; the checker catches the rest.
    return { error: evalFailure(field, typeName, `'${err}': call arguments did not match a supported operator, function or macro signature for rule: ${name}`), stop: false };
  }
  if (err.startsWith(COST_LIMIT_EXCEEDED)) {
    return { error: evalFailure(field, typeName, `'${err}': no further validation rules will be run due to call cost exceeds limit for rule: ${name}`), stop: true };
  }
  return { error: evalFailure(field, typeName, `${err} evaluating rule: ${name}`), stop: false };
}

function errorForReason(field: string, shown: { value: unknown } | undefined, detail: string, reason: string | undefined): FieldError {
  const value = shown ? goBadValue(shown.value) : omitValue;
  switch (reason) {
    case 'FieldValueForbidden':
      return fieldErrors.forbidden(field, detail);
    case 'FieldValueRequired':
      return fieldErrors.required(field, detail);
    case 'FieldValueDuplicate':
      return fieldErrors.duplicate(field, value);
    default:
      return fieldErrors.invalid(field, value, detail);
  }
}

/**
 * Adds the error of a rule that evaluated to false. `shown` is the value to
 * print (upstream omits objects and lists); `add` ratchets or records.
 */
export function messageFor(
  run: Run,
  cr: CompiledRule,
  activation: Record<string, unknown>,
  field: string,
  typeName: string,
  shown: { value: unknown } | undefined,
  add: (e: FieldError) => void,
): void {
  let detail: string | undefined;
  if (cr.messageExpression) {
    const res = evaluate(cr.messageExpression, activation, { costLimit: PER_CALL_LIMIT });
    if (res.cost > run.budget) {
      add(fieldErrors.invalid(field, typeName, 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run'));
      run.stopped = true;
      return;
    }
    if (res.error?.startsWith(COST_LIMIT_EXCEEDED)) {
      const src = goQuote(cr.rule.messageExpression ?? '');
      add(fieldErrors.invalid(field, typeName, `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${src}`));
      run.stopped = true;
      return;
    }
    run.budget -= res.cost;
    // Upstream falls back to the message when the result is unusable (it only logs why).
    if (res.error === undefined && typeof res.value === 'string') {
      const text = res.value.trim();
      if (text && Buffer.byteLength(text) <= MAX_MESSAGE_BYTES && !text.includes('\n')) detail = text;
    }
  }
  add(errorForReason(field, shown, detail ?? ruleMessageOrDefault(cr.rule), cr.rule.reason));
}
