/**
 * Strategic merge patch, applied as upstream's strategicpatch package does on
 * the server (parallel lists merged, unmatched nulls ignored), driven by the
 * x-kubernetes-patch-strategy / -merge-key extensions of our schema tree.
 * Inputs are never mutated; the result carries no directive keys.
 */
import { deepCopy } from '../object';
import { Schema } from '../schema/schema';
import { errors } from '../status';
import { JsonMap, has, isPlainObject, jsonWord, kindOf, put } from './json-values';
import { smpErrors } from './patch-errors';
import { mergeListField } from './smp-lists';
import { applySetElementOrder } from './smp-order';
import { DELETE_FROM_PRIMITIVE_LIST, DIRECTIVE, RETAIN_KEYS, SET_ELEMENT_ORDER, cleanNew, fieldMeta, fieldOfParallelKey, stripRaw } from './smp-shared';

export function applyStrategicMergePatch(original: object, patch: object, schema: Schema): object {
  // A JSON null body decodes to an empty patch upstream: nothing changes.
  if (patch === null || patch === undefined) return deepCopy(original);
  if (!isPlainObject(patch)) {
    throw errors.badRequest(`json: cannot unmarshal ${jsonWord(patch)} into Go value of type map[string]interface {}`);
  }
  if (!isPlainObject(original)) throw smpErrors.badJSONDoc();
  return mergeMap(deepCopy(original), deepCopy(patch), schema);
}

/** Merges `patch` into `original` (both ours to mutate) and returns the result. */
function mergeMap(original: JsonMap, patch: JsonMap, schema: Schema | undefined): JsonMap {
  if (has(patch, DIRECTIVE)) return mapDirective(patch);
  applyRetainKeys(original, patch);
  applySetElementOrder(original, patch, schema, mergeMap);

  for (const key of Object.keys(patch)) {
    const patchValue = patch[key];
    const isDeleteList = key.startsWith(DELETE_FROM_PRIMITIVE_LIST);
    const field = isDeleteList ? fieldOfParallelKey(key, DELETE_FROM_PRIMITIVE_LIST) : key;

    if (patchValue === null) {
      delete original[field];
      continue;
    }
    if (!has(original, field) || kindOf(original[field]) !== kindOf(patchValue)) {
      // Nothing to merge with: take the patch value (a delete list has nothing to delete from).
      if (isDeleteList) continue;
      const value = cleanNew(patchValue);
      if (value === undefined) delete original[field];
      else put(original, field, value);
      continue;
    }

    const current = original[field];
    if (isPlainObject(current)) {
      const meta = fieldMeta(schema, field);
      const value = meta.strategy === 'replace' ? stripRaw(patchValue as JsonMap) : mergeMap(current, patchValue as JsonMap, meta.schema);
      put(original, field, value);
    } else if (Array.isArray(current)) {
      put(original, field, mergeListField(current, patchValue as unknown[], fieldMeta(schema, field), isDeleteList, mergeMap));
    } else {
      put(original, field, patchValue);
    }
  }
  return original;
}

/** `$patch` in a map: replace → the patch itself, delete → an empty map; anything else is refused. */
function mapDirective(patch: JsonMap): JsonMap {
  const directive = patch[DIRECTIVE];
  if (directive === 'replace') {
    delete patch[DIRECTIVE];
    return stripRaw(patch);
  }
  if (directive === 'delete') return {};
  throw smpErrors.badPatchType(directive, patch);
}

/** `$retainKeys`: every key the patch sets must be listed; keys of the original that are not listed go. */
function applyRetainKeys(original: JsonMap, patch: JsonMap): void {
  if (!has(patch, RETAIN_KEYS)) return;
  const listed = patch[RETAIN_KEYS];
  delete patch[RETAIN_KEYS];
  if (!Array.isArray(listed)) throw smpErrors.badRetainKeys();
  const keep = new Set<unknown>(listed);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(DELETE_FROM_PRIMITIVE_LIST) || k.startsWith(SET_ELEMENT_ORDER)) continue;
    if (!keep.has(k)) throw smpErrors.badRetainKeys();
  }
  for (const k of Object.keys(original)) if (!keep.has(k)) delete original[k];
}
