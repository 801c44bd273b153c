/**
 * Kubernetes resource Quantities, parsed and serialized as upstream's
 * api/resource Quantity (1.32) with exact BigInt arithmetic: the value is
 * `unscaled × 10^scale`. String() rules reproduced, including that some
 * inputs are kept verbatim (e.g. `100M`, `1Ki`, `+1k`, `12e6`) while others are
 * rewritten (`1.5Gi` → `1536Mi`, `0.5` → `500m`, `1000` → `1k`).
 */

export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI';

export interface Quantity {
  readonly unscaled: bigint;
  readonly scale: number;
  readonly format: QuantityFormat;
  /** The input text, when upstream keeps it as the serialization. */
  readonly original?: string;
}

export const QUANTITY_FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
export const QUANTITY_NUMERIC_ERROR = 'unable to parse numeric part of quantity';
export const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix";

export class QuantityError extends Error {
  override readonly name = 'QuantityError';
}

const MAX_INT64 = 2n ** 63n - 1n;
const MIN_INT64 = -(2n ** 63n);
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const pow10 = (n: number) => 10n ** BigInt(n);
const abs = (n: bigint) => (n < 0n ? -n : n);

interface Parts {
  positive: boolean;
  value: string;
  num: string;
  denom: string;
  suffix: string;
}

