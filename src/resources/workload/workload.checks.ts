/**
 * Building blocks in the style of upstream's declarative validation (the
 * apimachinery `validate` package): unions, immutability, name formats and
 * keyed lists, with its ratcheting — on update a value equal to the stored
 * one is not validated again.
 */
import { FieldError, FieldPath, fieldErrors } from '../../machinery/field-errors';
import { deepEqual, isPlainObject } from '../../machinery/object';
import { isDNS1123Label, isDNS1123Subdomain } from '../../machinery/validation/names';
import type { WorkloadOptions } from './workload.strategy';

export interface Op {
  update: boolean;
  opts: WorkloadOptions;
}

/** Go's semantic equality treats an empty list like an absent one, and a null pointer is unset (stored Workloads carry some). */
function normalize(v: unknown): unknown {
  if (v === null) return undefined;
  if (Array.isArray(v)) return v.length ? v.map(normalize) : undefined;
  if (!isPlainObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const n = normalize(x);
    if (n !== undefined) out[k] = n;
  }
  return out;
}

export const same = (a: unknown, b: unknown): boolean => deepEqual(normalize(a), normalize(b));

/** Ratcheting: an update whose value (under a stored parent) did not change skips validation. */
export const ratchets = (op: Op, correlated: boolean, v: unknown, old: unknown) => op.update && correlated && same(v, old);

export const immutable = (p: FieldPath): FieldError => fieldErrors.invalid(p, null, 'field is immutable');

/** Exactly one member set; only re-checked on update when the set of members changed. */
export function union(op: Op, p: FieldPath, members: Array<[string, boolean]>, oldMembers?: boolean[]): FieldError[] {
  if (op.update && members.every(([, set], i) => set === (oldMembers?.[i] ?? false))) return [];
  const all = members.map(([name]) => `\`${name}\``).join(', ');
  const set = members.filter(([, isSet]) => isSet).map(([name]) => name);
  if (set.length > 1) return [fieldErrors.invalid(p, `{${set.join(', ')}}`, `must specify exactly one of: ${all}`)];
  if (set.length === 0) return [fieldErrors.invalid(p, '', `must specify one of: ${all}`)];
  return [];
}

/** Required DNS label (`k8s-short-name`). */
export function shortName(p: FieldPath, v: string | undefined): FieldError[] {
  if (!v) return [fieldErrors.required(p)];
  return isDNS1123Label(v).map((msg) => fieldErrors.invalid(p, v, msg));
}

/** DNS subdomain (`k8s-long-name`), for values already known to be set. */
export function longName(p: FieldPath, v: string): FieldError[] {
  return isDNS1123Subdomain(v).map((msg) => fieldErrors.invalid(p, v, msg));
}

/** A positive required count (gang minCount / minGroupCount). */
export function positiveCount(p: FieldPath, v: number | undefined): FieldError[] {
  if (!v) return [fieldErrors.required(p)];
  return v < 1 ? [fieldErrors.invalid(p, v, 'must be greater than or equal to 1')] : [];
}

export interface ListRules {
  max: number;
  /** Items are matched by name; none may be added or removed on update. */
  fixedMembers: boolean;
  /** Set when the list is behind a disabled gate: any entry is Forbidden. */
  forbidden?: boolean;
}

type Named = { name?: string };

/** A list keyed by `name`: size, membership on update, unique keys, then each changed item. */
export function keyedList<T extends Named>(
  op: Op,
  p: FieldPath,
  items: T[] | undefined,
  oldItems: T[] | undefined,
  correlated: boolean,
  rules: ListRules,
  each: (item: T, old: T | undefined, p: FieldPath) => FieldError[],
): FieldError[] {
  if (ratchets(op, correlated, items, oldItems)) return [];
  const list = items ?? [];
  const prev = oldItems ?? [];
  const key = (x: Named) => x.name ?? '';
  const errs: FieldError[] = [];
  const stop = list.length === 0;
  if (rules.forbidden && list.length) errs.push(fieldErrors.forbidden(p, ''));
  if (list.length > rules.max) errs.push(fieldErrors.tooMany(p, list.length, rules.max));
  if (op.update && rules.fixedMembers) {
    list.forEach((x, i) => {
      if (!prev.some((o) => key(o) === key(x))) errs.push(fieldErrors.forbidden(p.index(i), 'item may not be added'));
    });
    for (const o of prev) if (!list.some((x) => key(x) === key(o))) errs.push(fieldErrors.forbidden(p, 'item may not be removed'));
  }
  if (stop || errs.length) return errs;
  const dups = new Set<number>();
  list.forEach((x, i) => list.slice(i + 1).forEach((y, j) => key(x) === key(y) && dups.add(i + 1 + j)));
  for (const i of [...dups].sort((a, b) => a - b)) errs.push(fieldErrors.duplicate(p.index(i), list[i]));
  list.forEach((x, i) => {
    const old = prev.find((o) => key(o) === key(x));
    if (op.update && old && same(x, old)) return;
    errs.push(...each(x, old, p.index(i)));
  });
  return errs;
}
