/**
 * JSON Merge Patch (RFC 7386) with the edge cases of the library upstream
 * uses (evanphx/json-patch v4 MergePatch): objects merge recursively, null
 * deletes, everything else replaces wholesale; nulls inside newly inserted
 * objects are pruned. Neither input is changed (the registry passes the
 * stored object itself), and the result shares nothing with them.
 */
import { deepCopy } from '../object';
import { errors } from '../status';
import { JsonMap, decodeBody, has, isPlainObject, put } from './json-values';

export function applyMergePatch(target: unknown, patch: unknown): unknown {
  const p = decodeBody(patch);
  // A null, string, number or boolean body is not a merge patch upstream (400, its exact text).
  if (!isPlainObject(p) && !Array.isArray(p)) throw errors.badRequest('Invalid JSON Patch');
  if (target === null || target === undefined) throw errors.untyped('Invalid JSON Document');
  const patchCopy = deepCopy(p);
  // A non-object on either side: the result is simply the (null-pruned) patch.
  if (!isPlainObject(patchCopy) || !isPlainObject(target)) return pruneNulls(patchCopy);
  return mergeInto(deepCopy(target), patchCopy);
}

function mergeInto(doc: JsonMap, patch: JsonMap): JsonMap {
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      delete doc[key];
      continue;
    }
    const current = has(doc, key) ? doc[key] : null;
    if (isPlainObject(current) && isPlainObject(value)) put(doc, key, mergeInto(current, value));
    // Upstream prunes nulls only when it inserts over a missing or non-object value.
    else put(doc, key, isPlainObject(current) ? value : pruneNulls(value));
  }
  return doc;
}

/** Drops null members of objects at any depth; null array elements stay, as upstream keeps them. */
function pruneNulls<T>(value: T): T {
  if (Array.isArray(value)) {
    for (const v of value) if (v !== null) pruneNulls(v);
  } else if (isPlainObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (v === null) delete value[k];
      else pruneNulls(v);
    }
  }
  return value;
}
