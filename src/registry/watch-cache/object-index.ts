/**
 * The current objects of one kind: by key for gets, and in key order for
 * lists and continue tokens. New keys and deletions are recorded cheaply and
 * folded into the ordered array on the next read (a merge with the sorted
 * additions), so a burst of creates costs nothing until someone lists; a
 * change to an existing object replaces it in place, so a list after updates
 * is a slice of the array, not a lookup per key.
 */
import type { CachedObject } from './cached-object';

export class ObjectIndex {
  private readonly byKey = new Map<string, CachedObject>();
  /** In key order; after a deletion it may still hold deleted objects until the next read. */
  private sorted: CachedObject[] = [];
  private added: string[] = [];
  private removed = 0;

  get size(): number {
    return this.byKey.size;
  }

  get(key: string): CachedObject | undefined {
    return this.byKey.get(key);
  }

  /** The objects by key (read only: change them through set and delete). */
  get map(): ReadonlyMap<string, CachedObject> {
    return this.byKey;
  }

  /** Adds or replaces the object under its key; returns the one it replaced. */
  set(o: CachedObject): CachedObject | undefined {
    const prev = this.byKey.get(o.key);
    this.byKey.set(o.key, o);
    if (!prev) {
      this.added.push(o.key);
      return undefined;
    }
    const i = lowerBound(this.sorted, o.key);
    // Not there: the key is still among the additions, which are resolved by key when merged.
    if (i < this.sorted.length && this.sorted[i].key === o.key) this.sorted[i] = o;
    return prev;
  }

  delete(key: string): CachedObject | undefined {
    const prev = this.byKey.get(key);
    if (!prev) return undefined;
    this.byKey.delete(key);
    this.removed++;
    return prev;
  }

  /** Replaces every object by fn(object), which must keep its key (compaction moves bytes, not objects). */
  rewrite(fn: (o: CachedObject) => CachedObject): void {
    const sorted = this.normalize();
    for (let i = 0; i < sorted.length; i++) {
      const o = fn(sorted[i]);
      sorted[i] = o;
      this.byKey.set(o.key, o);
    }
  }

  clear(): void {
    this.byKey.clear();
    this.sorted = [];
    this.added = [];
    this.removed = 0;
  }

  /** Live objects with keys in [start, end): objects[from..to). */
  range(start: string, end: string): { objects: CachedObject[]; from: number; to: number } {
    const objects = this.normalize();
    return { objects, from: lowerBound(objects, start), to: lowerBound(objects, end) };
  }

  private normalize(): CachedObject[] {
    if (this.added.length === 0 && this.removed === 0) return this.sorted;
    const live = (o: CachedObject) => this.byKey.get(o.key) === o;
    const add = this.added.filter((k) => this.byKey.has(k)).sort(compare);
    const base = this.removed ? this.sorted.filter(live) : this.sorted;
    const out: CachedObject[] = [];
    // A key deleted and added again can be in both lists (as the same, current object): keep it once.
    const push = (o: CachedObject) => {
      if (out.length === 0 || out[out.length - 1].key !== o.key) out.push(o);
    };
    let i = 0;
    let j = 0;
    while (i < base.length || j < add.length) {
      if (j >= add.length || (i < base.length && base[i].key <= add[j])) push(base[i++]);
      else push(this.byKey.get(add[j++])!);
    }
    this.sorted = out;
    this.added = [];
    this.removed = 0;
    return out;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** First index in [lo, hi) whose object's key is not below key (hi when none). */
export function lowerBound(objects: readonly CachedObject[], key: string, lo = 0, hi = objects.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (objects[mid].key < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First key after every key under prefix (the exclusive end of a prefix range). */
export function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}
