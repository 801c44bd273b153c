/**
 * The window of recent changes of one kind. Every event gets a sequence
 * number; a watcher's position is the next sequence it will read, so any
 * number of watchers share one log and a lagging watcher costs no memory.
 * Old events go once they are older than the time window, once the kind
 * holds more than the hard cap of events, or when every kind's history
 * together holds more bytes than the shared budget (oldest first). Watches
 * from a revision that fell out get 410.
 */
import type { CachedObject } from './cached-object';
import type { HistoryBudget } from './history-budget';

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

/**
 * Event times are kept as milliseconds since this process started: a small integer, stored in the event itself,
 * where a Date.now() value would take a heap number of its own (16 bytes per event of history).
 */
const epoch = Date.now();

export class CacheEvent {
  /** Wire frames per event type, encoded on first use and shared by every watcher. */
  private frames?: Partial<Record<ChangeType, Buffer>>;
  /** The log that holds the event and counts its bytes (unset once the event is dropped). */
  holder: EventLog | undefined;
  private readonly at: number;

  constructor(
    readonly type: ChangeType,
    readonly rev: number,
    /** New state (ADDED, MODIFIED); undefined for DELETED. */
    public object: CachedObject | undefined,
    /** State before the change (MODIFIED, DELETED). */
    public prev: CachedObject | undefined,
    time: number,
  ) {
    this.at = time - epoch;
  }

  get time(): number {
    return this.at + epoch;
  }

  get key(): string {
    return (this.object ?? this.prev)!.key;
  }

  /** Bytes this event keeps alive: the object (or, for DELETED, the last state) and its frames. */
  get bytes(): number {
    let n = (this.object ?? this.prev)?.size ?? 0;
    const frames = this.frames;
    if (frames) for (const type in frames) n += frames[type as ChangeType]!.length;
    return n;
  }

  /** Points the event at copies of its objects (the same content, moved by a slab compaction). */
  relocate(move: (o: CachedObject) => CachedObject): void {
    if (this.object) this.object = move(this.object);
    if (this.prev) this.prev = move(this.prev);
  }

  /** `{"type":T,"object":...}\n` where DELETED carries the last state at the deletion revision. */
  frame(type: ChangeType): Buffer {
    const cached = this.frames?.[type];
    if (cached) return cached;
    const body = type === 'DELETED' ? this.prev!.bytesAt(this.rev) : this.object!.bytes;
    const frame = Buffer.concat([framePrefix[type], body, frameSuffix]);
    (this.frames ??= {})[type] = frame;
    this.holder?.grew(frame.length);
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
  /** Events older than this go. */
  windowMs: number;
  /** At most this many events are kept. */
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

  /** Bytes held by the live events (CacheEvent.bytes summed). */
  private held = 0;

  constructor(
    startRev: number,
    private readonly limits: HistoryLimits,
    private readonly now: () => number = Date.now,
    private readonly budget?: HistoryBudget,
  ) {
    this.start = startRev;
    budget?.add(this);
  }

  get bytes(): number {
    return this.held;
  }

  /** Time of the oldest event the budget may take (never the newest one), undefined when none. */
  get oldestEvictable(): number | undefined {
    return this.length > 1 ? this.events[this.head].time : undefined;
  }

  get startRev(): number {
    return this.start;
  }

  /** Every live event, oldest first. */
  forEach(fn: (event: CacheEvent) => void): void {
    for (let i = this.head; i < this.events.length; i++) fn(this.events[i]);
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
    this.held += event.bytes;
    this.budget?.charge(event.bytes);
    event.holder = this;
  }

  /** An event of this log encoded another frame. */
  grew(bytes: number): void {
    this.held += bytes;
    this.budget?.charge(bytes);
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

  /** Drops what the limits ask for; returns how many went. */
  trim(): number {
    const cutoff = this.now() - this.limits.windowMs;
    const n = this.events.length;
    let i = this.head;
    while (i < n && (n - i > this.limits.maxEvents || this.events[i].time < cutoff)) i++;
    const dropped = this.dropBefore(i);
    this.budget?.enforce();
    return dropped;
  }

  /** Drops the oldest event (and any sharing its revision) but never the newest; for the byte budget. */
  evictOldest(): number {
    return this.length > 1 ? this.dropBefore(this.head + 1, this.events.length - 1) : 0;
  }

  /** Drops events[head..i) and whatever shares the last one's revision, up to `limit`. */
  private dropBefore(i: number, limit = this.events.length): number {
    if (i === this.head) return 0;
    this.start = this.events[i - 1].rev;
    // An event sharing its revision with a dropped one goes too: the window starts after that revision.
    while (i < limit && this.events[i].rev === this.start) i++;
    const dropped = i - this.head;
    let freed = 0;
    for (let j = this.head; j < i; j++) {
      const ev = this.events[j];
      freed += ev.bytes;
      ev.holder = undefined;
      (this.events as (CacheEvent | undefined)[])[j] = undefined;
    }
    this.held -= freed;
    this.budget?.release(freed);
    this.base += dropped;
    this.head = i;
    if (this.head > 1024 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.head = 0;
    }
    return dropped;
  }

  /** Releases every byte (the cache of this kind is being rebuilt or stopped). */
  dispose(): void {
    this.budget?.release(this.held);
    this.budget?.remove(this);
    this.held = 0;
  }
}
