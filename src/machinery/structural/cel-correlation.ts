/**
 * Old and new values paired the way upstream's CorrelatedObject pairs them,
 * for ratcheting on update (CEL rules, and schema validation): object fields
 * by name (both sides must have the field, and the schema must know it),
 * items of `x-kubernetes-list-type: map` lists by their keys (the first old
 * item of each key winning, as upstream's MapList); other list items have no
 * counterpart. Equality is computed once per pair, through the pairs (so a
 * reordered map list is unchanged, a field the schema does not declare makes
 * its object differ). Generic over the schema's form: the CEL validator
 * walks JSONSchemaProps, schema validation its compiled nodes.
 */
import { deepEqual, isPlainObject } from '../object';
import { mapListKey } from './validation-rules';

/** How a correlation reads its schema. */
export interface CorrelatedSchema<S> {
  /** The schema of a field, when the schema knows it. */
  field(schema: S, name: string): S | undefined;
  /** For a map list: its items' schema and keys. */
  mapList(schema: S): { items: S; keys: readonly string[] } | undefined;
}

export class Correlation<S> {
  private equal?: boolean;
  private readonly children = new Map<string | number, Correlation<S> | undefined>();
  private oldByKey?: Map<string, unknown>;

  constructor(
    readonly value: unknown,
    readonly old: unknown,
    readonly schema: S,
    private readonly reads: CorrelatedSchema<S>,
  ) {}

  key(field: string): Correlation<S> | undefined {
    if (this.children.has(field)) return this.children.get(field);
    let out: Correlation<S> | undefined;
    const { value, old } = this;
    if (isPlainObject(value) && isPlainObject(old) && value[field] !== undefined && old[field] !== undefined) {
      const sub = this.reads.field(this.schema, field);
      if (sub) out = new Correlation(value[field], old[field], sub, this.reads);
    }
    this.children.set(field, out);
    return out;
  }

  index(i: number): Correlation<S> | undefined {
    if (this.children.has(i)) return this.children.get(i);
    let out: Correlation<S> | undefined;
    const list = this.reads.mapList(this.schema);
    if (list && Array.isArray(this.value) && Array.isArray(this.old) && i < this.value.length) {
      this.oldByKey ??= this.indexOld(list.keys);
      const key = mapListKey(this.value[i], list.keys);
      const old = key === undefined ? undefined : this.oldByKey.get(key);
      if (old !== undefined && old !== null) out = new Correlation(this.value[i], old, list.items, this.reads);
    }
    this.children.set(i, out);
    return out;
  }

  /** Old items by key, the first of each key winning; none without keys. */
  private indexOld(keys: readonly string[]): Map<string, unknown> {
    const byKey = new Map<string, unknown>();
    for (const item of keys.length ? (this.old as unknown[]) : []) {
      const key = mapListKey(item, keys);
      if (key !== undefined && !byKey.has(key)) byKey.set(key, item);
    }
    return byKey;
  }

  /** Upstream's CachedDeepEqual: equality through correlated children only. */
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
        // Lists that are not map lists compare whole; a map-list item without a counterpart differs.
        if (!child) return this.reads.mapList(this.schema) ? false : deepEqual(old, value);
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