/** Upstream parseQuantityString: sign, digits (leading zeros dropped), fraction, suffix. */
function splitQuantity(str: string): Parts {
  const end = str.length;
  let positive = true;
  let pos = 0;
  if (str[0] === '-') (positive = false), pos++;
  else if (str[0] === '+') pos++;
  while (str[pos] === '0') pos++;
  if (pos >= end) return { positive, value: '0', num: '0', denom: '', suffix: '' };
  let i = pos;
  while (isDigit(str[i])) i++;
  if (i >= end) return { positive, value: str, num: str.slice(pos), denom: '', suffix: '' };
  const num = str.slice(pos, i) || '0';
  pos = i;
  let denom = '';
  if (str[pos] === '.') {
    i = ++pos;
    while (isDigit(str[i])) i++;
    denom = str.slice(pos, i);
    if (i >= end) return { positive, value: str, num, denom, suffix: '' };
    pos = i;
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  while (pos < end && 'eEinumkKMGTP'.includes(str[pos])) pos++;
  if (str[pos] === '-' || str[pos] === '+') pos++;
  while (isDigit(str[pos])) pos++;
  if (pos < end) throw new QuantityError(QUANTITY_FORMAT_ERROR);
  return { positive, value, num, denom, suffix: str.slice(suffixStart) };
}

const decimalSuffixes: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const binarySuffixes: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

function interpretSuffix(s: string): { base: 2 | 10; exponent: number; format: QuantityFormat } {
  if (own(decimalSuffixes, s)) return { base: 10, exponent: decimalSuffixes[s], format: 'DecimalSI' };
  if (own(binarySuffixes, s)) return { base: 2, exponent: binarySuffixes[s], format: 'BinarySI' };
  if (s.length > 1 && (s[0] === 'e' || s[0] === 'E') && /^[+-]?[0-9]+$/.test(s.slice(1))) {
    const e = BigInt(s.slice(1));
    // ParseInt to int64, then int32(...) truncation, as upstream.
    if (e >= MIN_INT64 && e <= MAX_INT64) return { base: 10, exponent: Number(BigInt.asIntN(32, e)), format: 'DecimalExponent' };
  }
  throw new QuantityError(QUANTITY_SUFFIX_ERROR);
}

/** inf.Dec SetString of `[+-]digits[.digits]`. */
function scanDecimal(value: string): { unscaled: bigint; scale: number } {
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?$/.exec(value);
  if (!m || (m[2] + (m[3] ?? '')).length === 0) throw new QuantityError(QUANTITY_NUMERIC_ERROR);
  const digits = BigInt(m[2] + (m[3] ?? ''));
  return { unscaled: m[1] === '-' ? -digits : digits, scale: -(m[3] ?? '').length };
}

/** Rounds a non-negative value up (away from zero) to at least `minScale`, without huge powers. */
function roundUpToScale(unscaled: bigint, scale: number, minScale: number): { unscaled: bigint; scale: number } {
  if (scale >= minScale || unscaled === 0n) return { unscaled, scale };
  const shift = minScale - scale;
  if (unscaled.toString().length <= shift) return { unscaled: 1n, scale: minScale };
  const d = pow10(shift);
  return { unscaled: unscaled / d + (unscaled % d === 0n ? 0n : 1n), scale: minScale };
}

export function parseQuantity(str: string): Quantity {
  if (str.length === 0) throw new QuantityError(QUANTITY_FORMAT_ERROR);
  if (str === '0') return { unscaled: 0n, scale: 0, format: 'DecimalSI', original: str };
  const { positive, value, num, denom, suffix } = splitQuantity(str);
  const { base, exponent, format } = interpretSuffix(suffix);

  // Fast path: values that fit an int64 at scale >= -9 (upstream int64Amount).
  let precision: number;
  let scale = 0;
  let mantissa = 1n;
  if (format === 'BinarySI') {
    if (exponent >= 0 && denom.length === 0) {
      mantissa = 1n << BigInt(exponent);
      precision = 15 - num.length - Math.trunc((exponent * 3) / 10) - 1;
    } else precision = -1;
  } else {
    scale = exponent;
    precision = 18 - (num.length + denom.length);
  }
  if (precision >= 0) {
    scale -= denom.length;
    if (scale >= -9) {
      const shifted = num + denom;
      const v = BigInt(shifted);
      if (v > MAX_INT64) throw new QuantityError(QUANTITY_NUMERIC_ERROR);
      const product = v * mantissa;
      if (product <= MAX_INT64) {
        const unscaled = positive ? product : -product;
        // Upstream keeps the input text when it already is the canonical form (mostly).
        const keep =
          format === 'BinarySI'
            ? exponent % 10 === 0 && (v & 7n) !== 0n
            : scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
        return keep ? { unscaled, scale, format, original: str } : { unscaled, scale, format };
      }
    }
  }

  // Slow path (upstream inf.Dec): exact, then rounded up to nano units.
  let { unscaled, scale: exp10 } = scanDecimal(value);
  if (base === 10) exp10 += exponent;
  else unscaled *= 1n << BigInt(exponent);
  const negative = unscaled < 0n;
  let magnitude = roundUpToScale(abs(unscaled), exp10, -9);
  let fmt = format;
  if (fmt === 'BinarySI' && compareMagnitude(magnitude, { unscaled: MAX_INT64, scale: 0 }) > 0) {
    magnitude = { unscaled: MAX_INT64, scale: 0 };
  }
  if (fmt === 'BinarySI' && magnitude.unscaled !== 0n && compareMagnitude(magnitude, { unscaled: 1n, scale: 0 }) < 0) {
    fmt = 'DecimalSI';
  }
  return { unscaled: negative ? -magnitude.unscaled : magnitude.unscaled, scale: magnitude.scale, format: fmt };
}

/** Compares two non-negative values; orders of magnitude first so huge exponents stay cheap. */
function compareMagnitude(a: { unscaled: bigint; scale: number }, b: { unscaled: bigint; scale: number }): number {
  if (a.unscaled === 0n || b.unscaled === 0n) return a.unscaled === b.unscaled ? 0 : a.unscaled === 0n ? -1 : 1;
  const ma = a.unscaled.toString().length + a.scale;
  const mb = b.unscaled.toString().length + b.scale;
  if (ma !== mb) return ma < mb ? -1 : 1;
  const s = Math.min(a.scale, b.scale);
  const x = a.unscaled * pow10(a.scale - s);
  const y = b.unscaled * pow10(b.scale - s);
  return x === y ? 0 : x < y ? -1 : 1;
}

const toQuantity = (q: Quantity | string) => (typeof q === 'string' ? parseQuantity(q) : q);

export function quantitySign(q: Quantity | string): -1 | 0 | 1 {
  const u = toQuantity(q).unscaled;
  return u === 0n ? 0 : u < 0n ? -1 : 1;
}

export function isNegative(q: Quantity | string): boolean {
  return quantitySign(q) < 0;
}

export function compareQuantities(a: Quantity | string, b: Quantity | string): -1 | 0 | 1 {
  const [x, y] = [toQuantity(a), toQuantity(b)];
  const [sx, sy] = [quantitySign(x), quantitySign(y)];
  if (sx !== sy) return sx < sy ? -1 : 1;
  const c = compareMagnitude({ unscaled: abs(x.unscaled), scale: x.scale }, { unscaled: abs(y.unscaled), scale: y.scale });
  const r = sx < 0 ? -c : c;
  return r < 0 ? -1 : r > 0 ? 1 : 0;
}

function decimalString(unscaled: bigint, scale: number, format: QuantityFormat): string {
  let n = unscaled;
  let e = scale;
  // The trailing zeros of the digits, dropped at once (one division per zero is quadratic in a long number).
  const digits = n.toString();
  let end = digits.length;
  while (n !== 0n && end > 0 && digits.charCodeAt(end - 1) === 0x30) end--;
  const zeros = digits.length - end;
  if (zeros) (n /= 10n ** BigInt(zeros)), (e += zeros);
  while (e % 3 !== 0) (n *= 10n), e--;
  const si = Object.entries(decimalSuffixes).find(([, x]) => x === e);
  // Past `E` (or below `n`) 1.32 dropped the suffix and so the magnitude; newer upstream uses `e<N>`, as we do.
  if (format === 'DecimalSI' && si) return `${n}${si[0]}`;
  return e === 0 ? `${n}` : `${n}e${e}`;
}

/** Upstream Quantity.String(). */
export function quantityToString(q: Quantity): string {
  if (q.original !== undefined) return q.original;
  if (q.unscaled === 0n) return '0';
  if (q.format === 'BinarySI') {
    const small = compareMagnitude({ unscaled: abs(q.unscaled), scale: q.scale }, { unscaled: 1024n, scale: 0 }) < 0;
    let whole: bigint | undefined;
    if (q.scale >= 0) whole = q.unscaled * pow10(q.scale);
    else if (q.unscaled % pow10(-q.scale) === 0n) whole = q.unscaled / pow10(-q.scale);
    if (small || whole === undefined) return decimalString(q.unscaled, q.scale, 'DecimalSI');
    let times = 0;
    while (abs(whole) >= 1024n && whole % 1024n === 0n) (whole /= 1024n), times++;
    const suffix = Object.entries(binarySuffixes).find(([, x]) => x === times * 10)?.[0] ?? '';
    return `${whole}${suffix}`;
  }
  return decimalString(q.unscaled, q.scale, q.format);
}

/** JSON numbers arrive as JS numbers; give them the plain digits a client would have sent. */
function plainNumber(n: number): string {
  if (!Number.isFinite(n)) throw new QuantityError(QUANTITY_FORMAT_ERROR);
  const s = String(Object.is(n, -0) ? 0 : n);
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const [, sign, int, frac = '', e] = m;
  const digits = int + frac;
  const point = int.length + Number(e);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** A quantity as decoded from JSON (string trimmed, or number) and re-encoded, as upstream does on write. */
export function canonicalQuantity(v: string | number): string {
  return quantityToString(parseQuantity(typeof v === 'number' ? plainNumber(v) : v.trim()));
}
