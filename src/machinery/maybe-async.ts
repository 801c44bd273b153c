/**
 * Steps that are usually synchronous and sometimes not, written once: a
 * generator yields each value it needs, promise or not, and gets it back
 * resolved. It runs synchronously until a yielded value is a promise, and
 * only then goes on asynchronously. An async function would pay a promise
 * and a trip through the microtask queue for every await, on every request,
 * even when every answer was already at hand (a cached token, a token file).
 */
export type MaybePromise<T> = T | Promise<T>;

export function isPromiseLike(v: unknown): v is PromiseLike<unknown> {
  return typeof (v as { then?: unknown } | null)?.then === 'function';
}

/** The generator's result, synchronously when it never waited; a throw inside it throws here or rejects. (Its yields come back as `any`: each has its own type, which the generator states.) */
export function runMaybeAsync<R>(steps: Generator<unknown, R, any>): MaybePromise<R> {
  let step = steps.next();
  while (!step.done) {
    if (isPromiseLike(step.value)) return continueAsync(steps, step.value);
    step = steps.next(step.value);
  }
  return step.value;
}

async function continueAsync<R>(steps: Generator<unknown, R, any>, pending: PromiseLike<unknown>): Promise<R> {
  let value: unknown = pending;
  for (;;) {
    let step: IteratorResult<unknown, R>;
    if (isPromiseLike(value)) {
      // A rejection goes into the generator, as an await's would (its try/catch sees it).
      let resolved: unknown;
      let rejected: { reason: unknown } | undefined;
      try {
        resolved = await value;
      } catch (reason) {
        rejected = { reason };
      }
      step = rejected ? steps.throw(rejected.reason) : steps.next(resolved);
    } else step = steps.next(value);
    if (step.done) return step.value;
    value = step.value;
  }
}
