/**
 * Keys of the cached objects in sorted order, for lists and continue tokens.
 * Inserts and deletes are recorded cheaply and folded in on the next read
 * (a merge of the sorted array with the sorted additions), so a burst of
 * creates costs nothing until someone lists.
 */
export class KeyIndex {
  private sorted: string[] = [];
  private added: string[] = [];
  private removed = 0;

  constructor(private readonly has: (key: string) => boolean) {}

  add(key: string): void {
    this.added.push(key);
  }

  remove(): void {
    this.removed++;
  }

  clear(): void {
    this.sorted = [];
    this.added = [];
    this.removed = 0;
  }

  /** Sorted live keys in [start, end) (end undefined: to the end). */
  range(start: string, end: string | undefined): { keys: string[]; from: number; to: number } {
    const keys = this.normalize();
    const from = lowerBound(keys, start);
    const to = end === undefined ? keys.length : lowerBound(keys, end);
    return { keys, from, to };
  }

  private normalize(): string[] {
    if (this.added.length === 0 && this.removed === 0) return this.sorted;
    const add = this.added.filter((k) => this.has(k)).sort(compare);
    const out: string[] = [];
    let i = 0;
    let j = 0;
    const push = (k: string) => {
      if (out.length === 0 || out[out.length - 1] !== k) out.push(k);
    };
    while (i < this.sorted.length || j < add.length) {
      const a = this.sorted[i];
      const b = add[j];
      if (j >= add.length || (i < this.sorted.length && a <= b)) {
        if (this.has(a)) push(a);
        i++;
      } else {
        push(b);
        j++;
      }
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

/** First index in [lo, hi) whose key is not below key (hi when none). */
export function lowerBound(keys: string[], key: string, lo = 0, hi = keys.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First key after every key under prefix (the exclusive end of a prefix range). */
export function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}
