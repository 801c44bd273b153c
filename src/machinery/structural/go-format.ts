/**
 * JSON values as Go prints them in validation messages. Go decodes a JSON
 * number into int64 when it is an integer and into float64 otherwise; the two
 * print differently (`%v` of a float64 switches to an exponent from 1e+06 on),
 * and field errors show bad values with %v, %q or encoding/json.
 */
import { RenderedValue } from '../field-errors';
import { goJson } from '../managed-fields/go-values';
import { isPlainObject } from '../object';

/** Whether Go's unstructured JSON decoding would hold this number as an int64. */
export const isGoInt = (v: number): boolean => Number.isInteger(v) && Math.abs(v) < 2 ** 63;

/** Go's JSON kind names for a decoded value, as kube-openapi's type validator names them. */
export function goJsonType(v: unknown): { type: string; format: string } {
  if (typeof v === 'boolean') return { type: 'boolean', format: '' };
  if (typeof v === 'string') return { type: 'string', format: '' };
  if (typeof v === 'number') return isGoInt(v) ? { type: 'integer', format: 'int64' } : { type: 'number', format: 'float64' };
  if (Array.isArray(v)) return { type: 'array', format: '' };
  return { type: 'object', format: '' };
}

/** strconv.FormatFloat(f, 'g', -1, 64), which is also fmt's %v for a float64. */
export function goFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mantissa, expText] = f.toExponential().split('e');
  const exp = Number(expText);
  // %v uses an exponent below 1e-4 and from 1e+06 on (shortest precision counts as 6 digits there).
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(f);
}

/** fmt's %v for a decoded JSON number: int64 in decimal, float64 as goFloat. */
export const goNumber = (v: number): string => (isGoInt(v) ? BigInt(v).toString() : goFloat(v));

/**
 * A field error's bad value as upstream's ErrorBody prints it: numbers with
 * %v, lists and maps with encoding/json (sorted keys). Strings, booleans and
 * null print the same in both worlds and are passed through.
 */
export function goBadValue(v: unknown): unknown {
  if (typeof v === 'number') return isGoInt(v) ? v : new RenderedValue(goFloat(v));
  if (Array.isArray(v) || isPlainObject(v)) return new RenderedValue(goJson(v));
  return v === undefined ? null : v;
}

/** fmt's %v of a decoded JSON value (maps print as map[k:v], lists as [a b]). */
export function goV(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'number') return goNumber(v);
  if (Array.isArray(v)) return `[${v.map(goV).join(' ')}]`;
  if (isPlainObject(v)) return `map[${Object.keys(v).sort().map((k) => `${k}:${goV(v[k])}`).join(' ')}]`;
  return String(v);
}

/** fmt's %T of a decoded JSON value. */
export function goTypeName(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'number') return isGoInt(v) ? 'int64' : 'float64';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  return Array.isArray(v) ? '[]interface {}' : 'map[string]interface {}';
}
