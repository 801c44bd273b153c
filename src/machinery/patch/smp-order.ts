/**
 * `$setElementOrder/<field>`: merges that field's list now (so the main
 * loop skips it) and orders the result: listed elements in the listed order,
 * the others where the live list had them.
 */
import { Schema } from '../schema/schema';
import { JsonMap, has, isPlainObject, same } from './json-values';
import { LIST_TYPE, MAP_TYPE, goFormat, smpErrors } from './patch-errors';
import { DIRECTIVE, SET_ELEMENT_ORDER, cleanNew, fieldMeta, fieldOfParallelKey } from './smp-shared';
import { MergeMapFn, asList, elementKind, mergeList, normalizeElementOrder, partition } from './smp-lists';

export function applySetElementOrder(original: JsonMap, patch: JsonMap, schema: Schema | undefined, mergeMap: MergeMapFn): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER)) continue;
    const orderValue = patch[key];
    delete patch[key];
    if (!Array.isArray(orderValue)) throw smpErrors.badArgType(LIST_TYPE, orderValue);
    const order: unknown[] = orderValue;
    const field = fieldOfParallelKey(key, SET_ELEMENT_ORDER);
    const inOriginal = has(original, field);
    const inPatch = has(patch, field);
    const live = inOriginal ? asList(original[field]) : [];
    const patched = inPatch ? asList(patch[field]) : [];
    const meta = fieldMeta(schema, field);
    checkPatchFollowsOrder(patched, order, meta.mergeKey);

    let merged: unknown[];
    let liveAfter = live;
    if (inOriginal && !inPatch) merged = live;
    else if (!inOriginal && inPatch) merged = cleanNew(patched) as unknown[];
    else if (inOriginal && inPatch) ({ merged, live: liveAfter } = mergeList(live, patched, meta, false, mergeMap));
    else continue;

    const [listed, serverOnly] = partition(merged, order, meta.mergeKey);
    const kind = elementKind(liveAfter, patched);
    original[field] = normalizeElementOrder(listed, serverOnly, order, liveAfter, meta.mergeKey, kind);
    delete patch[field];
  }
}

/** The patch list must name its elements in the same relative order as the $setElementOrder list. */
function checkPatchFollowsOrder(patchList: unknown[], order: unknown[], mergeKey: string): void {
  if (order.length === 0 || patchList.length === 0) return;
  let items = patchList;
  if (mergeKey) {
    for (const v of patchList) if (!isPlainObject(v)) throw smpErrors.badArgType(MAP_TYPE, v);
    items = patchList.filter((v) => (v as JsonMap)[DIRECTIVE] !== 'delete');
  }
  let p = 0;
  let o = 0;
  while (p < items.length && o < order.length) {
    const item = items[p];
    if (isPlainObject(item) && has(item, DIRECTIVE)) {
      p++;
      continue;
    }
    if (sameElement(item, order[o], mergeKey)) p++;
    o++;
  }
  if (p < items.length && o >= order.length) {
    throw smpErrors.other(
      `The order in patch list:\n${goFormat(patchList)}\n doesn't match ${SET_ELEMENT_ORDER} list:\n${goFormat(order)}\n`,
    );
  }
}

function sameElement(a: unknown, b: unknown, mergeKey: string): boolean {
  if (!mergeKey) return same(a, b);
  if (!isPlainObject(a)) throw smpErrors.badArgType(MAP_TYPE, a);
  if (!isPlainObject(b)) throw smpErrors.badArgType(MAP_TYPE, b);
  if (!has(a, mergeKey)) throw smpErrors.noMergeKey(a, mergeKey);
  if (!has(b, mergeKey)) throw smpErrors.noMergeKey(b, mergeKey);
  return same(a[mergeKey], b[mergeKey]);
}
