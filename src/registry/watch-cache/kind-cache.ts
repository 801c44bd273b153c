/**
 * The cache of one kind: current objects, the event window and the storage
 * watch that feeds both. `revision` means "every change up to here is
 * applied"; it advances with events and with storage progress reports.
 *
 * Lifecycle: list everything at a revision, watch from it; when the watch
 * fails (compaction, or an error the adapter gives up on) list again, turn
 * the difference into synthetic events so that watchers miss nothing, and
 * watch on from the new revision.
 */
import type { ResourceDefinition } from '../../machinery/resource-definition';
import type { KeyValue, StorageEvent, StoragePort, WatchHandle } from '../../ports/storage.port';
import { namespaceOfKey, resourcePrefix } from '../keys';
import { CachedObject, cacheObject } from './cached-object';
import { CacheEvent, EventLog } from './event-log';
import { lowerBound, ObjectIndex, prefixEnd } from './object-index';
import type { WatchCacheOptions } from './options';
import { diffToEvents, listAll } from './resync';
import { Freshness } from './freshness';
import { KindSlabs } from './compaction';
import type { HistoryBudget } from './history-budget';
import { ChangeListeners } from './change-listeners';

/** The match of a list without selectors (lets a list be a slice of the ordered objects). */
export const matchAll = (_o: CachedObject): boolean => true;

export type Logger = (level: 'debug' | 'info' | 'warn' | 'error', msg: string, extra?: object) => void;

/** What the cache needs from a watcher to keep it moving (implemented by CacheWatcher). */
export interface WatcherHandle {
  /** Revision the watcher starts after (its resourceVersion). */
  readonly startRev: number;
  wake(): void;
  /** Ends the watch with 410 because its history was rebuilt by a relist. */
  expire(message: string): void;
  /** Ends the watch without an event. */
  end(): void;
}

export class KindCache {
  readonly prefix: string;
  private readonly objects = new ObjectIndex();
  private history: EventLog | undefined;
  revision = 0;
  /** Bumped whenever the cached objects change, so derived indexes (e.g. RBAC) know to rebuild. */
  changes = 0;
  /** False until the first list is loaded; true while the storage watch is live. */
  initialized = false;
  synced = false;
  private stopped = false;
  private handle: WatchHandle | undefined;
  private generation = 0;
  private readonly freshness: Freshness;
  private readonly watchers = new Set<WatcherHandle>();
  /** Revision ranges rebuilt by a relist: resuming strictly inside one could duplicate or skip. */
  private coarse: Array<{ from: number; to: number }> = [];
  private retryMs: number;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly slabs: KindSlabs;
  private readonly listeners: ChangeListeners;

  constructor(
    readonly def: ResourceDefinition,
    private readonly storage: StoragePort,
    private readonly options: WatchCacheOptions,
    private readonly logger: Logger,
    private readonly budget?: HistoryBudget,
  ) {
    this.prefix = resourcePrefix(def);
    this.retryMs = options.retryMinMs;
    this.slabs = new KindSlabs(options.now, options.compactionIntervalMs);
    this.listeners = new ChangeListeners(def.plural, logger);
    this.freshness = new Freshness(
      () => (this.initialized ? this.revision : undefined),
      () => this.handle?.requestProgress?.(),
      options.progressRequestIntervalMs,
    );
  }

  get log(): EventLog {
    if (!this.history) throw new Error(`watch cache for ${this.def.plural} is not initialized`);
    return this.history;
  }

  get watcherCount(): number {
    return this.watchers.size;
  }

  get size(): number {
    return this.objects.size;
  }

  start(): void {
    void this.sync();
  }

  /** Stops the storage watch; `endWatchers` also ends the watches served from it (the kind is withdrawn). */
  stop(endWatchers = false): void {
    if (endWatchers) for (const w of [...this.watchers]) w.end();
    this.stopped = true;
    this.generation++;
    this.handle?.cancel();
    clearTimeout(this.retryTimer);
    this.freshness.cancelAll();
    this.slabs.cancel();
    this.history?.dispose();
  }

  /** Drops history by age (also runs on a timer, so a kind that went quiet does not keep it). */
  trimHistory(): void {
    this.history?.trim();
  }

  get(key: string): CachedObject | undefined {
    return this.objects.get(key);
  }

