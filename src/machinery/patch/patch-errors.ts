/**
 * Patch failures with upstream's status codes and texts. Several upstream
 * texts embed Go-formatted values (`map[a:1 b:[x y]]`), so those are
 * rendered the way Go's fmt would.
 */
import { ApiError, Status, errors } from '../status';
import { kindOf } from './json-values';

/**
 * Upstream's NewGenericServerResponse(422): a generic message and empty
 * details; the real reason only survives here as `cause`, for logs.
 */
export function unprocessable(detail: string): ApiError {
  const status: Status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'the server rejected our request due to an error in our request',
    reason: 'Invalid',
    details: {},
    code: 422,
  };
  const err = new ApiError(status);
  err.cause = detail;
  return err;
}

/** Go's %v (or %s) of a decoded JSON value. */
export function goFormat(v: unknown, verb: 'v' | 's' = 'v'): string {
  switch (kindOf(v)) {
    case 'null':
      return verb === 's' ? '%!s(<nil>)' : '<nil>';
    case 'list':
      return `[${(v as unknown[]).map((x) => goFormat(x, verb)).join(' ')}]`;
    case 'map': {
      const m = v as Record<string, unknown>;
      const keys = Object.keys(m).sort();
      return `map[${keys.map((k) => `${k}:${goFormat(m[k], verb)}`).join(' ')}]`;
    }
    case 'int':
      return verb === 's' ? `%!s(int64=${v})` : String(v);
    case 'float':
      return verb === 's' ? `%!s(float64=${goFloat(v as number)})` : goFloat(v as number);
    case 'bool':
      return verb === 's' ? `%!s(bool=${v})` : String(v);
    default:
      return String(v);
  }
}

/** strconv 'g' with shortest precision, as fmt prints float64 (exponent from 1e+06 on). */
function goFloat(n: number): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NaN' : n > 0 ? '+Inf' : '-Inf';
  const exp = n === 0 ? 0 : Math.floor(Math.log10(Math.abs(n)));
  if (exp >= -4 && exp < 6) return String(n);
  const [mantissa, e] = n.toExponential().split('e');
  return `${mantissa}e${e[0]}${e.slice(1).padStart(2, '0')}`;
}

/** reflect.TypeOf(v).String() for decoded JSON, as mergepatch.ErrBadArgType prints it. */
export function goTypeName(v: unknown): string {
  const names: Record<string, string> = {
    map: 'map[string]interface {}',
    list: '[]interface {}',
    string: 'string',
    int: 'int64',
    float: 'float64',
    bool: 'bool',
    null: '%!s(<nil>)',
  };
  return names[kindOf(v)];
}

export const MAP_TYPE = 'map[string]interface {}';
export const LIST_TYPE = '[]interface {}';

/**
 * Strategic merge errors with upstream's texts. Upstream's
 * interpretStrategicMergePatchError makes the format sentinels 400 and lists
 * of lists 422, but leaves the rest untyped (a 500). Those are all mistakes in
 * the patch, so here they are 400 BadRequest with the same text; only a
 * schema the server declared wrongly stays a 500.
 */
export const smpErrors = {
  badJSONDoc: () => errors.badRequest('invalid JSON document'),
  badPrimitiveList: () => errors.badRequest('invalid patch format of primitive list'),
  badRetainKeys: () => errors.badRequest('invalid patch format of retainKeys'),
  badSetElementOrder: () => errors.badRequest('invalid patch format of setElementOrder list'),
  listOfLists: () => unprocessable('lists of lists are not supported'),
  /** Declared upstream (422) but not raised by its merge code; kept for completeness. */
  contentNotMatchRetainKeys: () => unprocessable("patch content doesn't match retainKeys list"),
  noMergeKey: (m: unknown, key: string) => errors.badRequest(`map: ${goFormat(m)} does not contain declared merge key: ${key}`),
  badArgType: (expected: string, actual: unknown) => errors.badRequest(`expected a ${expected}, but received a ${goTypeName(actual)}`),
  badPatchType: (directive: unknown, m: unknown) =>
    errors.badRequest(`unknown patch type: ${goFormat(directive, 's')} in map: ${goFormat(m)}`),
  /** A patch the merge cannot apply (its lists, its directives). */
  other: (message: string) => errors.badRequest(message),
  /** The declared schema itself is inconsistent: the server's fault. */
  schema: (message: string) => errors.untyped(message),
};
