/**
 * Values that are usually at hand and sometimes not: a step answers synchronously when it can (a cached token, a
 * token file) and with a promise only when it must wait. An async function would pay a promise and a trip through
 * the microtask queue for every await, on every request, even when every answer was already at hand; callers go on
 * with andThen, which waits only for a promise.
 */
export type MaybePromise<T> = T | Promise<T>;

export function isPromiseLike(v: unknown): v is PromiseLike<unknown> {
  return typeof (v as { then?: unknown } | null)?.then === 'function';
}

/** f(v), at once when v is at hand, else once it resolves (a rejection passes through). */
export function andThen<T, R>(v: MaybePromise<T>, f: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return isPromiseLike(v) ? (v as Promise<T>).then(f) : f(v);
}
