/**
 * Upstream's budgets and the message when a static estimate exceeds one
 * (apiextensions validation.go, apiserver/pkg/apis/cel).
 */
import { MAX_REQUEST_SIZE_BYTES } from '../schema-types';

/** Largest static estimate allowed for one CRD rule (times its cardinality). */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;
/** Largest static estimate allowed for all rules of one CRD. */
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;
/** Runtime budget for all rules evaluated for one object or one policy binding. */
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;

/**
 * How many times a rule may run for one object: the product of maxItems and
 * maxProperties of the lists and maps around its schema node, or, when one
 * of them is unbounded, as many values of the node's smallest size as fit in
 * a request (upstream's MaxCardinality).
 */
export function maxCardinality(enclosingBounds: readonly (number | undefined)[], minSerializedSize: number): number {
  let product = 1;
  for (const b of enclosingBounds) {
    if (b === undefined) return Math.floor(MAX_REQUEST_SIZE_BYTES / (minSerializedSize + 1));
    product *= b;
  }
  return product;
}

/** A rule's cost as upstream compares it with the limits: estimated maximum times cardinality. */
export function ruleCost(maxCost: number, cardinality: number): number {
  return maxCost === 0 ? 0 : Math.min(maxCost * cardinality, 2 ** 64 - 1);
}

/** Upstream's getCostErrorMessage, e.g. `estimated rule cost exceeds budget by factor of 2.5x (…)`. */
export function costErrorMessage(costName: string, cost: number, limit: number): string {
  const factor = cost / limit;
  let text: string;
  if (factor > 100) text = 'more than 100x';
  else if (factor < 1.5) text = `${factor.toFixed(6)}x`;
  else text = `${factor.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${text} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}
