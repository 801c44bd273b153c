/**
 * Additions to the library's cel-go string extension: Kubernetes' static
 * costs for the string functions (library/cost.go), and `split(sep, n)`
 * with Go's SplitN meaning (the last part keeps the rest), which the
 * library's version truncates instead.
 */
import { celMethod, CelScalar, listType } from '@bufbuild/cel';
import { MAX_UINT64, range, STRING_TRAVERSAL, type CallEstimator, type Range } from '../cost/estimate-types';
import { chargeRuntime } from '../cost/runtime';
import type { Library } from '../library';

/** Go's strings.SplitN. */
export function splitN(s: string, sep: string, n: number): string[] {
  if (n === 0) return [];
  const parts = sep === '' ? Array.from(s) : s.split(sep);
  if (n < 0 || parts.length <= n) return parts;
  return [...parts.slice(0, n - 1), parts.slice(n - 1).join(sep)];
}

const traversal: CallEstimator = (_id, target) => {
  if (!target) return undefined;
  const sz = target.size();
  return { cost: range.factor(sz, STRING_TRAVERSAL), resultSize: sz };
};

/** Upstream's bound on replace's result: as many replacements as the shortest match allows. */
const replace: CallEstimator = (_id, target, args) => {
  if (!target || args.length < 2) return undefined;
  const sz = target.size();
  const from = args[0].size();
  const to = args[1].size();
  let countMax: number;
  let countMin: number;
  let retainedMax = 0;
  let retainedMin = 0;
  if (from.min === 0) (countMax = sz.max < MAX_UINT64 ? sz.max + 1 : sz.max), (retainedMax = sz.max);
  else if (to.max <= from.min) (countMax = 0), (retainedMax = sz.max);
  else countMax = Math.ceil(sz.max / from.min);
  if (from.max === 0) (countMin = sz.min < MAX_UINT64 ? sz.min + 1 : sz.min), (retainedMin = sz.min);
  else if (from.max <= to.min) (countMin = 0), (retainedMin = sz.min);
  else countMin = Math.ceil(sz.min / from.max);
  const size: Range = range.add(range.multiply({ min: countMin, max: countMax }, to), { min: retainedMin, max: retainedMax });
  return { cost: range.factor(sz, 2 * STRING_TRAVERSAL), resultSize: size };
};

const split: CallEstimator = (_id, target, args) => {
  if (!target) return undefined;
  const sz = target.size();
  const limit = args[1]?.literal;
  const max = typeof limit === 'bigint' ? Number(BigInt.asUintN(64, limit)) : sz.max;
  return { cost: range.factor(sz, 2 * STRING_TRAVERSAL), resultSize: { min: 0, max } };
};

const join: CallEstimator = (_id, target, args) => {
  if (!target) return undefined;
  const listSize = target.size();
  const elem = target.element();
  let sz: Range = elem ? range.multiply(listSize, elem.size()) : range.fixed(0);
  if (args.length > 0) sz = range.add(sz, range.multiply(args[0].size(), { min: Math.max(0, listSize.min - 1), max: Math.max(0, listSize.max - 1) }));
  return { cost: range.factor(sz, STRING_TRAVERSAL), resultSize: sz };
};

const { STRING, INT } = CelScalar;

export const stringsLibrary: Library = {
  name: 'strings',
  declarations: [],
  functions: [
    celMethod('split', STRING, [STRING, INT], listType(STRING), function (sep: string, n: bigint) {
      chargeRuntime(Math.ceil(this.length * 2 * STRING_TRAVERSAL));
      return splitN(this, sep, Number(n));
    }),
  ],
  estimators: { lowerAscii: traversal, upperAscii: traversal, substring: traversal, trim: traversal, replace, split, join },
};
