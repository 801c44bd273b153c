/**
 * A watch of a kind whose objects are converted by a call (StoredAs.converter):
 * the cache watcher underneath watches every object in its stored form, and
 * this one converts what it hands out, a batch per call and in order, then
 * applies the request's selectors to the converted objects (an object that
 * stops matching is DELETED, one that starts is ADDED, as upstream's cache
 * watcher does). A failed conversion ends the watch with an ERROR event.
 */
import { ApiError, errors, type Status } from '../machinery/status';
import type { KObject } from '../machinery/object';
import type { AsyncConverter } from '../machinery/resource-definition';
import type { Predicate } from './predicate';
import { CachedObject } from './watch-cache/cached-object';
import type { EventItem, EventWatcher, WatchItem } from './watch-cache/cache-watcher';

/** Events taken from the cache watcher per conversion call. */
const batchSize = 500;

/** The object an event carries, at the event's revision (as its frame has it). */
function eventObject(item: EventItem): KObject {
  return (JSON.parse(item.frame().toString('utf8')) as { object: KObject }).object;
}

function atRevision(o: CachedObject, rev: number): KObject {
  const obj = o.decode();
  obj.metadata.resourceVersion = String(rev);
  return obj;
}

function converted(item: EventItem, type: EventItem['type'], obj: KObject): EventItem {
  const json = JSON.stringify(obj);
  const labels = obj.metadata.labels && Object.keys(obj.metadata.labels).length ? obj.metadata.labels : undefined;
  const object = CachedObject.of(item.object.key, item.rev, json, labels, obj.metadata.uid, undefined, undefined, !!obj.metadata.deletionTimestamp);
  return { kind: 'event', type, rev: item.rev, object, frame: () => Buffer.from(`{"type":"${type}","object":${json}}\n`) };
}

export class ConvertingWatcher implements EventWatcher {
  onWake: (() => void) | undefined;
  private ready: WatchItem[] = [];
  private busy = false;
  private closed = false;

  constructor(
    private readonly inner: EventWatcher,
    private readonly converter: AsyncConverter,
    private readonly predicate: Predicate,
  ) {
    inner.onWake = () => this.pull();
    this.pull();
  }

  get active(): boolean {
    return !this.closed && (this.ready.length > 0 || this.inner.active);
  }

  next(): WatchItem | undefined {
    const item = this.ready.shift();
    if (item && item.kind !== 'event' && item.kind !== 'initial-events-end') this.close();
    return item;
  }

  /** Only when nothing is being converted or waiting, so that resuming from it skips nothing. */
  bookmarkRevision(): number | undefined {
    return this.busy || this.ready.length ? undefined : this.inner.bookmarkRevision();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.inner.onWake = undefined;
    this.inner.close();
  }

  /** Takes what the cache watcher has and converts it; one conversion at a time keeps events in order. */
  private pull(): void {
    if (this.busy || this.closed) return;
    const batch: WatchItem[] = [];
    for (let item = this.inner.next(); item; item = batch.length < batchSize ? this.inner.next() : undefined) {
      batch.push(item);
      if (item.kind === 'error' || item.kind === 'end') break;
    }
    if (batch.length === 0) return;
    this.busy = true;
    this.convert(batch).then(
      (items) => this.ready.push(...items),
      (e) => this.ready.push({ kind: 'error', status: statusOf(e) }),
    ).finally(() => {
      this.busy = false;
      this.onWake?.();
      this.pull();
    });
  }

  private async convert(batch: WatchItem[]): Promise<WatchItem[]> {
    const selective = !this.predicate.empty;
    const objs: KObject[] = [];
    for (const item of batch) {
      if (item.kind !== 'event') continue;
      objs.push(eventObject(item));
      if (selective && item.type === 'MODIFIED' && item.prev) objs.push(atRevision(item.prev, item.rev));
    }
    const out = objs.length ? await this.converter.fromStorage(objs) : [];
    const items: WatchItem[] = [];
    let n = 0;
    for (const item of batch) {
      if (item.kind !== 'event') {
        items.push(item);
        continue;
      }
      const obj = out[n++];
      const prev = selective && item.type === 'MODIFIED' && item.prev ? out[n++] : undefined;
      const type = selective ? this.transition(item.type, obj, prev) : item.type;
      if (type) items.push(converted(item, type, type === 'DELETED' && prev ? prev : obj));
    }
    return items;
  }

  private transition(type: EventItem['type'], obj: KObject, prev: KObject | undefined): EventItem['type'] | undefined {
    const is = this.predicate.matches(obj);
    if (type !== 'MODIFIED') return is ? type : undefined;
    const was = !!prev && this.predicate.matches(prev);
    if (was && is) return 'MODIFIED';
    if (is) return 'ADDED';
    return was ? 'DELETED' : undefined;
  }
}

export function statusOf(e: unknown): Status {
  return e instanceof ApiError ? e.status : errors.internal((e as Error)?.message ?? String(e)).status;
}
