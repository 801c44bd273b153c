/**
 * Kubernetes' list library (apiserver/pkg/cel/library/lists.go):
 * isSorted, sum, min, max, indexOf, lastIndexOf on lists, each costing a
 * traversal of the list.
 */
import { celMethod, CelScalar, celUint, isCelUint, listType, type CelList, type CelValue } from '@bufbuild/cel';
import { create } from '@bufbuild/protobuf';
import { DurationSchema } from '@bufbuild/protobuf/wkt';
import { isReflectMessage } from '@bufbuild/protobuf/reflect';
import { chargeRuntime } from '../cost/runtime';
import { range, STRING_TRAVERSAL, type CallEstimator } from '../cost/estimate-types';
import { A, method } from '../declarations';
import type { Library } from '../library';
import { T } from '../types';
import { celCompare, celEquals } from './values';

const LIST = listType(CelScalar.DYN);
const { DYN, BOOL, INT } = CelScalar;
const listA = T.list(A);

/** Sums keep the element type; the checker routes each typed overload to its own runtime name, so an empty list sums to the right zero. */
const sums: [string, ReturnType<typeof T.list>, () => unknown][] = [
  ['int', T.int, () => 0n],
  ['uint', T.uint, () => celUint(0n)],
  ['double', T.double, () => 0],
  ['duration', T.duration, () => create(DurationSchema, {})],
];

function sum(list: CelList, zero: CelValue): CelValue {
  let acc: unknown = zero;
  for (const v of list) {
    if (typeof acc === 'bigint' && typeof v === 'bigint') {
      acc = acc + v;
      if ((acc as bigint) > 2n ** 63n - 1n || (acc as bigint) < -(2n ** 63n)) throw new Error('int overflow');
    } else if (typeof acc === 'number' && typeof v === 'number') acc = acc + v;
    else if (isCelUint(acc) && isCelUint(v)) {
      const total = acc.value + v.value;
      if (total > 2n ** 64n - 1n) throw new Error('uint overflow');
      acc = celUint(total);
    }
    else if (isReflectMessage(v) && v.desc.typeName === 'google.protobuf.Duration') {
      const a = acc as { seconds: bigint; nanos: number };
      const b = v.message as unknown as { seconds: bigint; nanos: number };
      const nanos = (a.seconds + b.seconds) * 1_000_000_000n + BigInt(a.nanos + b.nanos);
      acc = create(DurationSchema, { seconds: nanos / 1_000_000_000n, nanos: Number(nanos % 1_000_000_000n) });
    } else throw new Error('no such overload');
  }
  return acc as CelValue;
}

function runtimeKind(v: CelValue): string {
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'double';
  if (isCelUint(v)) return 'uint';
  return isReflectMessage(v) && v.desc.typeName === 'google.protobuf.Duration' ? 'duration' : 'other';
}

function extreme(list: CelList, name: 'min' | 'max'): CelValue {
  if (list.size === 0) throw new Error(`${name} called on empty list`);
  let best: CelValue = list.get(0) as CelValue;
  for (const v of list) {
    const c = celCompare(v, best);
    if ((name === 'min' && c < 0) || (name === 'max' && c > 0)) best = v;
  }
  return best;
}

/** A traversal of the list, plus the strings' lengths when elements are strings (upstream cost.go). */
const traversal: CallEstimator = (_id, target) => {
  if (!target) return undefined;
  const elem = target.element();
  if (!elem) return { cost: range.factor(target.size(), STRING_TRAVERSAL) };
  const elemCost = elem.type.kind === 'primitive' && (elem.type.name === 'string' || elem.type.name === 'bytes') ? range.add(range.fixed(1), range.factor(elem.size(), STRING_TRAVERSAL)) : range.fixed(1);
  return { cost: range.multiply(target.size(), elemCost) };
};

const charge = (list: CelList) => chargeRuntime(list.size);

export const listsLibrary: Library = {
  name: 'lists',
  declarations: [
    method('isSorted', 'list_is_sorted', [listA], T.bool),
    ...sums.map(([n, t]) => ({ ...method('sum', `list_${n}_sum`, [T.list(t)], t), runtimeName: `@sum_${n}` })),
    method('min', 'list_min', [listA], A),
    method('max', 'list_max', [listA], A),
    method('indexOf', 'list_index_of', [listA, A], T.int),
    method('lastIndexOf', 'list_last_index_of', [listA, A], T.int),
  ],
  functions: [
    celMethod('isSorted', LIST, [], BOOL, function () {
      charge(this);
      for (let i = 1; i < this.size; i++) if (celCompare(this.get(i - 1), this.get(i)) > 0) return false;
      return true;
    }),
    ...sums.map(([n, , zero]) =>
      celMethod(`@sum_${n}`, LIST, [], DYN, function () {
        charge(this);
        return sum(this, zero() as CelValue) as never;
      }),
    ),
    // Reached when the element type is only known at run time (dyn): the zero follows the first element, int when empty.
    celMethod('sum', LIST, [], DYN, function () {
      charge(this);
      const first = this.get(0);
      const zero = sums.find(([n]) => first !== undefined && runtimeKind(first) === n)?.[2] ?? (() => 0n);
      return sum(this, zero() as CelValue) as never;
    }),
    celMethod('min', LIST, [], DYN, function () {
      charge(this);
      return extreme(this, 'min') as never;
    }),
    celMethod('max', LIST, [], DYN, function () {
      charge(this);
      return extreme(this, 'max') as never;
    }),
    celMethod('indexOf', LIST, [DYN], INT, function (x: CelValue) {
      charge(this);
      for (let i = 0; i < this.size; i++) if (celEquals(this.get(i), x)) return BigInt(i);
      return -1n;
    }),
    celMethod('lastIndexOf', LIST, [DYN], INT, function (x: CelValue) {
      charge(this);
      for (let i = this.size - 1; i >= 0; i--) if (celEquals(this.get(i), x)) return BigInt(i);
      return -1n;
    }),
  ],
  estimators: { isSorted: traversal, sum: traversal, min: traversal, max: traversal, indexOf: traversal, lastIndexOf: traversal },
};
