/**
 * Pruning of fields a CRD schema does not specify (upstream's structural
 * pruning): unknown object fields are deleted, except below
 * `x-kubernetes-preserve-unknown-fields` (until properties or
 * additionalProperties are specified again) and except apiVersion, kind and
 * metadata of embedded resources and of the resource root, whose metadata is
 * pruned to ObjectMeta separately (objectmeta-coerce.ts). Also upstream's
 * removal of nulls that neither are nullable nor have a default.
 */
import { isPlainObject, ownValue } from '../object';
import { additionalPropertiesSchema, itemsSchema, JSONSchemaProps, sortedKeys } from './json-schema-props';

const metaFields = new Set(['apiVersion', 'kind', 'metadata']);

interface Walk {
  /** The unknown fields' paths (`spec.foo`, `spec.items[0].bar`), when asked for. */
  unknown?: string[];
}

const join = (parent: string, key: string) => (parent ? `${parent}.${key}` : key);

/**
 * Deletes from `obj` what `schema` does not specify and returns the deleted
 * fields' paths, sorted, as upstream reports them for fieldValidation.
 * `isResourceRoot`: `obj` is a whole resource (its TypeMeta and metadata stay).
 */
export function pruneUnknownFields(obj: unknown, schema: JSONSchemaProps | undefined, isResourceRoot = true): string[] {
  let s = schema;
  if (isResourceRoot && !s?.['x-kubernetes-embedded-resource']) s = { ...(s ?? {}), 'x-kubernetes-embedded-resource': true };
  const walk: Walk = { unknown: [] };
  prune(obj, s, '', walk);
  return walk.unknown!.sort();
}

function prune(x: unknown, s: JSONSchemaProps | undefined, path: string, walk: Walk): void {
  if (s?.['x-kubernetes-preserve-unknown-fields']) {
    skipPrune(x, s, path, walk);
    return;
  }
  if (isPlainObject(x)) {
    if (!s) {
      for (const k of sortedKeys(x)) {
        walk.unknown?.push(join(path, k));
        delete x[k];
      }
      return;
    }
    const ap = s.additionalProperties;
    for (const k of sortedKeys(x)) {
      if (s['x-kubernetes-embedded-resource'] && metaFields.has(k)) continue;
      const prop = ownValue(s.properties, k);
      if (prop) prune(x[k], prop, join(path, k), walk);
      else if (ap !== undefined && ap !== null) prune(x[k], additionalPropertiesSchema(s), join(path, k), walk);
      else {
        // Upstream does not report TypeMeta and metadata at the top of a non-resource value.
        if (!metaFields.has(k) || path !== '') walk.unknown?.push(join(path, k));
        delete x[k];
      }
    }
    return;
  }
  if (Array.isArray(x)) {
    const items = s ? itemsSchema(s) : undefined;
    x.forEach((v, i) => prune(v, items, `${path}[${i}]`, walk));
  }
}

/** Below preserve-unknown-fields: keep everything, but prune inside what is specified. */
function skipPrune(x: unknown, s: JSONSchemaProps, path: string, walk: Walk): void {
  if (isPlainObject(x)) {
    const ap = s.additionalProperties;
    for (const k of sortedKeys(x)) {
      if (s['x-kubernetes-embedded-resource'] && metaFields.has(k)) continue;
      const prop = ownValue(s.properties, k);
      if (prop) prune(x[k], prop, join(path, k), walk);
      else if (ap !== undefined && ap !== null) prune(x[k], additionalPropertiesSchema(s), join(path, k), walk);
    }
    return;
  }
  if (Array.isArray(x)) {
    const items = itemsSchema(s);
    if (items) x.forEach((v, i) => skipPrune(v, items, `${path}[${i}]`, walk));
  }
}

/** The schema of an object field: its property, or the additionalProperties schema. */
function fieldSchema(s: JSONSchemaProps | undefined, k: string): JSONSchemaProps | undefined {
  return ownValue(s?.properties, k) ?? (s ? additionalPropertiesSchema(s) : undefined);
}

/**
 * Upstream's PruneNonNullableNullsWithoutDefaults: a null where the schema
 * is neither nullable nor has a default is removed (one with a default is
 * left for defaulting to fill).
 */
export function pruneNonNullableNulls(x: unknown, s: JSONSchemaProps | undefined): void {
  if (isPlainObject(x)) {
    for (const k of Object.keys(x)) {
      const sub = fieldSchema(s, k);
      if (x[k] === null && sub && !sub.nullable && (sub.default === undefined || sub.default === null)) delete x[k];
      else pruneNonNullableNulls(x[k], sub);
    }
  } else if (Array.isArray(x)) {
    const items = s ? itemsSchema(s) : undefined;
    for (const v of x) pruneNonNullableNulls(v, items);
  }
}
