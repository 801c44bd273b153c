/**
 * cel-go's sets extension as Kubernetes enables it (1.29+): lists treated as
 * sets, elements compared with CEL equality (so 1 and 1.0 match).
 */
import { celFunc, CelScalar, listType, type CelList } from '@bufbuild/cel';
import { range, type CallEstimator } from '../cost/estimate-types';
import { chargeRuntime } from '../cost/runtime';
import { A, fn } from '../declarations';
import type { Library } from '../library';
import { T } from '../types';
import { celEquals } from './values';

const LIST = listType(CelScalar.DYN);
const listA = T.list(A);

const has = (list: CelList, x: unknown) => {
  for (const v of list) if (celEquals(v, x)) return true;
  return false;
};

/** Every element of one list is looked up in the other. */
const pairwise: CallEstimator = (_id, _target, args) => (args.length === 2 ? { cost: range.multiply(args[0].size(), args[1].size()) } : undefined);

const charge = (a: CelList, b: CelList) => chargeRuntime(a.size * b.size);

export const contains = (a: CelList, b: CelList) => {
  for (const x of b) if (!has(a, x)) return false;
  return true;
};

export const setsLibrary: Library = {
  name: 'sets',
  declarations: [
    fn('sets.contains', 'list_sets_contains_list', [listA, listA], T.bool),
    fn('sets.equivalent', 'list_sets_equivalent_list', [listA, listA], T.bool),
    fn('sets.intersects', 'list_sets_intersects_list', [listA, listA], T.bool),
  ],
  functions: [
    celFunc('sets.contains', [LIST, LIST], CelScalar.BOOL, (a: CelList, b: CelList) => {
      charge(a, b);
      return contains(a, b);
    }),
    celFunc('sets.equivalent', [LIST, LIST], CelScalar.BOOL, (a: CelList, b: CelList) => {
      charge(a, b);
      return contains(a, b) && contains(b, a);
    }),
    celFunc('sets.intersects', [LIST, LIST], CelScalar.BOOL, (a: CelList, b: CelList) => {
      charge(a, b);
      for (const x of a) if (has(b, x)) return true;
      return false;
    }),
  ],
  estimators: { 'sets.contains': pairwise, 'sets.equivalent': pairwise, 'sets.intersects': pairwise },
};
