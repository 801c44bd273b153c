/**
 * The slabs of one kind, and their compaction. An update or a delete leaves
 * the old bytes behind, and one object still in use keeps its whole slab, so
 * under churn the slabs would grow to many times what is alive. Objects
 * created one by one also land in arrival order, so a list of them is many
 * small slices to copy. Compaction rewrites everything still referenced (the
 * current objects in key order, then the older versions the history holds)
 * into fresh slabs; the old ones are then freed, and lists send long runs.
 */
import { bigSlabsAfter, slabBytes, SlabWriter } from './byte-slab';
import type { CachedObject } from './cached-object';
import type { EventLog } from './event-log';
import type { ObjectIndex } from './object-index';

/** Lists shorter than this are cheap to copy whatever their layout. */
const minScatteredList = 1000;

export class KindSlabs {
  writer = new SlabWriter();
  /** Bytes the current objects take in slabs (commas included). */
  private live = 0;
  private lastRun = Number.NEGATIVE_INFINITY;
  /** Bytes that lists copied piece by piece (scattered runs) since the last compaction. */
  private copiedScattered = 0;
  private pending: NodeJS.Immediate | undefined;

  constructor(
    private readonly now: () => number,
    /** Compactions at most this often (each copies every referenced byte once). */
    private readonly minIntervalMs: number,
  ) {}

  /** Starts over with no objects (a first load). */
  reset(): void {
    this.writer = new SlabWriter();
    this.live = 0;
  }

  /** The current object under a key changed from prev to next (either may be absent). */
  replaced(prev: CachedObject | undefined, next: CachedObject | undefined): void {
    this.live += (next ? next.size + 1 : 0) - (prev ? prev.size + 1 : 0);
  }

  /** True when more than half of what was written is no longer referenced by the objects or the history. */
  wasteful(historyBytes: number): boolean {
    return this.writer.written > 2 * (this.live + historyBytes) + 16 * slabBytes;
  }

  /** True when a list of these objects (in key order) would be copied in many small pieces. */
  scattered(objects: readonly CachedObject[], from: number, to: number): boolean {
    return this.scatteredBytes(objects, from, to) > 0;
  }

  /**
   * A list is about to send objects[from, to) whole: true when a compaction should follow. That is when the run is
   * scattered and a compaction is due, or, before the interval is up, once the scattered runs lists copied since
   * the last one add up to more than a compaction copies (every referenced byte once), a second at least after it: a
   * big kind that a controller's pass compacted just before new objects came would otherwise have every list copy
   * them piece by piece for the rest of the interval.
   */
  listed(objects: readonly CachedObject[], from: number, to: number, historyBytes: number): boolean {
    if (this.pending) return false;
    const bytes = this.scatteredBytes(objects, from, to);
    if (!bytes) return false;
    this.copiedScattered += bytes;
    if (this.due) return true;
    return this.copiedScattered > this.live + historyBytes && this.now() - this.lastRun >= Math.min(this.minIntervalMs, 1000);
  }

  /** The bytes of objects[from, to) when they would be copied in many small pieces, else 0. */
  private scatteredBytes(objects: readonly CachedObject[], from: number, to: number): number {
    if (to - from < minScatteredList) return 0;
    let breaks = 0;
    let bytes = objects[from].size;
    for (let i = from + 1; i < to; i++) {
      const a = objects[i - 1];
      const b = objects[i];
      bytes += b.size;
      if (b.slab !== a.slab || b.start !== a.start + a.size + 1) breaks++;
    }
    return breaks * 8 > to - from ? bytes : 0;
  }

  /** False while a compaction is scheduled or one ran less than the minimum interval ago. */
  get due(): boolean {
    return !this.pending && this.now() - this.lastRun >= this.minIntervalMs;
  }

  /** Runs `compact` soon (not inside the caller, who may hold a list), unless it is not due (or `anyway`). */
  schedule(compact: () => void, anyway = false): void {
    if (this.pending || !(anyway || this.due)) return;
    this.pending = setImmediate(() => {
      this.pending = undefined;
      compact();
    });
    this.pending.unref?.();
  }

  /** Rewrites the objects and the history's versions into fresh slabs. */
  compact(objects: ObjectIndex, history: EventLog | undefined): void {
    this.lastRun = this.now();
    this.copiedScattered = 0;
    const writer = new SlabWriter(this.live > bigSlabsAfter);
    objects.rewrite((o) => o.copyTo(writer));
    // An event's object is the current one (already copied) or an older version, which may appear twice (object of one event, prev of the next).
    const older = new Map<CachedObject, CachedObject>();
    history?.forEach((ev) =>
      ev.relocate((o) => {
        const current = objects.get(o.key);
        if (current && current.rev === o.rev) return current;
        let copy = older.get(o);
        if (!copy) older.set(o, (copy = o.copyTo(writer)));
        return copy;
      }),
    );
    this.writer = writer;
  }

  cancel(): void {
    clearImmediate(this.pending);
    this.pending = undefined;
  }
}
