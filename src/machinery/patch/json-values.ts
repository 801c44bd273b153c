/** Small helpers over decoded JSON values shared by the patch mechanisms. */
import { deepEqual, isPlainObject } from '../object';
import { errors } from '../status';

export type JsonMap = Record<string, unknown>;

export { isPlainObject };

/** Own keys only: `constructor` or `toString` in a patch must not match Object.prototype. */
export function has(obj: JsonMap, key: string): boolean {
  return Object.hasOwn(obj, key);
}

export { putMember as put } from '../object';

/** The distinctions Go's reflect.TypeOf makes on decoded JSON (ints are kept as int64, others float64). */
export type ValueKind = 'map' | 'list' | 'string' | 'int' | 'float' | 'bool' | 'null';

export function kindOf(v: unknown): ValueKind {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'list';
  if (typeof v === 'object') return 'map';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'boolean') return 'bool';
  return 'string';
}

/** Go's `==` on decoded scalars; containers compare structurally rather than panicking as Go would. */
export function same(a: unknown, b: unknown): boolean {
  return a === b || (typeof a === 'object' && a !== null && deepEqual(a, b));
}

/** The word encoding/json uses in "cannot unmarshal <word> into Go value of type ...". */
export function jsonWord(v: unknown): string {
  switch (kindOf(v)) {
    case 'map':
      return 'object';
    case 'list':
      return 'array';
    case 'int':
    case 'float':
      return 'number';
    case 'bool':
      return 'bool';
    default:
      return typeof v === 'string' ? 'string' : 'null';
  }
}

/** Accepts an already-decoded body, or raw bytes that the HTTP layer did not parse. */
export function decodeBody(body: unknown): unknown {
  if (!(body instanceof Uint8Array)) return body;
  try {
    return JSON.parse(Buffer.from(body).toString('utf8'));
  } catch {
    // upstream's validateAndTranscodePatch rejects undecodable bodies before any patch logic
    throw errors.badRequest('invalid JSON patch');
  }
}
