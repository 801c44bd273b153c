/**
 * Runs a list of compiled expressions over one activation under a shared cost budget, as
 * upstream's ConditionEvaluator.ForInput with variable composition: each run gets its own
 * `variables`, a map whose entries are evaluated on first read and kept, their cost charged
 * to the budget after the expression that read them. Each expression (and each variable)
 * also stays under the per-call limit. Running out of budget stops the whole run.
 */
import { celError, type CelMap } from '@bufbuild/cel';
import { evaluate, PER_CALL_LIMIT, type CelValue } from '../../machinery/cel';
import type { Compiled } from './compile';

export const OUT_OF_BUDGET = 'validation failed due to running out of cost budget, no further validation rules will be run';

export class OutOfBudget extends Error {
  constructor() {
    super(OUT_OF_BUDGET);
  }
}

export type Evaluation = { readonly value: CelValue; readonly error?: undefined } | { readonly value?: undefined; readonly error: string } | undefined;

/** The bufbuild runtime recognises its maps by this registered symbol; a map of our own must carry it. */
const CEL_MAP = Symbol.for('@bufbuild/cel/map');

/** `variables`: declared names, each evaluated when first read. */
class LazyVariables implements ReadonlyMap<string, CelValue> {
  readonly [CEL_MAP] = {};
  private readonly cache = new Map<string, CelValue>();
  cost = 0;

  constructor(
    private readonly compiled: ReadonlyMap<string, Compiled>,
    private readonly activation: Record<string, unknown>,
  ) {}

  get(key: unknown): CelValue | undefined {
    if (typeof key !== 'string') return undefined;
    const c = this.compiled.get(key);
    if (!c) return undefined;
    let v = this.cache.get(key);
    if (v === undefined) {
      v = this.evaluate(key, c);
      this.cache.set(key, v);
    }
    return v;
  }

  private evaluate(name: string, c: Compiled): CelValue {
    if (c.error !== undefined) return celError(`composited variable "${name}" fails to compile: ${c.error}`) as unknown as CelValue;
    const r = evaluate(c.program, this.activation, { costLimit: PER_CALL_LIMIT });
    this.cost += r.cost;
    if (r.error !== undefined) return celError(`composited variable "${name}" fails to evaluate: ${r.error}`) as unknown as CelValue;
    return r.value;
  }

  has(key: unknown): boolean {
    return typeof key === 'string' && this.compiled.has(key);
  }
  get size(): number {
    return this.compiled.size;
  }
  *entries(): MapIterator<[string, CelValue]> {
    for (const k of this.compiled.keys()) yield [k, this.get(k)!];
  }
  keys(): MapIterator<string> {
    return this.compiled.keys();
  }
  *values(): MapIterator<CelValue> {
    for (const k of this.compiled.keys()) yield this.get(k)!;
  }
  forEach(cb: (value: CelValue, key: string, map: ReadonlyMap<string, CelValue>) => void): void {
    for (const [k, v] of this.entries()) cb(v, k, this);
  }
  [Symbol.iterator](): MapIterator<[string, CelValue]> {
    return this.entries();
  }
}

/** The `variables` of a policy that declares none (most): nothing to evaluate, nothing to charge. */
const NO_VARIABLES = new LazyVariables(new Map(), {});

/** The variables every expression may read (object, request, ...) as properties; each run sets `variables`. */
export type Inputs = { variables?: unknown };

/**
 * Evaluates `expressions` in order (undefined entries stand for absent ones) with a fresh
 * `variables`; returns the results and the budget left, or throws OutOfBudget.
 */
export function evaluateAll(expressions: readonly (Compiled | undefined)[], variables: ReadonlyMap<string, Compiled>, inputs: Inputs, budget: number): { results: Evaluation[]; remaining: number } {
  // The inputs are the activation, their `variables` this run's own: copying them would build every lazy one.
  const activation = inputs as Record<string, unknown>;
  const lazy = variables.size ? new LazyVariables(variables, activation) : NO_VARIABLES;
  activation.variables = lazy as unknown as CelMap;
  let remaining = budget;
  const results: Evaluation[] = [];
  for (const c of expressions) {
    if (!c) {
      results.push(undefined);
      continue;
    }
    if (c.error !== undefined) {
      results.push({ error: `compilation error: ${c.error}` });
      continue;
    }
    const r = evaluate(c.program, activation, { costLimit: PER_CALL_LIMIT });
    const composition = lazy.cost;
    lazy.cost = 0;
    if (composition > remaining) throw new OutOfBudget();
    remaining -= composition;
    if (r.cost > remaining) throw new OutOfBudget();
    remaining -= r.cost;
    results.push(r.error !== undefined ? { error: `expression '${c.source}' resulted in error: ${r.error}` } : { value: r.value });
  }
  return { results, remaining };
}
