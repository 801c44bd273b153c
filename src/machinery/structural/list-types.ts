/**
 * The uniqueness that `x-kubernetes-list-type: set` and `map` promise
 * (upstream's ValidateListSetsAndMaps): a repeated set item, or a second
 * map-list item with the same key fields, is a `Duplicate value` at its
 * index; map-list items must be objects. Only the first repetition of each
 * value is reported, as upstream does.
 */
import { FieldError, FieldPath } from '../field-errors';
import { goJson } from '../managed-fields/go-values';
import { isPlainObject, ownValue } from '../object';
import { goBadValue } from './go-format';
import { additionalPropertiesSchema, itemsSchema, JSONSchemaProps, sortedKeys } from './json-schema-props';
import { childPath, indexPath, keyPath, OptionalPath } from './optional-path';

type Path = OptionalPath;
const child = childPath;
const key = keyPath;
const index = indexPath;

/** Validates every set and map list in `obj` (an object described by `s`); `path` is unset at the resource root. */
export function validateListSetsAndMaps(s: JSONSchemaProps | undefined, obj: unknown, path?: FieldPath): FieldError[] {
  if (!s || !isPlainObject(obj)) return [];
  const errs: FieldError[] = [];
  const ap = additionalPropertiesSchema(s);
  if (ap) for (const k of sortedKeys(obj)) errs.push(...visit(ap, obj[k], key(path, k)));
  if (s.properties) {
    for (const k of sortedKeys(obj)) {
      const sub = ownValue(s.properties, k);
      if (sub) errs.push(...visit(sub, obj[k], child(path, k)));
    }
  }
  return errs;
}

function visit(s: JSONSchemaProps, v: unknown, path: FieldPath): FieldError[] {
  if (Array.isArray(v)) return visitList(s, v, path);
  if (isPlainObject(v)) return validateListSetsAndMaps(s, v, path);
  return [];
}

const duplicate = (p: FieldPath, value: unknown): FieldError => ({ type: 'FieldValueDuplicate', field: p.toString(), badValue: goBadValue(value) });

function visitList(s: JSONSchemaProps, list: unknown[], path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const listType = s['x-kubernetes-list-type'];
  if (listType === 'set') for (const i of repeated(list)) errs.push(duplicate(index(path, i), list[i]));
  if (listType === 'map') errs.push(...mapList(s, list, path));
  const items = itemsSchema(s);
  if (items) list.forEach((item, i) => errs.push(...visit(items, item, index(path, i))));
  return errs;
}

/** Indices of the first repetition of each value; scalars compare by value, lists and objects by their JSON. */
function repeated(list: unknown[]): number[] {
  const seen = new Map<string, number>();
  const out: number[] = [];
  list.forEach((x, i) => {
    const id = Array.isArray(x) || isPlainObject(x) ? `c${goJson(x)}` : `s${typeof x}:${x === undefined ? 'null' : JSON.stringify(x)}`;
    const times = seen.get(id) ?? 0;
    if (times === 1) out.push(i);
    seen.set(id, times + 1);
  });
  return out;
}

/** An item's key: the single key's value, or the object of the key fields present; missing keys key alike. */
function mapList(s: JSONSchemaProps, list: unknown[], path: Path): FieldError[] {
  const bad = list.findIndex((x) => x !== null && x !== undefined && !isPlainObject(x));
  if (bad >= 0) {
    return [{ type: 'FieldValueInvalid', field: index(path, bad).toString(), badValue: goBadValue(list[bad]), detail: 'must be an object for an array of list-type map' }];
  }
  if (list.length <= 1) return [];
  const keyFields = s['x-kubernetes-list-map-keys'] ?? [];
  const unspecified = Symbol('unspecified');
  const keys = list.map((x) => {
    const item = isPlainObject(x) ? x : undefined;
    if (keyFields.length === 1) return item && item[keyFields[0]] !== undefined ? item[keyFields[0]] : unspecified;
    const k: Record<string, unknown> = {};
    for (const f of keyFields) if (item && item[f] !== undefined) k[f] = item[f];
    return k;
  });
  const ids = keys.map((k) => (k === unspecified ? { unspecified: true } : k));
  return repeated(ids).map((i) => {
    const k = keys[i];
    const shown = keyFields.length === 1 ? (k === unspecified ? {} : { [keyFields[0]]: k }) : k;
    return duplicate(index(path, i), shown);
  });
}
