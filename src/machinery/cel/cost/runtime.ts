/**
 * Runtime cost: a per-evaluation counter that loop guards (instrument.ts)
 * and size-dependent library functions charge. Evaluation is synchronous, so
 * the active counter is simply the innermost one being evaluated.
 */
import { celFunc, CelScalar } from '@bufbuild/cel';

export const COST_LIMIT_EXCEEDED = 'operation cancelled: actual cost limit exceeded';

export class CostTracker {
  total = 0;
  exceeded = false;
  constructor(readonly limit: number) {}

  charge(units: number): boolean {
    this.total += units;
    if (this.total > this.limit) this.exceeded = true;
    return !this.exceeded;
  }
}

let active: CostTracker | undefined;

/** Adds to the running evaluation's cost; false once its limit is passed (callers then stop early). */
export function chargeRuntime(units: number): boolean {
  return active ? active.charge(units) : true;
}

/** `run(arg)` with `tracker` charged; no closure to make on the hot path. */
export function runTracked<A, R>(tracker: CostTracker, run: (arg: A) => R, arg: A): R {
  const outer = active;
  active = tracker;
  try {
    return run(arg);
  } finally {
    active = outer;
  }
}

/** Name of the guard instrument.ts puts in front of every loop condition; `@` keeps it out of users' reach. */
export const LOOP_GUARD = '@cost_guard';

/** Charges one iteration's cost; false ends the loop once the limit is passed. */
export const loopGuard = celFunc(LOOP_GUARD, [CelScalar.INT], CelScalar.BOOL, (units: bigint) => chargeRuntime(Number(units)));
