/** Shared assertions for the patch tests. */
import { ApiError, Status } from '../../../src/machinery/status';

/** Runs fn, expects an ApiError, returns its Status body. */
export function statusOf(fn: () => unknown): Status {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e.status;
    throw e;
  }
  throw new Error('expected an ApiError, but the call succeeded');
}

/** Every object key anywhere in v. */
export function allKeys(v: unknown, out: string[] = []): string[] {
  if (Array.isArray(v)) v.forEach((x) => allKeys(x, out));
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      out.push(k);
      allKeys(x, out);
    }
  }
  return out;
}

export const GENERIC_422: Status = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'the server rejected our request due to an error in our request',
  reason: 'Invalid',
  details: {},
  code: 422,
};
