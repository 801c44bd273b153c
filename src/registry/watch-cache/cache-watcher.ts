/**
 * One client watch over the cache, pulled by its consumer: `next()` hands
 * out the next event for this watcher (or nothing when it is caught up), and
 * `onWake` tells the consumer that more may be there. The watcher is only a
 * position in the shared event log plus, for watches that start with the
 * current state, a snapshot of matching objects taken atomically with that
 * position.
 *
 * Selector transitions follow upstream: an object that starts matching is
 * ADDED, one that stops matching is DELETED carrying its old content at the
 * new revision.
 */
import { errors, Status } from '../../machinery/status';
import type { CachedObject } from './cached-object';
import type { CacheEvent, ChangeType } from './event-log';
import type { KindCache, WatcherHandle } from './kind-cache';

export type WatchItem =
  /** prev: the object before a MODIFIED event (converting watchers match selectors on both). */
  | { readonly kind: 'event'; readonly type: ChangeType; readonly rev: number; readonly object: CachedObject; readonly prev?: CachedObject; frame(): Buffer }
  /** The initial state has been sent (sendInitialEvents): bookmark at rev. */
  | { kind: 'initial-events-end'; rev: number }
  /** The watch failed; send this Status as an ERROR event and close. */
  | { kind: 'error'; status: Status }
  /** The watcher was dropped (too slow); close without an event. */
  | { kind: 'end' };

export interface WatchStart {
  /** The watch delivers changes after this revision. */
  rev: number;
  /** Current state to send first as ADDED events (sorted by key). */
  snapshot?: CachedObject[];
  /** Emit 'initial-events-end' after the snapshot. */
  markInitialEnd?: boolean;
  /** Fail at once with this Status (sent as an ERROR event). */
  error?: Status;
}

/** What a watch stream pulls events from: a CacheWatcher, or one that converts its events first. */
export interface EventWatcher {
  /** Called (synchronously) when new events may be available. */
  onWake: (() => void) | undefined;
  readonly active: boolean;
  next(): WatchItem | undefined;
  bookmarkRevision(): number | undefined;
  close(): void;
}

export class CacheWatcher implements WatcherHandle, EventWatcher {
  readonly startRev: number;
  /** Highest revision this watcher has been shown or has skipped past. */
  private pos: number;
  private nextSeq = 0;
  private snapshot: CachedObject[] | undefined;
  private snapIndex = 0;
  private markInitialEnd: boolean;
  private failure: WatchItem | undefined;
  private closed = false;
  /** Called (synchronously) when new events may be available. */
  onWake: (() => void) | undefined;

  constructor(
    private readonly cache: KindCache,
    private readonly match: (o: CachedObject) => boolean,
    start: WatchStart,
    private readonly maxLag: number,
  ) {
    this.startRev = start.rev;
    this.pos = start.rev;
    this.snapshot = start.snapshot;
    this.markInitialEnd = !!start.markInitialEnd;
    if (start.error) {
      this.failure = { kind: 'error', status: start.error };
      return;
    }
    this.nextSeq = cache.log.seqAfter(start.rev);
    cache.addWatcher(this);
  }

  get active(): boolean {
    return !this.closed;
  }

  next(): WatchItem | undefined {
    if (this.failure) {
      const f = this.failure;
      this.failure = undefined;
      this.close();
      return f;
    }
    if (this.closed) return undefined;
    if (this.snapshot) {
      while (this.snapIndex < this.snapshot.length) {
        const o = this.snapshot[this.snapIndex++];
        if (this.match(o)) return { kind: 'event', type: 'ADDED', rev: o.rev, object: o, frame: () => addedFrame(o) };
      }
      this.snapshot = undefined;
      if (this.markInitialEnd) return { kind: 'initial-events-end', rev: this.pos };
    }
    const log = this.cache.log;
    for (;;) {
      if (log.evicted(this.nextSeq)) {
        this.close();
        return { kind: 'error', status: errors.expired(`too old resource version: ${this.pos} (${log.startRev})`).status };
      }
      const ev = log.at(this.nextSeq);
      if (!ev) return undefined;
      this.nextSeq++;
      // A watch from a revision the cache had not reached yet starts at the log's end: skip what it already has.
      if (ev.rev <= this.startRev) continue;
      if (ev.rev > this.pos) this.pos = ev.rev;
      const type = this.transition(ev);
      if (type) return eventItem(ev, type);
    }
  }

  /** Revision a bookmark may report: only when caught up, so that resuming from it skips nothing. */
  bookmarkRevision(): number | undefined {
    if (this.closed || this.snapshot || this.nextSeq < this.cache.log.endSeq) return undefined;
    return Math.max(this.pos, this.cache.revision);
  }

  /** Events waiting for this watcher. */
  lag(): number {
    const pending = this.snapshot ? this.snapshot.length - this.snapIndex : 0;
    return pending + (this.closed ? 0 : this.cache.log.endSeq - this.nextSeq);
  }

  wake(): void {
    if (this.closed) return;
    if (this.lag() > this.maxLag) {
      this.close();
      this.failure = { kind: 'end' };
    }
    this.onWake?.();
  }

  /** Ends the watch without an event (its kind is no longer served). */
  end(): void {
    if (this.closed) return;
    this.close();
    this.failure = { kind: 'end' };
    this.onWake?.();
  }

  expire(message: string): void {
    if (this.closed) return;
    this.close();
    this.failure = { kind: 'error', status: errors.expired(message).status };
    this.onWake?.();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.snapshot = undefined;
    this.cache.removeWatcher(this);
  }

  private transition(ev: CacheEvent): ChangeType | undefined {
    const was = !!ev.prev && this.match(ev.prev);
    const is = !!ev.object && this.match(ev.object);
    if (was && is) return 'MODIFIED';
    if (is) return 'ADDED';
    if (was) return 'DELETED';
    return undefined;
  }
}

/** What a watcher hands out for a change. */
export type EventItem = Extract<WatchItem, { kind: 'event' }>;

/**
 * The item of the event most recently handed out: the cache wakes every watcher of an event in one pass, so with
 * thousands of watchers the same event and type come by thousands of times in a row, and each took an item and a
 * closure of its own. Items are read, never changed, by their consumers. One slot only, and checked against the
 * event's object, which a slab compaction may have moved since.
 */
let last: { ev: CacheEvent; item: EventItem } | undefined;

function eventItem(ev: CacheEvent, type: ChangeType): EventItem {
  const object = (type === 'DELETED' ? ev.prev : ev.object)!;
  if (last?.ev === ev && last.item.type === type && last.item.object === object && last.item.prev === ev.prev) return last.item;
  const item: EventItem = { kind: 'event', type, rev: ev.rev, object, prev: ev.prev, frame: () => ev.frame(type) };
  last = { ev, item };
  return item;
}

const addedPrefix = Buffer.from('{"type":"ADDED","object":');
const suffix = Buffer.from('}\n');

function addedFrame(o: CachedObject): Buffer {
  return Buffer.concat([addedPrefix, o.bytes, suffix]);
}
