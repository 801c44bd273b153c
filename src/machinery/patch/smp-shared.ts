/** Strategic merge patch vocabulary: directive keys, per-field patch metadata, and clean-up of patch content. */
import { Schema, itemSchema, propertySchema } from '../schema/schema';
import { isPlainObject, put } from './json-values';
import { smpErrors } from './patch-errors';

export const DIRECTIVE = '$patch';
export const RETAIN_KEYS = '$retainKeys';
export const SET_ELEMENT_ORDER = '$setElementOrder';
export const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';

/** Keys that only steer the merge: upstream's typed decoding drops them, so the result never shows them. */
export function isDirectiveKey(key: string): boolean {
  return key === DIRECTIVE || key === RETAIN_KEYS || key.startsWith(SET_ELEMENT_ORDER) || key.startsWith(DELETE_FROM_PRIMITIVE_LIST);
}

/** `$setElementOrder/<field>` → `<field>`; a missing `/` or a longer prefix is a 400 format error. */
export function fieldOfParallelKey(key: string, prefix: typeof SET_ELEMENT_ORDER | typeof DELETE_FROM_PRIMITIVE_LIST): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) {
    throw prefix === SET_ELEMENT_ORDER ? smpErrors.badSetElementOrder() : smpErrors.badPrimitiveList();
  }
  return key.slice(slash + 1);
}

export interface FieldMeta {
  /** The field's own schema (undefined for fields the schema does not declare). */
  schema?: Schema;
  /** For lists: the element schema. */
  items?: Schema;
  /** '' (plain), 'merge' or 'replace'; retainKeys is split off as upstream does. */
  strategy: string;
  mergeKey: string;
}

/** Undeclared fields get no strategy: maps merge and lists replace, as for an untagged Go field. */
export function fieldMeta(parent: Schema | undefined, key: string): FieldMeta {
  const schema = propertySchema(parent, key);
  const declared = schema?.['x-kubernetes-patch-strategy'];
  return {
    schema,
    items: itemSchema(schema),
    strategy: strategyWithoutRetainKeys(typeof declared === 'string' ? declared : ''),
    mergeKey: schema?.['x-kubernetes-patch-merge-key'] ?? '',
  };
}

function strategyWithoutRetainKeys(declared: string): string {
  const parts = declared.split(',');
  if (parts.length === 1) return parts[0] === 'retainKeys' ? '' : parts[0];
  if (parts.length === 2 && parts[0] === 'retainKeys') return parts[1];
  if (parts.length === 2 && parts[1] === 'retainKeys') return parts[0];
  throw smpErrors.schema(`unexpected patch strategy: [${parts.join(' ')}]`);
}

/**
 * Patch content taken as-is (replace strategy, replaced lists, appended
 * elements): upstream stores it raw and its typed decoding then drops
 * directive keys and null members, which is what this does.
 */
export function stripRaw<T>(value: T): T {
  if (Array.isArray(value)) value.forEach(stripRaw);
  else if (isPlainObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (v === null || isDirectiveKey(k)) delete value[k];
      else stripRaw(v);
    }
  }
  return value;
}

/**
 * A value the original lacks: upstream drops null members and whole maps
 * that carry `$patch`, at any depth. Returns undefined when the value itself
 * is such a map.
 */
export function cleanNew(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cleanNew).filter((v) => v !== undefined);
  if (!isPlainObject(value)) return value;
  if (value[DIRECTIVE] !== undefined && value[DIRECTIVE] !== null) return undefined;
  for (const [k, v] of Object.entries(value)) {
    const cleaned = v === null || isDirectiveKey(k) ? undefined : cleanNew(v);
    if (cleaned === undefined) delete value[k];
    else put(value, k, cleaned);
  }
  return value;
}
