/**
 * The window of recent changes of one kind. Every event gets a sequence
 * number; a watcher's position is the next sequence it will read, so any
 * number of watchers share one log and a lagging watcher costs no memory.
 * Old events go once they are both older than the time window and beyond
 * the minimum count (or beyond the hard cap).
 */
import type { CachedObject } from './cached-object';

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

export class CacheEvent {
  /** Wire frames per event type, encoded on first use and shared by every watcher. */
  private frames?: Partial<Record<ChangeType, Buffer>>;

  constructor(
    readonly type: ChangeType,
    readonly rev: number,
    readonly key: string,
    /** New state (ADDED, MODIFIED); undefined for DELETED. */
    readonly object: CachedObject | undefined,
    /** State before the change (MODIFIED, DELETED). */
    readonly prev: CachedObject | undefined,
    readonly time: number,
  ) {}

  /** `{"type":T,"object":...}\n` where DELETED carries the last state at the deletion revision. */
  frame(type: ChangeType): Buffer {
    const cached = this.frames?.[type];
    if (cached) return cached;
    const body = type === 'DELETED' ? this.prev!.bytesAt(this.rev) : this.object!.bytes;
    const frame = Buffer.concat([framePrefix[type], body, frameSuffix]);
    (this.frames ??= {})[type] = frame;
    return frame;
  }
}

export const framePrefix: Record<ChangeType | 'BOOKMARK' | 'ERROR', Buffer> = {
  ADDED: Buffer.from('{"type":"ADDED","object":'),
  MODIFIED: Buffer.from('{"type":"MODIFIED","object":'),
  DELETED: Buffer.from('{"type":"DELETED","object":'),
  BOOKMARK: Buffer.from('{"type":"BOOKMARK","object":'),
  ERROR: Buffer.from('{"type":"ERROR","object":'),
};
export const frameSuffix = Buffer.from('}\n');

export interface HistoryLimits {
  windowMs: number;
  minEvents: number;
  maxEvents: number;
}

export class EventLog {
  /** events[head..] are live; the dead prefix is cut off in bulk, not per event. */
  private events: CacheEvent[] = [];
  private head = 0;
  /** Sequence number of events[head]. */
  private base = 0;
  /** Every event with rev > startRev is still here. */
  private start: number;

  constructor(
    startRev: number,
    private readonly limits: HistoryLimits,
    private readonly now: () => number = Date.now,
  ) {
    this.start = startRev;
  }

  get startRev(): number {
    return this.start;
  }

  /** Sequence number the next appended event will get. */
  get endSeq(): number {
    return this.base + this.length;
  }

  get length(): number {
    return this.events.length - this.head;
  }

  /** The event at a sequence number, or undefined when evicted or not yet written. */
  at(seq: number): CacheEvent | undefined {
    return seq < this.base ? undefined : this.events[this.head + seq - this.base];
  }

  /** True when the event at seq has been dropped already. */
  evicted(seq: number): boolean {
    return seq < this.base;
  }

  append(event: CacheEvent): void {
    this.events.push(event);
  }

  /** First sequence whose event has rev > rev (endSeq when none). */
  seqAfter(rev: number): number {
    let lo = this.head;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.events[mid].rev <= rev) lo = mid + 1;
      else hi = mid;
    }
    return this.base + lo - this.head;
  }

  /** Drops what the limits allow; returns how many went. */
  trim(): number {
    const cutoff = this.now() - this.limits.windowMs;
    const n = this.events.length;
    let i = this.head;
    while (i < n) {
      const left = n - i;
      if (left > this.limits.maxEvents || (left > this.limits.minEvents && this.events[i].time < cutoff)) i++;
      else break;
    }
    if (i === this.head) return 0;
    this.start = this.events[i - 1].rev;
    // An event sharing its revision with a dropped one goes too: the window starts after that revision.
    while (i < n && this.events[i].rev === this.start) i++;
    const dropped = i - this.head;
    for (let j = this.head; j < i; j++) (this.events as (CacheEvent | undefined)[])[j] = undefined;
    this.base += dropped;
    this.head = i;
    if (this.head > 1024 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.head = 0;
    }
    return dropped;
  }
}
