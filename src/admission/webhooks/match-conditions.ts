/**
 * A webhook's matchConditions, as upstream's matchconditions matcher: every
 * condition is evaluated (under one cost budget per webhook), a `false`
 * skips the webhook whatever else happened, and evaluation errors follow the
 * webhook's failurePolicy: Fail refuses the request, Ignore skips the
 * webhook. Variables: object, oldObject and request (without uid and
 * objects) as dyn, since the configuration kinds type-check the expressions
 * when they are written; `authorizer` and `authorizer.requestResource` with
 * the authz library, checking as the request's user.
 */
import { AUTHORIZER_TYPE, CelEnvironment, compileRule, evaluate, PER_CALL_LIMIT, RESOURCE_CHECK_TYPE, T, type Program } from '../../machinery/cel';

export interface MatchConditionJson {
  name: string;
  expression: string;
}

export interface CompiledCondition {
  readonly name: string;
  readonly expression: string;
  readonly program?: Program;
  readonly compileError?: string;
}

/** Upstream's budget for one webhook's match conditions (celconfig.RuntimeCELCostBudgetMatchConditions). */
export const MATCH_CONDITIONS_COST_BUDGET = 2_500_000;

const dyn = { type: T.dyn };
let environment: CelEnvironment | undefined;

function env(): CelEnvironment {
  const vars = { object: dyn, oldObject: dyn, request: dyn, authorizer: { type: AUTHORIZER_TYPE }, 'authorizer.requestResource': { type: RESOURCE_CHECK_TYPE } };
  return (environment ??= new CelEnvironment(vars));
}

export function compileConditions(conditions: readonly MatchConditionJson[]): CompiledCondition[] {
  return conditions.map((c) => {
    const compiled = compileRule(c.expression ?? '', env());
    return compiled.error !== undefined
      ? { name: c.name, expression: c.expression, compileError: compiled.error }
      : { name: c.name, expression: c.expression, program: compiled.program };
  });
}

export type ConditionsOutcome = { matches: boolean; error?: undefined } | { matches?: undefined; error: string };

/** utilerrors.NewAggregate(...).Error(): one message as it is, several deduplicated in brackets. */
function aggregate(messages: string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}

/** Whether the webhook is called: upstream's Match with the webhook's failure policy applied. */
export function matchConditions(conditions: readonly CompiledCondition[], activation: Record<string, unknown>, failOpen: boolean): ConditionsOutcome {
  let remaining = MATCH_CONDITIONS_COST_BUDGET;
  const results: Array<{ value?: unknown; error?: string }> = [];
  for (const c of conditions) {
    if (!c.program) {
      results.push({ error: `compilation error: ${c.compileError}` });
      continue;
    }
    const r = evaluate(c.program, activation, { costLimit: PER_CALL_LIMIT });
    if (r.cost > remaining) {
      // The whole evaluation fails, before any condition's result counts (upstream's ForInput error).
      return failOpen ? { matches: false } : { error: 'validation failed due to running out of cost budget, no further validation rules will be run' };
    }
    remaining -= r.cost;
    results.push(r.error !== undefined ? { error: `expression '${c.expression}' resulted in error: ${r.error}` } : { value: r.value });
  }
  const errors: string[] = [];
  for (const r of results) {
    if (r.error !== undefined) errors.push(r.error);
    else if (r.value === false) return { matches: false };
  }
  if (errors.length) return failOpen ? { matches: false } : { error: aggregate(errors) };
  return { matches: true };
}
