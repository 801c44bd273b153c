/**
 * cel-go's built-in call costs (checker/cost.go functionCost), for overloads
 * no library estimator prices: string and bytes work scales with length,
 * regex matching with subject length times pattern length, `in` with the
 * list's size, everything else costs 1.
 */
import { range, REGEX_LENGTH, STRING_TRAVERSAL, type CallEstimate, type EstimateNode } from './estimate-types';

const ONE: CallEstimate = { cost: range.fixed(1) };

const ORDERED = new Set(['less_string', 'greater_string', 'less_equals_string', 'greater_equals_string', 'less_bytes', 'greater_bytes', 'less_equals_bytes', 'greater_equals_bytes', 'equals', 'not_equals']);

export function defaultCallCost(id: string, target: EstimateNode | undefined, args: readonly EstimateNode[]): CallEstimate {
  switch (id) {
    case 'string_format':
      if (target) return { cost: range.factor(target.size(), STRING_TRAVERSAL), resultSize: range.add(target.size(), args[0].size()) };
      break;
    case 'string_to_bytes': {
      const sz = args[0].size();
      return { cost: range.factor(sz, STRING_TRAVERSAL), resultSize: { min: sz.min, max: range.factor(sz, 4).max } };
    }
    case 'bytes_to_string': {
      const sz = args[0].size();
      return { cost: range.factor(sz, STRING_TRAVERSAL), resultSize: { min: Math.floor(sz.min / 4), max: sz.max } };
    }
    case 'strings_quote': {
      const sz = args[0].size();
      return { cost: range.factor(sz, STRING_TRAVERSAL), resultSize: { min: sz.min + 2, max: range.add(range.factor(sz, 2), range.fixed(2)).max } };
    }
    case 'starts_with_string':
    case 'ends_with_string':
      return { cost: range.factor(args[0].size(), STRING_TRAVERSAL) };
    case 'in_list':
      return { cost: args[1].size() };
    case 'matches_string':
      if (target) {
        const str = range.factor(range.add(target.size(), range.fixed(1)), STRING_TRAVERSAL);
        return { cost: range.multiply(str, range.factor(args[0].size(), REGEX_LENGTH)) };
      }
      break;
    case 'contains_string':
      if (target) return { cost: range.multiply(range.factor(target.size(), STRING_TRAVERSAL), range.factor(args[0].size(), STRING_TRAVERSAL)) };
      break;
    case 'add_string':
    case 'add_bytes':
    case 'add_list': {
      const size = range.add(args[0].size(), args[1].size());
      return { cost: id === 'add_list' ? range.fixed(1) : range.factor(size, STRING_TRAVERSAL), resultSize: size };
    }
  }
  if (ORDERED.has(id)) {
    const smallestMax = Math.min(args[0].size().max, args[1].size().max);
    return { cost: range.factor({ min: smallestMax > 0 ? 1 : 0, max: smallestMax }, STRING_TRAVERSAL) };
  }
  return ONE;
}
