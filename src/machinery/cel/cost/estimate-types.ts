/**
 * Ranges used by the static cost estimator, after cel-go's checker/cost.go:
 * sizes (string length, list items, map entries) and costs, both [min, max]
 * and saturating at 2^64-1. Plain numbers: above 2^53 they lose precision,
 * which only matters for costs that are far over any budget anyway.
 */
import type { CelT } from '../types';

export const MAX_UINT64 = 2 ** 64 - 1;

export interface Range {
  readonly min: number;
  readonly max: number;
}

const sat = (n: number) => (n >= MAX_UINT64 || !Number.isFinite(n) ? MAX_UINT64 : n);

export const range = {
  fixed: (n: number): Range => ({ min: n, max: n }),
  unknown: (): Range => ({ min: 0, max: MAX_UINT64 }),
  add: (a: Range, b: Range): Range => ({ min: sat(a.min + b.min), max: sat(a.max + b.max) }),
  multiply: (a: Range, b: Range): Range => ({ min: sat(a.min * b.min), max: sat(a.max * b.max) }),
  /** Multiplies by a cost factor and rounds up, as cel-go's MultiplyByCostFactor. */
  factor: (a: Range, f: number): Range => ({ min: sat(Math.ceil(a.min * f)), max: sat(Math.ceil(a.max * f)) }),
  union: (a: Range, b: Range): Range => ({ min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) }),
};

/** What an estimator knows about the target or one argument of a call. */
export interface EstimateNode {
  readonly type: CelT;
  /** Its size (length, items or entries): computed from literals or calls, else schema bounds, else unknown. */
  size(): Range;
  /** For a list, a node for its elements (with their schema bounds when the list has a path). */
  element(): EstimateNode | undefined;
  /** The value, when the node is a literal. */
  readonly literal?: unknown;
}

export interface CallEstimate {
  readonly cost: Range;
  readonly resultSize?: Range;
}

/**
 * Cost of one call, not counting its arguments' own costs. Keyed by function
 * name, as upstream's library estimator is; undefined falls back to cel-go's
 * defaults for the overload.
 */
export type CallEstimator = (overloadId: string, target: EstimateNode | undefined, args: readonly EstimateNode[]) => CallEstimate | undefined;

/** Per-character cost of walking a string once (cel-go's StringTraversalCostFactor). */
export const STRING_TRAVERSAL = 0.1;
/** Per-character cost of a regex pattern, times the subject's traversal cost (RegexStringLengthCostFactor). */
export const REGEX_LENGTH = 0.25;

/**
 * Size bounds of a declared variable's parts, from schema limits (maxLength,
 * maxItems, maxProperties) or request-size estimates, found by the path the
 * estimator follows (field names, `@items`, `@keys`, `@values`).
 */
export interface SizeBounds {
  readonly maxElements: number;
  readonly fields?: ReadonlyMap<string, SizeBounds>;
  readonly items?: SizeBounds;
  readonly keys?: SizeBounds;
  readonly values?: SizeBounds;
}
