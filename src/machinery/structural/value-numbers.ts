/**
 * kube-openapi's number validator: the value's range for its declared
 * integer/number format, then multipleOf, minimum and maximum. A limit is
 * compared in the value's own Go type (an int64 value against the limit
 * truncated to int64, a float64 value as a float), which decides both the
 * outcome and how the limit prints (`1000000` vs `1e+06`).
 */
import { goFloat, isGoInt } from './go-format';
import { OpenAPIError, openAPIErrors, Result } from './value-result';
import type { VNode } from './value-schema';

const int32Min = -(2 ** 31);
const int32Max = 2 ** 31 - 1;
const maxJSONFloat = 2 ** 53 - 1;

/** Go's int64(f) conversion: truncation toward zero. */
const toInt64 = (f: number) => Math.trunc(f);

/** swag.IsFloat64AJSONInteger: integral within 2^53, with a relative tolerance for rounding noise. */
export function isFloat64AJSONInteger(f: number): boolean {
  if (!Number.isFinite(f) || f < -maxJSONFloat || f > maxJSONFloat) return false;
  if (Number.isInteger(f)) return true;
  // Go's uint64(f) of a negative float is far off, so only positive values get the tolerance.
  if (f < 0) return false;
  const g = Math.trunc(f);
  const diff = Math.abs(f - g);
  if (g === 0) return diff < 1e-11 * Number.MIN_VALUE;
  return diff / Math.min(f + g, Number.MAX_VALUE) < 1e-6;
}

/** The declared type and format the range check uses: only when unambiguous and matching. */
function rangeType(node: VNode): { type: string; format: string } {
  if (node.types.length !== 1) return { type: '', format: '' };
  const type = node.types[0];
  if (type === 'integer') return { type, format: node.format === 'int32' || node.format === 'int64' ? node.format : '' };
  if (type === 'number') return { type, format: node.format === 'float' || node.format === 'double' ? node.format : '' };
  return { type: '', format: '' };
}

/** IsValueValidAgainstRange: whether `v` parses as the declared type and format. */
function rangeError(v: number, type: string, format: string, prefix: string, path: string): OpenAPIError | undefined {
  let ok = true;
  if (type === 'integer') ok = isGoInt(v) && (format !== 'int32' || (v >= int32Min && v <= int32Max));
  else if (format === 'float') ok = Number.isFinite(Math.fround(v));
  if (ok) return undefined;
  return openAPIErrors.plain(
    format ? `${prefix} value must be of type ${type} with format ${format} in ${path}` : `${prefix} value must be of type ${type} (default format) in ${path}`,
  );
}

const numberText = (v: number, asInt: boolean) => (asInt ? BigInt(v).toString() : goFloat(v));

function exceeds(path: string, limit: number, asInt: boolean, exclusive: boolean, value: number, max: boolean): OpenAPIError {
  const relation = max ? (exclusive ? 'less than' : 'less than or equal to') : exclusive ? 'greater than' : 'greater than or equal to';
  return { code: max ? 'Max' : 'Min', name: path, value, message: `${path} in body should be ${relation} ${numberText(limit, asInt)}` };
}

function maximum(path: string, v: number, max: number, exclusive: boolean, native: boolean): OpenAPIError | undefined {
  const asInt = native && isGoInt(v);
  const limit = asInt ? toInt64(max) : max;
  return (exclusive ? v >= limit : v > limit) ? exceeds(path, limit, asInt, exclusive, v, true) : undefined;
}

function minimum(path: string, v: number, min: number, exclusive: boolean, native: boolean): OpenAPIError | undefined {
  const asInt = native && isGoInt(v);
  const limit = asInt ? toInt64(min) : min;
  return (exclusive ? v <= limit : v < limit) ? exceeds(path, limit, asInt, exclusive, v, false) : undefined;
}

function multipleOf(path: string, v: number, factor: number, native: boolean): OpenAPIError | undefined {
  const notPositive = (f: number, text: string): OpenAPIError => ({
    code: 'MultipleOfMustBePositive',
    name: path,
    value: f,
    message: `factor MultipleOf declared for ${path} must be positive: ${text}`,
  });
  const notMultiple = (f: string): OpenAPIError => ({ code: 'MultipleOf', name: path, value: v, message: `${path} in body should be a multiple of ${f}` });
  if (native && isGoInt(v)) {
    const f = toInt64(factor);
    if (f <= 0) return notPositive(f, String(f));
    return BigInt(v) % BigInt(f) !== 0n ? notMultiple(String(f)) : undefined;
  }
  if (factor <= 0) return notPositive(factor, goFloat(factor));
  const mult = factor < 1 ? (1 / factor) * v : v / factor;
  return isFloat64AJSONInteger(mult) ? undefined : notMultiple(goFloat(factor));
}

/** The number validator for one numeric value. */
export function validateNumber(node: VNode, path: string, v: number): Result {
  const { type, format } = rangeType(node);
  const res = new Result();
  const checked = rangeError(v, type, format, 'Checked', path);
  if (checked) res.add(checked);
  // Each limit is first range-checked itself; a limit out of range is still applied, as a plain number.
  const limit = (bound: number | undefined, prefix: string, check: (native: boolean) => OpenAPIError | undefined): Result => {
    const r = new Result();
    if (bound === undefined) return r;
    const bad = rangeError(bound, type, format, prefix, path);
    if (bad) r.add(bad);
    const err = check(!bad);
    if (err) r.add(err);
    return r;
  };
  const resMultiple = limit(node.multipleOf, 'MultipleOf', (native) => multipleOf(path, v, node.multipleOf!, native));
  const resMinimum = limit(node.minimum, 'Minimum boundary', (native) => minimum(path, v, node.minimum!, node.exclusiveMinimum, native));
  const resMaximum = limit(node.maximum, 'Maximum boundary', (native) => maximum(path, v, node.maximum!, node.exclusiveMaximum, native));
  return res.merge(resMultiple, resMinimum, resMaximum).inc();
}
