/**
 * Strategic merge of lists: element-wise by merge key for lists of maps,
 * union for scalar lists, `$patch` list elements, `$deleteFromPrimitiveList`,
 * and upstream's ordering rules (patch order first, server-only elements
 * interleaved where the live list had them).
 */
import { Schema } from '../schema/schema';
import { JsonMap, ValueKind, has, isPlainObject, kindOf, same } from './json-values';
import { LIST_TYPE, MAP_TYPE, goFormat, smpErrors } from './patch-errors';
import { DIRECTIVE, stripRaw } from './smp-shared';

/** Passed in by the map merger so the two files do not import each other. */
export type MergeMapFn = (original: JsonMap, patch: JsonMap, schema: Schema | undefined) => JsonMap;

export interface ListField {
  items?: Schema;
  strategy: string;
  mergeKey: string;
}

/** A list field present in both: merged when the strategy says so (or for a delete list), else replaced. */
export function mergeListField(original: unknown[], patch: unknown[], field: ListField, isDeleteList: boolean, mergeMap: MergeMapFn): unknown[] {
  return mergeList(original, patch, field, isDeleteList, mergeMap).merged;
}

/**
 * Upstream deletes from and appends to the live list in place, sharing its
 * backing array; `$setElementOrder` then orders by what that array reads.
 * This mimics the visible part: deletions shift left, appends fill the
 * freed tail (what lies beyond the live length never shows).
 */
class LiveBacking {
  readonly view: unknown[];
  private len: number;
  constructor(live: unknown[]) {
    this.view = [...live];
    this.len = live.length;
  }
  removeAt(i: number): void {
    this.view.copyWithin(i, i + 1, this.len);
    this.len--;
  }
  append(v: unknown): void {
    if (this.len < this.view.length) this.view[this.len++] = v;
  }
  get current(): unknown[] {
    return this.view.slice(0, this.len);
  }
}

export interface ListMerge {
  merged: unknown[];
  /** The live list as upstream's aliased slice reads it afterwards (for ordering only). */
  live: unknown[];
}

export function mergeList(original: unknown[], patch: unknown[], field: ListField, isDeleteList: boolean, mergeMap: MergeMapFn): ListMerge {
  if (field.strategy !== 'merge' && !isDeleteList) return { merged: stripRaw(patch), live: original };
  if (original.length === 0 && patch.length === 0) return { merged: original, live: original };
  const kind = elementKind(original, patch);
  const { mergeKey } = field;
  let merged: unknown[];
  let backing: LiveBacking | undefined;
  if (kind !== 'map') {
    if (isDeleteList) {
      const deleted = new FirstIndex(patch);
      return { merged: original.filter((v) => deleted.indexOf(v) < 0), live: original };
    }
    merged = [];
    // a union: duplicates already in the live list collapse too, as upstream's deduplication does
    const kept = new FirstIndex();
    for (const v of [...original, ...patch]) {
      if (kept.indexOf(v) >= 0) continue;
      kept.add(v, merged.length);
      merged.push(v);
    }
  } else {
    if (!mergeKey) throw smpErrors.other('cannot merge lists without merge key for struct');
    backing = new LiveBacking(original);
    const directed = applyElementDirectives(backing, patch, mergeKey);
    ({ original, patch } = directed);
    merged = mergeByKey(original, patch, mergeKey, field.items, mergeMap, directed.replaced ? undefined : backing);
  }
  const [inPatch, serverOnly] = partition(merged, patch, mergeKey);
  return {
    merged: normalizeElementOrder(inPatch, serverOnly, patch, original, mergeKey, kind),
    live: backing ? backing.view : original,
  };
}

/** Go's sliceElementType: one element type across the lists, and never a list. */
export function elementKind(...lists: unknown[][]): ValueKind {
  let kind: ValueKind | undefined;
  for (const v of lists.flat()) {
    const k = kindOf(v);
    if (kind === undefined) {
      if (k === 'list') throw smpErrors.listOfLists();
      kind = k;
    } else if (k !== kind) {
      throw smpErrors.other(`list element types are not identical: ${goFormat(lists)}`);
    }
  }
  if (kind === undefined) throw smpErrors.other('no elements in any of the given slices');
  return kind;
}

/** `{"$patch":"delete", key: v}` removes elements; `{"$patch":"replace"}` makes the rest of the patch the list. */
function applyElementDirectives(backing: LiveBacking, patch: unknown[], mergeKey: string): { original: unknown[]; patch: unknown[]; replaced: boolean } {
  const plain: unknown[] = [];
  let replaced = false;
  for (const v of patch as JsonMap[]) {
    if (!has(v, DIRECTIVE)) {
      plain.push(v);
      continue;
    }
    const directive = v[DIRECTIVE];
    if (directive === 'delete') {
      if (!has(v, mergeKey)) throw smpErrors.noMergeKey(v, mergeKey);
      for (let at = indexByKey(backing.current, mergeKey, v[mergeKey]); at >= 0; at = indexByKey(backing.current, mergeKey, v[mergeKey])) {
        backing.removeAt(at);
      }
    } else if (directive === 'replace') {
      replaced = true; // keep scanning: later delete elements still apply and are pruned
    } else if (directive === 'merge') {
      throw smpErrors.other('merging lists cannot yet be specified in the patch');
    } else {
      throw smpErrors.badPatchType(directive, v);
    }
  }
  return replaced ? { original: stripRaw(plain), patch: [], replaced } : { original: backing.current, patch: plain, replaced };
}

