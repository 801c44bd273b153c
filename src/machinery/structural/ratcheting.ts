/**
 * Validation ratcheting on update (upstream's CRDValidationRatcheting): an
 * error inside a part of the object that equals its old counterpart is
 * dropped, so a stored object that a tightened schema no longer accepts can
 * still be updated elsewhere. Old and new values are correlated as upstream's
 * CorrelatedObject does: object fields by name, items of
 * `x-kubernetes-list-type: map` lists by their keys; other list items and
 * fields without a schema are not correlated.
 */
import { deepEqual, isPlainObject } from '../object';
import { ChildValidators, validateNode } from './value-validator';
import { Result } from './value-result';
import type { VNode } from './value-schema';

/** The composite key of a map-list item, or undefined when a key is missing or not a scalar. */
function itemKey(item: unknown, keys: string[]): string | undefined {
  if (!isPlainObject(item)) return undefined;
  const parts: string[] = [];
  for (const k of keys) {
    const v = item[k];
    if (!['string', 'number', 'boolean'].includes(typeof v)) return undefined;
    parts.push(`${typeof v}:${JSON.stringify(v)}`);
  }
  return parts.join('\u0000');
}

class Correlation {
  private equal?: boolean;
  private readonly children = new Map<string | number, Correlation | undefined>();
  /** Old map-list items by key, the first of each key winning, as upstream's MapList. */
  private oldByKey?: Map<string, unknown>;

  constructor(
    readonly value: unknown,
    readonly old: unknown,
    readonly node: VNode,
  ) {}

  key(field: string): Correlation | undefined {
    if (this.children.has(field)) return this.children.get(field);
    let out: Correlation | undefined;
    if (isPlainObject(this.value) && isPlainObject(this.old) && this.value[field] !== undefined && this.old[field] !== undefined) {
      const sub = this.node.propertyMap?.get(field) ?? this.node.additionalProperties?.schema;
      if (sub) out = new Correlation(this.value[field], this.old[field], sub);
    }
    this.children.set(field, out);
    return out;
  }

  index(i: number): Correlation | undefined {
    if (this.children.has(i)) return this.children.get(i);
    let out: Correlation | undefined;
    if (Array.isArray(this.value) && Array.isArray(this.old) && i < this.value.length && this.node.listType === 'map' && this.node.items) {
      this.oldByKey ??= this.indexOld();
      const key = itemKey(this.value[i], this.node.listMapKeys);
      const old = key === undefined ? undefined : this.oldByKey.get(key);
      if (old !== undefined && old !== null) out = new Correlation(this.value[i], old, this.node.items);
    }
    this.children.set(i, out);
    return out;
  }

  private indexOld(): Map<string, unknown> {
    const byKey = new Map<string, unknown>();
    const usable = this.node.types[0] === 'array' && this.node.listMapKeys.length > 0;
    for (const item of usable ? (this.old as unknown[]) : []) {
      const key = itemKey(item, this.node.listMapKeys);
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
    if ((value === null || value === undefined) && (old === null || old === undefined)) return true;
    if (value === null || value === undefined || old === null || old === undefined) return false;
    if (Array.isArray(value) !== Array.isArray(old) || isPlainObject(value) !== isPlainObject(old)) return false;
    if (Array.isArray(value)) {
      const oldList = old as unknown[];
      if (value.length !== oldList.length) return false;
      for (let i = 0; i < value.length; i++) {
        const child = this.index(i);
        // Lists that are not map lists compare whole; a map-list item without a counterpart differs.
        if (!child) return this.node.listType === 'map' ? false : deepEqual(old, value);
        if (!child.deepEqual()) return false;
      }
      return true;
    }
    if (isPlainObject(value)) {
      const keys = Object.keys(value).filter((k) => value[k] !== undefined);
      if (keys.length !== Object.keys(old as object).filter((k) => (old as Record<string, unknown>)[k] !== undefined).length) return false;
      return keys.every((k) => this.key(k)?.deepEqual() ?? false);
    }
    return deepEqual(old, value);
  }
}

function ratchet(node: VNode, path: string, corr: Correlation): Result {
  const children: ChildValidators = {
    field: (key, sub, p, value) => {
      const c = corr.key(key);
      // apiVersion and kind are converted alike on both sides, so changes to them cannot be seen.
      if (!c || (path === '' && (key === 'kind' || key === 'apiVersion'))) return validateNode(sub, p, value);
      return ratchet(sub, p, c);
    },
    index: (i, sub, p, value) => {
      const c = corr.index(i);
      return c ? ratchet(sub, p, c) : validateNode(sub, p, value);
    },
  };
  const res = validateNode(node, path, corr.value, children);
  if (res.valid || !corr.deepEqual()) return res;
  const kept = new Result();
  kept.matchCount = res.matchCount;
  return kept;
}

/** Validates `value` against `node`, dropping errors in parts unchanged from `old`. */
export function validateRatcheting(node: VNode, value: unknown, old: unknown): Result {
  return ratchet(node, '', new Correlation(value, old, node));
}
