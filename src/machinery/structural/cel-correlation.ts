/**
 * Old and new values paired the way upstream's CorrelatedObject pairs them
 * for ratcheting CEL rules on update: object fields by name (both sides
 * must have the field, and the schema must know it), items of
 * `x-kubernetes-list-type: map` lists by their keys; other list items have no
 * counterpart. Equality is computed once per pair, through the pairs
 * (so a reordered map list is unchanged, a field the schema does not
 * declare makes its object differ).
 */
import { deepEqual, isPlainObject } from '../object';
import { additionalPropertiesSchema, itemsSchema, JSONSchemaProps } from './json-schema-props';
import { mapListKey } from './validation-rules';

export class Correlation {
  private equal?: boolean;
  private readonly children = new Map<string | number, Correlation | undefined>();
  private oldByKey?: Map<string, unknown>;

  constructor(
    readonly value: unknown,
    readonly old: unknown,
    readonly schema: JSONSchemaProps,
  ) {}

  key(field: string): Correlation | undefined {
    if (this.children.has(field)) return this.children.get(field);
    let out: Correlation | undefined;
    const { value, old } = this;
    if (isPlainObject(value) && isPlainObject(old) && value[field] !== undefined && old[field] !== undefined) {
      const sub = this.schema.properties?.[field] ?? additionalPropertiesSchema(this.schema);
      if (sub) out = new Correlation(value[field], old[field], sub);
    }
    this.children.set(field, out);
    return out;
  }

  index(i: number): Correlation | undefined {
    if (this.children.has(i)) return this.children.get(i);
    let out: Correlation | undefined;
    const items = itemsSchema(this.schema);
    if (Array.isArray(this.value) && Array.isArray(this.old) && i < this.value.length && this.isMapList() && items) {
      const keys = this.schema['x-kubernetes-list-map-keys'] ?? [];
      this.oldByKey ??= this.indexOld(keys);
      const key = mapListKey(this.value[i], keys);
      const old = key === undefined ? undefined : this.oldByKey.get(key);
      if (old !== undefined && old !== null) out = new Correlation(this.value[i], old, items);
    }
    this.children.set(i, out);
    return out;
  }

  private isMapList(): boolean {
    return this.schema.type === 'array' && this.schema['x-kubernetes-list-type'] === 'map';
  }

  /** The first old item of each key wins, as upstream's MapList. */
  private indexOld(keys: readonly string[]): Map<string, unknown> {
    const byKey = new Map<string, unknown>();
    for (const item of this.old as unknown[]) {
      const key = mapListKey(item, keys);
      if (key !== undefined && !byKey.has(key)) byKey.set(key, item);
    }
    return byKey;
  }

  /** Upstream's CachedDeepEqual. */
  deepEqual(): boolean {
    this.equal ??= this.computeEqual();
    return this.equal;
  }

  private computeEqual(): boolean {
    const { value, old } = this;
    const absent = (v: unknown) => v === null || v === undefined;
    if (absent(value) && absent(old)) return true;
    if (absent(value) || absent(old)) return false;
    if (Array.isArray(value) !== Array.isArray(old) || isPlainObject(value) !== isPlainObject(old)) return false;
    if (Array.isArray(value)) {
      if (value.length !== (old as unknown[]).length) return false;
      for (let i = 0; i < value.length; i++) {
        const child = this.index(i);
        if (!child) return this.isMapList() ? false : deepEqual(old, value);
        if (!child.deepEqual()) return false;
      }
      return true;
    }
    if (isPlainObject(value)) {
      const keys = Object.keys(value).filter((k) => value[k] !== undefined);
      const oldObj = old as Record<string, unknown>;
      if (keys.length !== Object.keys(oldObj).filter((k) => oldObj[k] !== undefined).length) return false;
      return keys.every((k) => this.key(k)?.deepEqual() ?? false);
    }
    return deepEqual(old, value);
  }
}
