/**
 * Where `x-kubernetes-validations` (CEL) rules apply, for the CEL module to
 * evaluate: at compile time, every schema node with rules and its path in
 * the CRD; at run time, every value of an object whose schema node has rules,
 * with the old value correlated the way upstream correlates it for `oldSelf`
 * (object fields by name, items of map lists by their keys; other list items
 * have none). Null and absent values have no rules run on them.
 */
import { FieldPath } from '../field-errors';
import { isPlainObject, ownValue } from '../object';
import { additionalPropertiesSchema, itemsSchema, JSONSchemaProps, sortedKeys, ValidationRule } from './json-schema-props';
import { childPath, indexPath, keyPath, OptionalPath } from './optional-path';

export interface RuleSite {
  /** The node's path in the CRD, e.g. `spec.versions[0].schema.openAPIV3Schema.properties[spec]`. */
  path: FieldPath;
  schema: JSONSchemaProps;
  rules: ValidationRule[];
}

/** Every node of the structural schema that carries rules (junctors may not carry any). */
export function collectValidationRules(schema: JSONSchemaProps, path: FieldPath): RuleSite[] {
  const out: RuleSite[] = [];
  const walk = (s: JSONSchemaProps, p: FieldPath) => {
    const rules = s['x-kubernetes-validations'];
    if (rules?.length) out.push({ path: p, schema: s, rules });
    for (const k of sortedKeys(s.properties)) walk(s.properties![k], p.child('properties').key(k));
    const items = itemsSchema(s);
    if (items) walk(items, p.child('items'));
    const ap = additionalPropertiesSchema(s);
    if (ap) walk(ap, p.child('additionalProperties'));
  };
  walk(schema, path);
  return out;
}

export interface RuleTarget {
  schema: JSONSchemaProps;
  rules: ValidationRule[];
  value: unknown;
  /** The correlated old value; undefined on create or when the value has no counterpart. */
  oldValue: unknown;
  /** Where errors about this value go; undefined for the resource itself. */
  path: OptionalPath;
}

/** A map-list item's key (its key fields, all scalars), or undefined when it has none. */
export function mapListKey(item: unknown, keys: readonly string[]): string | undefined {
  if (!isPlainObject(item)) return undefined;
  const parts = keys.map((k) => item[k]);
  return parts.every((v) => ['string', 'number', 'boolean'].includes(typeof v)) ? JSON.stringify(parts) : undefined;
}

/** Calls `visit` for every value of `obj` whose schema has rules, parents before children. */
export function forEachRuleTarget(schema: JSONSchemaProps, obj: unknown, old: unknown, visit: (t: RuleTarget) => void, path?: FieldPath): void {
  const walk = (s: JSONSchemaProps, v: unknown, o: unknown, p: OptionalPath) => {
    if (v === null || v === undefined) return;
    const rules = s['x-kubernetes-validations'];
    if (rules?.length) visit({ schema: s, rules, value: v, oldValue: o === null ? undefined : o, path: p });
    if (isPlainObject(v)) {
      const oldMap = isPlainObject(o) ? o : undefined;
      const ap = additionalPropertiesSchema(s);
      for (const k of sortedKeys(v)) {
        const prop = ownValue(s.properties, k);
        if (prop) walk(prop, v[k], oldMap?.[k], childPath(p, k));
        else if (ap) walk(ap, v[k], oldMap?.[k], keyPath(p, k));
      }
    } else if (Array.isArray(v)) {
      const items = itemsSchema(s);
      if (!items) return;
      const keys = s['x-kubernetes-list-map-keys'] ?? [];
      const oldByKey = new Map<string, unknown>();
      if (s['x-kubernetes-list-type'] === 'map' && Array.isArray(o)) {
        for (const item of o) {
          const k = mapListKey(item, keys);
          if (k !== undefined && !oldByKey.has(k)) oldByKey.set(k, item);
        }
      }
      v.forEach((item, i) => {
        const k = mapListKey(item, keys);
        walk(items, item, k === undefined ? undefined : oldByKey.get(k), indexPath(p, i));
      });
    }
  };
  walk(schema, obj, old, path);
}