  /** Objects under prefix in key order that pass `match` (matchAll: every one), at most `limit` (0: all). */
  list(prefix: string, match: (o: CachedObject) => boolean, limit = 0): { items: CachedObject[]; hasMore: boolean; total: number } {
    const { objects, from, to } = this.objects.range(prefix, prefixEnd(prefix));
    // Only a list that sends a run of neighbours (every object, or a page of them) gains from compaction: objects a
    // selector picks stay apart whatever the layout.
    if (match === matchAll && this.slabs.listed(objects, from, limit > 0 ? Math.min(to, from + limit) : to, this.history?.bytes ?? 0)) {
      this.slabs.schedule(() => this.compact(), true);
    }
    if (match === matchAll && (limit === 0 || limit >= to - from)) return { items: objects.slice(from, to), hasMore: false, total: to - from };
    const items: CachedObject[] = [];
    let hasMore = false;
    for (let i = from; i < to; i++) {
      const o = objects[i];
      if (!match(o)) continue;
      items.push(o);
      if (limit > 0 && items.length >= limit) {
        hasMore = i < to - 1;
        break;
      }
    }
    return { items, hasMore, total: to - from };
  }

  /** Namespaces with objects of this (namespaced) kind: one step per namespace over the sorted keys. */
  namespaces(): Set<string> {
    const found = new Set<string>();
    const { objects, from, to } = this.objects.range(this.prefix, prefixEnd(this.prefix));
    for (let i = from; i < to; ) {
      const ns = namespaceOfKey(this.prefix, objects[i].key);
      found.add(ns);
      // '0' follows '/': the first key past every `<prefix><ns>/...`.
      i = lowerBound(objects, `${this.prefix}${ns}0`, i, to);
    }
    return found;
  }

  addWatcher(w: WatcherHandle): void {
    this.watchers.add(w);
  }

  removeWatcher(w: WatcherHandle): void {
    this.watchers.delete(w);
  }

  /** Calls `listener` after each batch of changes the cache applied (and after each load); returns its removal. */
  onChange(listener: () => void): () => void {
    return this.listeners.add(listener);
  }

  /** True when a watch may resume at rev: inside the window and not inside a rebuilt range. */
  canResumeAt(rev: number): boolean {
    return rev >= this.log.startRev && !this.coarse.some((c) => rev > c.from && rev < c.to);
  }

  /** Resolves true once initialized (false after timeoutMs). */
  whenInitialized(timeoutMs: number): Promise<boolean> {
    return this.initialized ? Promise.resolve(true) : this.waitFor(0, timeoutMs);
  }

  /** Resolves true once the cache has applied every change up to rev (false after timeoutMs). */
  waitFor(rev: number, timeoutMs: number): Promise<boolean> {
    return this.stopped ? Promise.resolve(false) : this.freshness.waitFor(rev, timeoutMs);
  }

  /** Loads (or reloads) the full state, then watches from its revision. Retries with backoff. */
  private async sync(): Promise<void> {
    if (this.stopped) return;
    const gen = ++this.generation;
    const first = !this.history;
    try {
      // The first load fills the (still unread) state directly; a relist builds a new one to diff against.
      if (first) {
        this.objects.clear();
        this.slabs.reset();
      }
      const loaded = new Map<string, CachedObject>();
      const revision = await listAll(this.storage, this.prefix, this.options.listPageSize, (items) => {
        for (const kv of items) {
          const known = first ? undefined : this.objects.get(kv.key);
          if (known && known.rev === kv.modRevision) loaded.set(kv.key, known); // unchanged: no re-encoding
          else {
            const o = this.ingest(kv);
            if (o && first) this.slabs.replaced(this.objects.set(o), o);
            else if (o) loaded.set(kv.key, o);
          }
        }
      });
      if (this.stopped || gen !== this.generation) return;
      if (first) {
        const { historyWindowMs: windowMs, historyMaxEvents: maxEvents } = this.options;
        this.history = new EventLog(revision, { windowMs, maxEvents }, this.options.now, this.budget);
      } else if (revision > this.revision) {
        this.resynchronize(loaded, revision, this.options.now());
      }
      this.revision = Math.max(this.revision, revision);
      this.initialized = true;
      this.synced = true;
      this.retryMs = this.options.retryMinMs;
      this.watchFrom(this.revision, gen);
      this.afterChange();
      this.logger('info', 'watch cache synced', { resource: this.def.plural, objects: this.objects.size, revision: this.revision });
    } catch (e) {
      if (this.stopped || gen !== this.generation) return;
      this.logger('warn', 'watch cache list failed, retrying', { resource: this.def.plural, error: (e as Error).message });
      this.retryLater();
    }
  }

