/**
 * Evaluates a compiled program under a per-call cost limit. Runtime errors
 * come back as values, never thrown; exceeding the limit gives upstream's
 * text whatever the expression would have returned.
 */
import { isCelError, type CelValue } from '@bufbuild/cel';
import type { Program } from './compile';
import { COST_LIMIT_EXCEEDED, CostTracker, runTracked } from './cost/runtime';

/** Upstream's per-expression limit for CRD rules and admission policies (celconfig.PerCallLimit). */
export const PER_CALL_LIMIT = 1_000_000;

export type EvalResult = { readonly value: CelValue; readonly cost: number; readonly error?: undefined } | { readonly value?: undefined; readonly error: string; readonly cost: number };

/** The library's wording where cel-go's differs and clients may read it. */
const upstreamWording: [RegExp, string][] = [
  [/^field not found: (.*)$/, 'no such key: $1'],
  [/^int divide by zero$/, 'division by zero'],
  [/^int modulus by zero$/, 'modulus by zero'],
  // cel-go's dispatcher says only this; CRD validation keys on the prefix.
  [/^found no matching overload for .*$/s, 'no such overload'],
];

export function evaluate(program: Program, activation: Record<string, unknown>, options: { costLimit?: number } = {}): EvalResult {
  const tracker = new CostTracker(options.costLimit ?? PER_CALL_LIMIT);
  tracker.charge(program.onceCost);
  const result = runTracked(tracker, program.run, activation);
  if (tracker.exceeded) return { error: COST_LIMIT_EXCEEDED, cost: tracker.total };
  if (isCelError(result)) {
    let message = result.message;
    for (const [re, text] of upstreamWording) if (re.test(message)) message = message.replace(re, text);
    return { error: message, cost: tracker.total };
  }
  return { value: result, cost: tracker.total };
}
