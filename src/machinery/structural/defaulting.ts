/**
 * Structural defaulting (upstream's defaulting.Default): top-down, a
 * property that is absent, or null where the schema is not nullable, gets a
 * deep copy of its schema's default; then defaulting goes on inside every
 * value, including values just defaulted. Null list items and map values that
 * may not be null take the items' or additionalProperties' default. Upstream
 * runs it on decode of request bodies and on reads from storage, after
 * pruning and pruneNonNullableNulls.
 */
import { deepCopy, isPlainObject, ownValue } from '../object';
import { additionalPropertiesSchema, itemsSchema, JSONSchemaProps, sortedKeys } from './json-schema-props';

const hasDefault = (s: JSONSchemaProps | undefined) => s?.default !== undefined && s.default !== null;
/** Null where the schema does not allow null. */
const nonNullableNull = (x: unknown, s: JSONSchemaProps | undefined) => x === null && !!s && !s.nullable;

export function applyDefaults(x: unknown, s: JSONSchemaProps | undefined): void {
  if (!s) return;
  if (isPlainObject(x)) {
    for (const k of sortedKeys(s.properties)) {
      const prop = s.properties![k];
      if (hasDefault(prop) && (x[k] === undefined || nonNullableNull(x[k], prop))) x[k] = deepCopy(prop.default);
    }
    const ap = additionalPropertiesSchema(s);
    for (const k of sortedKeys(x)) {
      const prop = ownValue(s.properties, k);
      if (prop) applyDefaults(x[k], prop);
      else if (s.additionalProperties !== undefined && s.additionalProperties !== null) {
        if (nonNullableNull(x[k], ap) && hasDefault(ap)) x[k] = deepCopy(ap!.default);
        applyDefaults(x[k], ap);
      }
    }
  } else if (Array.isArray(x)) {
    const items = itemsSchema(s);
    for (let i = 0; i < x.length; i++) {
      if (nonNullableNull(x[i], items) && hasDefault(items)) x[i] = deepCopy(items!.default);
      applyDefaults(x[i], items);
    }
  }
}
