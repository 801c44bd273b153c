/**
 * Decoded JSON values seen through Go's reflect, as client-go's JSONPath sees
 * them: kinds for comparisons (an int64 never equals a float64, a string
 * never compares with a number) and text for printing (%v for scalars,
 * encoding/json for lists and maps, `<no value>` for null).
 */
import { goJson } from '../managed-fields/go-values';
import { isPlainObject } from '../object';
import { goFloat } from '../structural/go-format';

/** A float literal from a template (`1.0`), which stays a float64 even when integral. */
export class GoFloat {
  constructor(readonly value: number) {}
}

type Kind = 'bool' | 'int' | 'float' | 'string' | 'invalid';

const isGoInt = (v: number) => Number.isInteger(v) && Math.abs(v) < 2 ** 63;

function kindOf(v: unknown): Kind {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  if (v instanceof GoFloat) return 'float';
  if (typeof v === 'number') return isGoInt(v) ? 'int' : 'float';
  return 'invalid';
}

const num = (v: unknown) => (v instanceof GoFloat ? v.value : (v as number));

/** The Go type name of a decoded JSON value, for error messages. */
export function goTypeOf(v: unknown): string {
  if (isPlainObject(v)) return 'map[string]interface {}';
  if (Array.isArray(v)) return '[]interface {}';
  const k = kindOf(v);
  return k === 'int' ? 'int64' : k === 'float' ? 'float64' : k === 'invalid' ? 'interface {}' : k;
}

function equal(a: unknown, b: unknown): boolean {
  const [ka, kb] = [kindOf(a), kindOf(b)];
  if (ka === 'invalid' || kb === 'invalid') throw new Error('invalid type for comparison');
  if (ka !== kb) throw new Error('incompatible types for comparison');
  return ka === 'int' || ka === 'float' ? num(a) === num(b) : a === b;
}

function less(a: unknown, b: unknown): boolean {
  const [ka, kb] = [kindOf(a), kindOf(b)];
  if (ka === 'invalid' || kb === 'invalid') throw new Error('invalid type for comparison');
  if (ka !== kb) throw new Error('incompatible types for comparison');
  if (ka === 'bool') throw new Error('invalid type for comparison');
  if (ka === 'string') return (a as string) < (b as string);
  return num(a) < num(b);
}

/** A filter comparison, with text/template's errors for values of different kinds. */
export function compareGo(a: unknown, b: unknown, operator: string): boolean {
  switch (operator) {
    case '==':
      return equal(a, b);
    case '!=':
      return !equal(a, b);
    case '<':
      return less(a, b);
    case '<=':
      return less(a, b) || equal(a, b);
    case '>':
      return !(less(a, b) || equal(a, b));
    case '>=':
      return !less(a, b);
    default:
      throw new Error(`unrecognized filter operator ${operator}`);
  }
}

/**
 * How PrintResults writes one value: JSON for lists and maps, fmt.Print for
 * the rest. A null found in the object prints `null`; one handed over bare
 * (as the table convertor does) prints `<no value>`.
 */
export function printValue(v: unknown, bareNull = false): string {
  if (v === undefined || v === null) return bareNull ? '<no value>' : 'null';
  if (Array.isArray(v) || isPlainObject(v)) return goJson(v);
  if (v instanceof GoFloat) return goFloat(v.value);
  if (typeof v === 'number') return isGoInt(v) ? BigInt(v).toString() : goFloat(v);
  return String(v);
}
