/**
 * Fans committed writes of the lmdb store out to watchers.
 *
 * Commits may resolve out of order, so events wait in `pending` until every
 * lower revision is in; `notified` is then the highest revision all watchers
 * may see. Recent events stay in memory; a watcher further behind replays
 * from the on-disk log in chunks, then switches to the in-memory tail.
 * Each watcher keeps `rev`, the highest revision it has been shown (matching
 * or not), so it never sees an event twice and never skips one.
 * The in-memory tail is bounded by count and by bytes (values and previous
 * values), so large objects written often cannot pile up in memory.
 */
import type { StorageEvent, WatchCallbacks, WatchHandle } from '../../ports/storage.port';
import { CompactedError } from '../../ports/storage.port';
import { inRange, prefixEnd } from './lmdb-records';

export interface LogSource {
  /** Events under [start, end) in (after, upTo], at most maxScan revisions. */
  read(start: string, end: string | undefined, after: number, upTo: number, maxScan: number):
    { events: StorageEvent[]; scannedTo: number } | CompactedError;
  compactedRevision(): number;
}

interface Watcher {
  start: string;
  end: string | undefined;
  rev: number;
  callbacks: WatchCallbacks;
  active: boolean;
  catchingUp: boolean;
}

const REPLAY_CHUNK = 1000;

export class WatchHub {
  private readonly watchers = new Set<Watcher>();
  private readonly pending = new Map<number, StorageEvent>();
  private recent: StorageEvent[] = [];
  /** Revision of recent[0] (recent holds a contiguous run of revisions). */
  private recentStart: number;
  private recentBytes = 0;

  constructor(
    private notified: number,
    private readonly log: LogSource,
    private readonly maxRecent = 10000,
    // Small: caught-up watchers (the watch cache) never read the tail, and what it holds is outside the watch
    // cache's history bound (300 replaces of a 900 KB object kept 32 MiB here besides that bound).
    private readonly maxRecentBytes = 4 * 1024 * 1024,
  ) {
    this.recentStart = notified + 1;
  }

  /** Highest revision delivered to watchers so far. */
  get notifiedRevision(): number {
    return this.notified;
  }

  /** Records a committed write; delivers it once all lower revisions are in. */
  committed(event: StorageEvent): void {
    this.pending.set(event.modRevision, event);
    const before = this.notified;
    while (this.pending.has(this.notified + 1)) {
      const next = this.pending.get(this.notified + 1)!;
      this.recent.push(next);
      this.recentBytes += sizeOf(next);
      this.pending.delete(++this.notified);
    }
    if (this.notified === before) return;
    for (const w of this.watchers) if (!w.catchingUp) this.deliverRecent(w);
    // Trim after delivering, so live watchers never fall behind the tail; trim well below the limits.
    if (this.recent.length > 2 * this.maxRecent || this.recentBytes > this.maxRecentBytes) {
      let drop = Math.max(0, this.recent.length - this.maxRecent);
      let bytes = this.recentBytes;
      for (let i = 0; i < drop; i++) bytes -= sizeOf(this.recent[i]);
      while (drop < this.recent.length - 1 && bytes > this.maxRecentBytes / 2) bytes -= sizeOf(this.recent[drop++]);
      this.recent = this.recent.slice(drop);
      this.recentStart += drop;
      this.recentBytes = bytes;
    }
  }

  /** A commit failed: its revision will be reused, forget anything queued above it. */
  reset(committedRevision: number): void {
    for (const rev of this.pending.keys()) if (rev > committedRevision) this.pending.delete(rev);
  }

  watch(prefix: string, fromRevision: number, callbacks: WatchCallbacks): WatchHandle {
    const w: Watcher = {
      start: prefix,
      end: prefixEnd(prefix),
      rev: fromRevision,
      callbacks,
      active: true,
      catchingUp: true,
    };
    this.watchers.add(w);
    setImmediate(() => this.catchUp(w));
    return {
      cancel: () => this.drop(w),
      // In-process and synchronous, so a caught-up watcher can say so at once.
      requestProgress: () => {
        if (w.active && !w.catchingUp && w.rev === this.notified) this.progress(w);
      },
    };
  }

  /** Periodic progress for idle watchers that have seen everything. */
  tick(): void {
    for (const w of this.watchers) {
      if (!w.catchingUp && w.rev === this.notified) this.progress(w);
    }
  }

  close(): void {
    for (const w of this.watchers) w.active = false;
    this.watchers.clear();
  }

  private catchUp(w: Watcher): void {
    if (!w.active) return;
    const compacted = this.log.compactedRevision();
    if (w.rev + 1 < compacted) return this.fail(w, new CompactedError(w.rev + 1, compacted));
    if (w.rev + 1 >= this.recentStart || w.rev >= this.notified) {
      w.catchingUp = false;
      this.deliverRecent(w);
      if (w.active && w.rev <= this.notified) this.progress(w);
      return;
    }
    const result = this.log.read(w.start, w.end, w.rev, this.notified, REPLAY_CHUNK);
    if (result instanceof CompactedError) return this.fail(w, result);
    this.deliver(w, result.events);
    w.rev = Math.max(w.rev, result.scannedTo);
    setImmediate(() => this.catchUp(w));
  }

  private deliverRecent(w: Watcher): void {
    if (w.rev >= this.notified) return;
    const from = Math.max(0, w.rev + 1 - this.recentStart);
    const events: StorageEvent[] = [];
    for (let i = from; i < this.recent.length; i++) {
      const e = this.recent[i];
      if (inRange(e.key, w.start, w.end)) events.push(e);
    }
    w.rev = this.notified;
    this.deliver(w, events);
  }

  private deliver(w: Watcher, events: StorageEvent[]): void {
    if (events.length === 0 || !w.active) return;
    try {
      w.callbacks.onEvents(events);
    } catch (err) {
      // A throwing consumer would otherwise silently miss events; end its watch instead.
      this.fail(w, err instanceof Error ? err : new Error(String(err)));
    }
  }

  private progress(w: Watcher): void {
    try {
      w.callbacks.onProgress?.(w.rev);
    } catch (err) {
      this.fail(w, err instanceof Error ? err : new Error(String(err)));
    }
  }

  private fail(w: Watcher, error: Error): void {
    if (!w.active) return;
    this.drop(w);
    w.callbacks.onError(error);
  }

  private drop(w: Watcher): void {
    w.active = false;
    this.watchers.delete(w);
  }
}

function sizeOf(e: StorageEvent): number {
  return e.value?.length ?? 0;
}