/** Patch elements merge into the element with the same key (searching what was appended too), else append. */
function mergeByKey(
  original: unknown[],
  patch: unknown[],
  mergeKey: string,
  items: Schema | undefined,
  mergeMap: MergeMapFn,
  backing: LiveBacking | undefined,
): unknown[] {
  const out = [...original];
  for (const v of patch as JsonMap[]) {
    if (!has(v, mergeKey)) throw smpErrors.noMergeKey(v, mergeKey);
    const at = indexByKey(out, mergeKey, v[mergeKey]);
    if (at >= 0) out[at] = mergeMap(out[at] as JsonMap, v, items);
    else {
      out.push(stripRaw(v));
      backing?.append(v);
    }
  }
  return out;
}

function indexByKey(list: unknown[], mergeKey: string, value: unknown): number {
  for (let i = 0; i < list.length; i++) {
    const m = list[i];
    if (!isPlainObject(m)) throw smpErrors.other(`value for key ${i} is not a map`);
    if (has(m, mergeKey) && same(m[mergeKey], value)) return i;
  }
  return -1;
}

/** Splits `merged` into elements named by `by` (patch or $setElementOrder list) and server-only ones. */
export function partition(merged: unknown[], by: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const inBy: unknown[] = [];
  const serverOnly: unknown[] = [];
  const named = mergeKey ? undefined : new FirstIndex(by);
  for (const v of merged) {
    let found: boolean;
    if (named) found = named.indexOf(v) >= 0;
    else {
      if (!isPlainObject(v)) throw smpErrors.badArgType(MAP_TYPE, v);
      if (!has(v, mergeKey)) throw smpErrors.noMergeKey(v, mergeKey);
      found = indexByKey(by, mergeKey, v[mergeKey]) >= 0;
    }
    (found ? inBy : serverOnly).push(v);
  }
  return [inBy, serverOnly];
}

/** Patch elements in patch order; server-only ones in live order, each placed before the first patch element it preceded live. */
export function normalizeElementOrder(
  inPatch: unknown[],
  serverOnly: unknown[],
  patchOrder: unknown[],
  serverOrder: unknown[],
  mergeKey: string,
  kind: ValueKind,
): unknown[] {
  const left = sortBy(serverOnly, serverOrder, mergeKey, kind);
  const right = sortBy(inPatch, patchOrder, mergeKey, kind);
  const position = positionIn(serverOrder, mergeKey, kind);
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (j >= right.length) out.push(left[i++]);
    else if (i >= left.length) out.push(right[j++]);
    else {
      const li = position(left[i]);
      const ri = position(right[j]);
      out.push(li >= 0 && ri >= 0 && li < ri ? left[i++] : right[j++]);
    }
  }
  return out;
}

/** Stable order by position in `order`; elements it does not name keep their slots; delete directives go last. */
function sortBy(list: unknown[], order: unknown[], mergeKey: string, kind: ValueKind): unknown[] {
  let toDelete: unknown[] = [];
  if (kind === 'map') {
    requireMergeKey(mergeKey, list, order);
    toDelete = list.filter((v) => (v as JsonMap)[DIRECTIVE] === 'delete');
    list = list.filter((v) => (v as JsonMap)[DIRECTIVE] !== 'delete');
  }
  const position = positionIn(order, mergeKey, kind);
  const slots = list.map((v, i) => ({ v, i, at: position(v) }));
  const found = slots.filter((s) => s.at >= 0);
  const sorted = [...found].sort((a, b) => a.at - b.at || a.i - b.i);
  const out = [...list];
  found.forEach((slot, n) => (out[slot.i] = sorted[n].v));
  return [...out, ...toDelete];
}

/** Where an element (by its merge key for maps) first appears in `order`, or -1. */
function positionIn(order: unknown[], mergeKey: string, kind: ValueKind): (v: unknown) => number {
  const key = (x: unknown) => (kind === 'map' ? (isPlainObject(x) ? x[mergeKey] : undefined) : x);
  const index = new FirstIndex(order.map(key));
  return (v) => index.indexOf(key(v));
}

/**
 * The first index of each value of a list, by `same`: scalars through a Map, so that lists of thousands of names
 * (finalizers, say) merge in linear time rather than comparing every pair; maps and lists by comparison.
 */
class FirstIndex {
  private readonly scalars = new Map<unknown, number>();
  private readonly others: Array<[unknown, number]> = [];

  constructor(list: unknown[] = []) {
    list.forEach((v, i) => this.add(v, i));
  }

  add(v: unknown, i: number): void {
    if (typeof v === 'object' && v !== null) this.others.push([v, i]);
    else if (!this.scalars.has(v)) this.scalars.set(v, i);
  }

  indexOf(v: unknown): number {
    if (typeof v !== 'object' || v === null) return this.scalars.get(v) ?? -1;
    for (const [o, i] of this.others) if (same(o, v)) return i;
    return -1;
  }
}

function requireMergeKey(mergeKey: string, ...lists: unknown[][]): void {
  for (const v of lists.flat()) {
    if (!isPlainObject(v)) throw smpErrors.badArgType(MAP_TYPE, v);
    if (!has(v, mergeKey)) throw smpErrors.noMergeKey(v, mergeKey);
  }
}

export function asList(v: unknown): unknown[] {
  if (!Array.isArray(v)) throw smpErrors.badArgType(LIST_TYPE, v);
  return v;
}
