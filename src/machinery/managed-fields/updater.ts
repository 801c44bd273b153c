/**
 * Ownership bookkeeping of structured-merge-diff's Updater, for one version:
 * an update takes every field it changed from the other managers; an apply
 * merges the configuration, removes what its manager applied last time and
 * no longer applies (unless someone else owns it), and fails with conflicts
 * when it would change a field another manager owns, unless forced.
 */
import { deepEqual } from '../object';
import type { Schema } from '../schema/schema';
import { compare, Comparison } from './compare';
import { FieldSet } from './field-set';
import { merge, removeItems } from './merge';
import type { Path } from './path';
import { ensureNamedFieldsAreMembers, toFieldSet } from './to-field-set';

export interface VersionedSet {
  set: FieldSet;
  apiVersion: string;
  applied: boolean;
}

/** Field sets keyed by manager identifier. */
export type ManagedSets = Map<string, VersionedSet>;

export interface Conflict {
  manager: string;
  path: Path;
}

export class ConflictError extends Error {
  constructor(readonly conflicts: Conflict[]) {
    super(`${conflicts.length} apply conflict(s)`);
  }
}

export interface UpdaterContext {
  schema: Schema;
  /** Fields nobody may own through this endpoint (upstream's reset fields). */
  ignore?: (s: FieldSet) => FieldSet;
  /**
   * When `ignore` is no more than dropping these top-level fields whole (the main resource), the fast path of a
   * create (createdFieldsV1) can skip them instead; undefined when it is something else.
   */
  resetTopLevel?: readonly string[];
}

const filtered = (c: Comparison, ignore?: (s: FieldSet) => FieldSet): Comparison =>
  ignore ? { added: ignore(c.added), modified: ignore(c.modified), removed: ignore(c.removed) } : c;

/** Moves changed fields away from every manager but `workflow`; conflicts unless `force`. */
function takeOwnership(live: unknown, next: unknown, managers: ManagedSets, workflow: string, force: boolean, ctx: UpdaterContext): Comparison {
  const cmp = filtered(compare(live, next, ctx.schema), ctx.ignore);
  const changed = cmp.modified.union(cmp.added);
  const conflicts = new Map<string, FieldSet>();
  for (const [manager, vs] of managers) {
    if (manager === workflow) continue;
    const c = vs.set.intersection(changed);
    if (!c.empty()) conflicts.set(manager, c);
  }
  if (!force && conflicts.size) {
    const list: Conflict[] = [];
    for (const manager of [...conflicts.keys()].sort()) for (const path of conflicts.get(manager)!.paths()) list.push({ manager, path });
    throw new ConflictError(list);
  }
  for (const [manager, vs] of managers) {
    if (manager === workflow) continue;
    let set = vs.set;
    const c = conflicts.get(manager);
    if (c) set = set.difference(c);
    if (!cmp.removed.empty()) set = set.difference(cmp.removed);
    managers.set(manager, { ...vs, set });
  }
  for (const [manager, vs] of [...managers]) if (vs.set.empty()) managers.delete(manager);
  return cmp;
}

/**
 * A non-apply write from `live` to `next`: the fields it changed, which the
 * caller adds to the writing manager's entry (other managers lose them).
 */
export function updateOwnership(live: unknown, next: unknown, managers: ManagedSets, ctx: UpdaterContext): FieldSet {
  const self = '\u0000current-operation';
  const cmp = takeOwnership(live, next, managers, self, true, ctx);
  return cmp.modified.union(cmp.added);
}

export interface ApplyOutcome {
  /** The merged object (null fields still present, as upstream leaves them). */
  object: Record<string, unknown>;
  /** Nothing in the object changed. */
  noop: boolean;
}

/** Server-side apply of `config` by `manager` onto `live` (an empty object when creating). */
export function applyOwnership(
  live: Record<string, unknown>,
  config: Record<string, unknown>,
  version: string,
  managers: ManagedSets,
  manager: string,
  force: boolean,
  ctx: UpdaterContext,
): ApplyOutcome {
  const merged = (merge(live, config, ctx.schema) ?? {}) as Record<string, unknown>;
  const last = managers.get(manager);
  let set = toFieldSet(config, ctx.schema);
  if (ctx.ignore) set = ctx.ignore(set);
  managers.set(manager, { set, apiVersion: version, applied: true });
  const object = prune(merged, managers, last?.set, ctx.schema);
  takeOwnership(live, object, managers, manager, force, ctx);
  return { object, noop: deepEqual(live, object) };
}

/**
 * Removes what the manager applied last time and applies no more, unless
 * another manager (or its new configuration) still owns it.
 */
function prune(merged: Record<string, unknown>, managers: ManagedSets, lastSet: FieldSet | undefined, schema: Schema): Record<string, unknown> {
  if (!lastSet || lastSet.empty()) return merged;
  const ensure = (s: FieldSet) => ensureNamedFieldsAreMembers(s, schema);
  const remove = (s: FieldSet) => (removeItems(merged, s, schema) ?? {}) as Record<string, unknown>;
  const last = ensure(lastSet);
  let owned = new FieldSet();
  for (const vs of managers.values()) owned = owned.union(vs.set);
  const mergedSet = ensure(toFieldSet(merged, schema));
  const firstCut = remove(last);
  const ownedBack = remove(mergedSet.difference(ensure(toFieldSet(firstCut, schema)).union(ensure(owned))));
  return remove(mergedSet.difference(ensure(toFieldSet(ownedBack, schema))).intersection(last));
}
