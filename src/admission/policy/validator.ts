/**
 * One policy evaluated for one param object (validating/validator.go): match conditions
 * first (a false one skips the policy; errors follow failurePolicy), then validations
 * with their messages, then audit annotations, into upstream's decisions.
 */
import { fromCelValue, RUNTIME_CEL_COST_BUDGET, type CelValue } from '../../machinery/cel';
import type { Compiled, CompiledPolicy } from './compile';
import { evaluateAll, OutOfBudget, type Evaluation, type Inputs } from './evaluator';

/** celconfig.RuntimeCELCostBudgetMatchConditions. */
export const MATCH_CONDITIONS_BUDGET = 2_500_000;
/** celconfig.MaxEvaluatedMessageExpressionSizeBytes. */
const MAX_MESSAGE_BYTES = 5 * 1024;

export interface Decision {
  action: 'Admit' | 'Deny';
  evaluation: 'Admit' | 'Deny' | 'Error';
  message?: string;
  reason?: string;
}

export type AuditAnnotationResult = { action: 'Publish'; key: string; value: string } | { action: 'Error'; key: string; error: string } | { action: 'Exclude'; key: string };

export interface ValidateResult {
  decisions: Decision[];
  auditAnnotations: AuditAnnotationResult[];
}

const SKIP: ValidateResult = { decisions: [], auditAnnotations: [] };

/** Go's utilerrors.NewAggregate(...).Error(): one message as is, several deduplicated in brackets. */
export function aggregate(messages: readonly string[]): string {
  if (messages.length === 1) return messages[0];
  const seen = [...new Set(messages)];
  return seen.length === 1 ? seen[0] : `[${seen.join(', ')}]`;
}

/** cel-go's name of a value's type, for the audit annotation error. */
function celTypeName(v: CelValue): string {
  if (v === null) return 'null_type';
  switch (typeof v) {
    case 'boolean':
      return 'bool';
    case 'bigint':
      return 'int';
    case 'number':
      return 'double';
    case 'string':
      return 'string';
  }
  if (v instanceof Uint8Array) return 'bytes';
  const plain = fromCelValue(v);
  if (Array.isArray(plain)) return 'list';
  if (plain && typeof plain === 'object') return 'map';
  return typeof plain === 'string' ? 'string' : 'dyn';
}

/** The expression lists a policy runs, made once per compiled policy; messages undefined when it has no messageExpression. */
interface Runs {
  matchConditions: (Compiled | undefined)[];
  validations: (Compiled | undefined)[];
  messages?: (Compiled | undefined)[];
  auditAnnotations: (Compiled | undefined)[];
}
const runsOf = new WeakMap<CompiledPolicy, Runs>();

function runs(policy: CompiledPolicy): Runs {
  let r = runsOf.get(policy);
  if (!r) {
    const messages = policy.validations.map((v) => v.messageExpression);
    r = {
      matchConditions: policy.matchConditions.map((m) => m.compiled),
      validations: policy.validations.map((v) => v.expression),
      messages: messages.some((m) => m) ? messages : undefined,
      auditAnnotations: policy.auditAnnotations.map((a) => a.compiled),
    };
    runsOf.set(policy, r);
  }
  return r;
}

/** What validations read; messages and audit annotations read the same inputs without `authorizer`. */
export type ValidationInputs = Inputs & { withoutAuthorizer(): Inputs };

const failure = (action: Decision['action'], message: string): ValidateResult => ({ decisions: [{ action, evaluation: 'Error', message }], auditAnnotations: [] });

export function validate(policy: CompiledPolicy, failurePolicy: string, inputs: ValidationInputs): ValidateResult {
  const run = runs(policy);
  const onError: Decision['action'] = failurePolicy === 'Ignore' ? 'Admit' : 'Deny';

  if (policy.matchConditions.length) {
    let results: Evaluation[];
    try {
      results = evaluateAll(
        run.matchConditions,
        policy.variables,
        inputs,
        MATCH_CONDITIONS_BUDGET,
      ).results;
    } catch (e) {
      if (!(e instanceof OutOfBudget)) throw e;
      return failurePolicy === 'Ignore' ? SKIP : failure(onError, e.message);
    }
    const errors: string[] = [];
    for (const r of results) {
      if (r?.error !== undefined) errors.push(r.error);
      else if (r?.value === false) return SKIP;
    }
    if (errors.length) return failurePolicy === 'Ignore' ? SKIP : failure(onError, aggregate(errors));
  }

  let evaluations: Evaluation[];
  let remaining: number;
  try {
    ({ results: evaluations, remaining } = evaluateAll(
      run.validations,
      policy.variables,
      inputs,
      RUNTIME_CEL_COST_BUDGET,
    ));
  } catch (e) {
    if (!(e instanceof OutOfBudget)) throw e;
    return failure(onError, e.message);
  }
  let messages: Evaluation[] = [];
  let messageFailure: string | undefined;
  try {
    // Without any messageExpression there is nothing to run (and no cost to charge).
    if (run.messages) messages = evaluateAll(run.messages, policy.variables, inputs.withoutAuthorizer(), remaining).results;
  } catch (e) {
    if (!(e instanceof OutOfBudget)) throw e;
    messageFailure = `failed messageExpression: ${e.message}`;
  }
  const decisions = policy.validations.map(({ validation }, i): Decision => {
    const r = evaluations[i]!;
    if (r.error !== undefined) return { action: onError, evaluation: 'Error', message: r.error };
    // Out of budget on messages fails every validation of the run, passing ones too (as upstream).
    if (messageFailure) return { action: onError, evaluation: 'Error', message: messageFailure };
    if (r.value === true) return { action: 'Admit', evaluation: 'Admit' };
    return { action: 'Deny', evaluation: 'Deny', reason: validation.reason ?? 'Invalid', message: denialMessage(messages[i], validation) };
  });

  if (!run.auditAnnotations.length) return { decisions, auditAnnotations: [] };
  let annotations: Evaluation[];
  try {
    // Upstream binds no authorizer for audit annotations (it declares one): using it fails at run time.
    annotations = evaluateAll(run.auditAnnotations, policy.variables, inputs.withoutAuthorizer(), RUNTIME_CEL_COST_BUDGET).results;
  } catch (e) {
    if (!(e instanceof OutOfBudget)) throw e;
    return failure(onError, e.message);
  }
  const auditAnnotations = policy.auditAnnotations.map(({ annotation }, i): AuditAnnotationResult => {
    const r = annotations[i]!;
    const key = annotation.key;
    if (r.error !== undefined) return failurePolicy === 'Ignore' ? { action: 'Exclude', key } : { action: 'Error', key, error: r.error };
    if (r.value === null) return { action: 'Exclude', key };
    if (typeof r.value !== 'string') {
      const error = `valueExpression '${annotation.valueExpression}' resulted in unsupported return type: ${celTypeName(r.value)}. Return type must be either string or null.`;
      return { action: 'Error', key, error };
    }
    const value = r.value.trim();
    return value ? { action: 'Publish', key, value } : { action: 'Exclude', key };
  });
  return { decisions, auditAnnotations };
}

function denialMessage(m: Evaluation, validation: { expression: string; message?: string }): string {
  let message = '';
  if (m?.error === undefined && typeof m?.value === 'string') {
    message = m.value.trim();
    // Too long or multi-line messages fall back to the static one.
    if (Buffer.byteLength(message) > MAX_MESSAGE_BYTES || message.includes('\n')) message = '';
  }
  if (!message && validation.message) message = validation.message.trim();
  return message || `failed expression: ${validation.expression.trim()}`;
}
