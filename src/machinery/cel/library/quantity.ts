/**
 * Kubernetes' quantity library (library/quantity.go) over our Quantity
 * parser (machinery/quantity.ts): exact decimal arithmetic, comparisons and
 * conversions. Two quantities are equal in CEL when their values are.
 */
import { celFunc, celMethod, CelScalar, type CelValue } from '@bufbuild/cel';
import { parseQuantity, compareQuantities, quantitySign, type Quantity } from '../../quantity';
import { range, STRING_TRAVERSAL, type CallEstimator } from '../cost/estimate-types';
import { chargeRuntime } from '../cost/runtime';
import { fn, method } from '../declarations';
import type { Library } from '../library';
import { opaqueKind } from '../opaque';
import { T } from '../types';

export const QUANTITY = opaqueKind<Quantity>('kubernetes.Quantity');
const MAX_INT64 = 2n ** 63n - 1n;
const MIN_INT64 = -(2n ** 63n);

/** The value without trailing zeros, so equal values get equal keys. */
function key(q: Quantity): string {
  let u = q.unscaled;
  let s = q.scale;
  if (u === 0n) return '0';
  while (u % 10n === 0n) (u /= 10n), s++;
  return `${u}e${s}`;
}

export const wrapQuantity = (q: Quantity) => QUANTITY.wrap(q, key(q));
const q = (v: CelValue) => QUANTITY.unwrap(v);

function align(a: Quantity, b: Quantity): [bigint, bigint, number] {
  const s = Math.min(a.scale, b.scale);
  return [a.unscaled * 10n ** BigInt(a.scale - s), b.unscaled * 10n ** BigInt(b.scale - s), s];
}

/** The receiver's format is kept, as resource.Quantity.Add does. */
function add(a: Quantity, b: Quantity, sign: 1n | -1n): Quantity {
  const [x, y, scale] = align(a, b);
  return { unscaled: x + sign * y, scale, format: a.format };
}

function asInt64(v: Quantity): bigint | undefined {
  let n: bigint;
  if (v.scale >= 0) n = v.unscaled * 10n ** BigInt(v.scale);
  else {
    const d = 10n ** BigInt(-v.scale);
    if (v.unscaled % d !== 0n) return undefined;
    n = v.unscaled / d;
  }
  return n > MAX_INT64 || n < MIN_INT64 ? undefined : n;
}

const fromInt = (n: bigint): Quantity => ({ unscaled: n, scale: 0, format: 'DecimalSI' });

const nominal: CallEstimator = () => ({ cost: range.fixed(1) });

const Q = QUANTITY.runtime;
const { STRING, BOOL, INT, DOUBLE } = CelScalar;

export const quantityLibrary: Library = {
  name: 'quantity',
  declarations: [
    fn('quantity', 'string_to_quantity', [T.string], QUANTITY.type),
    fn('isQuantity', 'is_quantity_string', [T.string], T.bool),
    method('sign', 'quantity_sign', [QUANTITY.type], T.int),
    method('isGreaterThan', 'quantity_is_greater_than', [QUANTITY.type, QUANTITY.type], T.bool),
    method('isLessThan', 'quantity_is_less_than', [QUANTITY.type, QUANTITY.type], T.bool),
    method('compareTo', 'quantity_compare_to', [QUANTITY.type, QUANTITY.type], T.int),
    method('asApproximateFloat', 'quantity_get_float', [QUANTITY.type], T.double),
    method('asInteger', 'quantity_get_int', [QUANTITY.type], T.int),
    method('isInteger', 'quantity_is_integer', [QUANTITY.type], T.bool),
    method('add', 'quantity_add', [QUANTITY.type, QUANTITY.type], QUANTITY.type),
    method('add', 'quantity_add_int', [QUANTITY.type, T.int], QUANTITY.type),
    method('sub', 'quantity_sub', [QUANTITY.type, QUANTITY.type], QUANTITY.type),
    method('sub', 'quantity_sub_int', [QUANTITY.type, T.int], QUANTITY.type),
  ],
  functions: [
    celFunc('quantity', [STRING], Q, (s: string) => {
      chargeRuntime(Math.ceil(s.length * STRING_TRAVERSAL));
      return wrapQuantity(parseQuantity(s)) as never;
    }),
    celFunc('isQuantity', [STRING], BOOL, (s: string) => {
      chargeRuntime(Math.ceil(s.length * STRING_TRAVERSAL));
      try {
        parseQuantity(s);
        return true;
      } catch {
        return false;
      }
    }),
    celMethod('sign', Q, [], INT, function () {
      return BigInt(quantitySign(q(this as CelValue)));
    }),
    celMethod('isGreaterThan', Q, [Q], BOOL, function (o) {
      return compareQuantities(q(this as CelValue), q(o as CelValue)) > 0;
    }),
    celMethod('isLessThan', Q, [Q], BOOL, function (o) {
      return compareQuantities(q(this as CelValue), q(o as CelValue)) < 0;
    }),
    celMethod('compareTo', Q, [Q], INT, function (o) {
      return BigInt(compareQuantities(q(this as CelValue), q(o as CelValue)));
    }),
    celMethod('asApproximateFloat', Q, [], DOUBLE, function () {
      const v = q(this as CelValue);
      return Number(`${v.unscaled}e${v.scale}`);
    }),
    celMethod('asInteger', Q, [], INT, function () {
      const n = asInt64(q(this as CelValue));
      if (n === undefined) throw new Error('cannot convert value to integer');
      return n;
    }),
    celMethod('isInteger', Q, [], BOOL, function () {
      return asInt64(q(this as CelValue)) !== undefined;
    }),
    celMethod('add', Q, [Q], Q, function (o) {
      return wrapQuantity(add(q(this as CelValue), q(o as CelValue), 1n)) as never;
    }),
    celMethod('add', Q, [INT], Q, function (n: bigint) {
      return wrapQuantity(add(q(this as CelValue), fromInt(n), 1n)) as never;
    }),
    celMethod('sub', Q, [Q], Q, function (o) {
      return wrapQuantity(add(q(this as CelValue), q(o as CelValue), -1n)) as never;
    }),
    celMethod('sub', Q, [INT], Q, function (n: bigint) {
      return wrapQuantity(add(q(this as CelValue), fromInt(n), -1n)) as never;
    }),
  ],
  // quantity() and isQuantity() keep cel-go's default static cost: upstream's estimator only prices them with a receiver, which they never have.
  estimators: {
    ...Object.fromEntries(['sign', 'asInteger', 'isInteger', 'asApproximateFloat', 'isGreaterThan', 'isLessThan', 'compareTo', 'add', 'sub'].map((n) => [n, nominal])),
  },
};
