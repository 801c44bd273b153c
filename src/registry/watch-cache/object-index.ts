/**
 * The current objects of one kind, in key order: one array, searched by
 * halving for a get, sliced for a list. No map by key: for a kind of small
 * objects a hash table costs a fifth of their JSON size again.
 *
 * A change to an existing object replaces it in place, and a key past every
 * other (a load in key order) goes on the end; other new keys wait in a small
 * map, and deleted ones leave a tombstone, until the next list (or until
 * there are many) folds them in with one merge, so a burst of creates costs
 * nothing until someone lists.
 */
import { CachedObject } from './cached-object';

/** Where a deleted object was, until the next merge. */
class Tombstone {
  constructor(readonly key: string) {}
}

type Entry = CachedObject | Tombstone;

/** Pending additions or tombstones beyond this are merged without waiting for a list. */
const maxPending = 4096;

export class ObjectIndex {
  private sorted: Entry[] = [];
  private added = new Map<string, CachedObject>();
  private tombstones = 0;
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(key: string): CachedObject | undefined {
    const pending = this.added.get(key);
    if (pending) return pending;
    const e = this.sorted[lowerBound(this.sorted, key)];
    return e instanceof CachedObject && e.key === key ? e : undefined;
  }

  /** Every object by key (a copy, for comparing a relisted state). */
  toMap(): Map<string, CachedObject> {
    return new Map(this.ordered().map((o) => [o.key, o]));
  }

  /** Adds or replaces the object under its key; returns the one it replaced. */
  set(o: CachedObject): CachedObject | undefined {
    const pending = this.added.get(o.key);
    if (pending) {
      this.added.set(o.key, o);
      return pending;
    }
    const i = lowerBound(this.sorted, o.key);
    const e = this.sorted[i];
    if (e && e.key === o.key) {
      this.sorted[i] = o;
      if (e instanceof CachedObject) return e;
      this.tombstones--;
    } else if (i === this.sorted.length) this.sorted.push(o);
    else {
      this.added.set(o.key, o);
      if (this.added.size > maxPending) this.merge();
    }
    this.count++;
    return undefined;
  }

  delete(key: string): CachedObject | undefined {
    const pending = this.added.get(key);
    if (pending) {
      this.added.delete(key);
      this.count--;
      return pending;
    }
    const i = lowerBound(this.sorted, key);
    const e = this.sorted[i];
    if (!(e instanceof CachedObject) || e.key !== key) return undefined;
    this.sorted[i] = new Tombstone(key);
    this.count--;
    if (++this.tombstones > maxPending) this.merge();
    return e;
  }

  clear(): void {
    this.sorted = [];
    this.added = new Map();
    this.tombstones = 0;
    this.count = 0;
  }

  /** Objects with keys in [start, end): objects[from..to). */
  range(start: string, end: string): { objects: CachedObject[]; from: number; to: number } {
    const objects = this.ordered();
    return { objects, from: lowerBound(objects, start), to: lowerBound(objects, end) };
  }

  /** Replaces every object by fn(object), which must keep its key (compaction moves bytes, not objects). */
  rewrite(fn: (o: CachedObject) => CachedObject): void {
    const objects = this.ordered();
    for (let i = 0; i < objects.length; i++) objects[i] = fn(objects[i]);
  }

  private ordered(): CachedObject[] {
    if (this.added.size || this.tombstones) this.merge();
    return this.sorted as CachedObject[];
  }

  private merge(): void {
    const add = [...this.added.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const base = this.sorted;
    const out: Entry[] = [];
    let i = 0;
    let j = 0;
    while (i < base.length || j < add.length) {
      if (j >= add.length || (i < base.length && base[i].key < add[j].key)) {
        const e = base[i++];
        if (e instanceof CachedObject) out.push(e);
      } else out.push(add[j++]);
    }
    this.sorted = out;
    this.added = new Map();
    this.tombstones = 0;
  }
}

/** First index in [lo, hi) whose key is not below key (hi when none). */
export function lowerBound(entries: readonly { key: string }[], key: string, lo = 0, hi = entries.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (entries[mid].key < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First key after every key under prefix (the exclusive end of a prefix range). */
export function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}