  private ingest(kv: KeyValue): CachedObject | undefined {
    try {
      return cacheObject(this.def, kv.key, kv.value, kv.modRevision, this.slabs.writer);
    } catch (e) {
      this.logger('error', 'watch cache skipped an undecodable object', { key: kv.key, error: (e as Error).message });
      return undefined;
    }
  }

  /** Turns the difference between the cached and the listed state into events, after the current ones. */
  private resynchronize(loaded: Map<string, CachedObject>, listedRev: number, now: number): void {
    const from = this.revision;
    for (const ev of diffToEvents(this.objects.toMap(), from, loaded, listedRev, now)) {
      if (ev.object) this.slabs.replaced(this.objects.set(ev.object), ev.object);
      else this.slabs.replaced(this.objects.delete(ev.key), undefined);
      this.history!.append(ev);
    }
    if (listedRev > from + 1) this.coarse.push({ from, to: listedRev });
    this.coarse = this.coarse.filter((c) => c.to > this.history!.startRev);
    for (const w of this.watchers) {
      if (w.startRev > from && w.startRev < listedRev) w.expire(`too old resource version: ${w.startRev} (${listedRev})`);
    }
  }

  private watchFrom(rev: number, gen: number): void {
    this.handle = this.storage.watch(this.prefix, rev, {
      onEvents: (events) => gen === this.generation && this.onEvents(events),
      onProgress: (r) => gen === this.generation && this.onProgress(r),
      onError: (err) => gen === this.generation && this.onWatchError(err),
    });
  }

  private onEvents(events: StorageEvent[]): void {
    const now = this.options.now();
    // One etcd transaction can change several keys at one revision: compare with the revision before the batch
    // (etcd never splits a revision across responses), not with the event just applied.
    const applied = this.revision;
    for (const ev of events) {
      if (ev.modRevision <= applied) continue; // already applied (e.g. by a relist)
      this.apply(ev, now);
      this.revision = ev.modRevision;
    }
    this.afterChange();
  }

  private apply(ev: StorageEvent, now: number): void {
    const prev = this.objects.get(ev.key);
    if (ev.type === 'delete') {
      if (!prev) return;
      this.objects.delete(ev.key);
      this.slabs.replaced(prev, undefined);
      this.log.append(new CacheEvent('DELETED', ev.modRevision, undefined, prev, now));
      return;
    }
    let obj: CachedObject;
    try {
      obj = cacheObject(this.def, ev.key, ev.value!, ev.modRevision, this.slabs.writer);
    } catch (e) {
      this.logger('error', 'watch cache skipped an undecodable object', { key: ev.key, error: (e as Error).message });
      return;
    }
    this.objects.set(obj);
    this.slabs.replaced(prev, obj);
    this.log.append(new CacheEvent(prev ? 'MODIFIED' : 'ADDED', ev.modRevision, obj, prev, now));
  }

  private onProgress(rev: number): void {
    if (rev <= this.revision) return;
    this.revision = rev;
    this.freshness.check();
  }

  private onWatchError(err: Error): void {
    this.handle = undefined;
    this.synced = false;
    this.logger('warn', 'watch cache lost its storage watch, relisting', { resource: this.def.plural, error: err.message });
    void this.sync();
  }

  /** Rewrites this kind's bytes into fresh slabs (see compaction.ts). */
  compact(): void {
    if (!this.stopped) this.slabs.compact(this.objects, this.history);
  }

  private afterChange(): void {
    this.changes++;
    this.history?.trim();
    if (this.slabs.due && this.slabs.wasteful(this.history?.bytes ?? 0)) this.slabs.schedule(() => this.compact());
    this.freshness.check();
    for (const w of this.watchers) {
      try {
        w.wake();
      } catch (e) {
        this.logger('error', 'watcher failed', { resource: this.def.plural, error: (e as Error).message });
      }
    }
    this.listeners.notify();
  }

  private retryLater(): void {
    clearTimeout(this.retryTimer);
    const delay = this.retryMs;
    this.retryMs = Math.min(this.options.retryMaxMs, this.retryMs * 2);
    this.retryTimer = setTimeout(() => void this.sync(), delay);
    this.retryTimer.unref?.();
  }
}
