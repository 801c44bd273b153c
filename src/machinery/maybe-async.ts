/**
 * Values that are usually at hand and sometimes not: a step answers synchronously when it can (a cached token, a
 * token file) and with a promise only when it must wait. An async function would pay a promise and a trip through
 * the microtask queue for every await, on every request, even when every answer was already at hand; callers test
 * with isPromiseLike and go on with `then` only then.
 */
export type MaybePromise<T> = T | Promise<T>;

export function isPromiseLike(v: unknown): v is PromiseLike<unknown> {
  return typeof (v as { then?: unknown } | null)?.then === 'function';
}
