/**
 * The watch cache of every served kind, and the watch entry point with
 * upstream's resourceVersion rules (apimachinery.md §1.4, §10):
 *  - RV unset or "0" (sendInitialEvents defaulting to true, as 1.32's
 *    WatchList does): the current state as ADDED events, then changes; with
 *    RV unset the state is a consistent read (storage revision first).
 *  - RV N: changes after N; 410 when N is older than the window.
 *  - sendInitialEvents=true + NotOlderThan + N: state at >= N (waits ≤ 3 s,
 *    then an ERROR 504), then the initial-events-end bookmark, then changes.
 */
import { errors } from '../../machinery/status';
import type { FeatureGates } from '../../machinery/feature-gates';
import type { ResourceDefinition } from '../../machinery/resource-definition';
import type { KObject } from '../../machinery/object';
import type { StoragePort } from '../../ports/storage.port';
import { listPrefix } from '../keys';
import { parseResourceVersion, validateListOptions } from '../list-options';
import { compilePredicate, Predicate, shardSelectorOf } from '../predicate';
import type { ListOptions } from '../request';
import { CachedFields, CachedObject } from './cached-object';
import { CacheWatcher } from './cache-watcher';
import { KindCache, Logger, matchAll } from './kind-cache';
import { defaultWatchCacheOptions, WatchCacheOptions } from './options';
import { HistoryBudget } from './history-budget';

export class WatchCache {
  readonly options: WatchCacheOptions;
  private readonly kinds = new Map<ResourceDefinition, KindCache>();
  /** The byte budget every kind's history shares. */
  readonly history: HistoryBudget;
  private trimTimer: NodeJS.Timeout | undefined;
  private started = false;
  /** The kinds served from the start: readiness waits for them, not for kinds added while running. */
  private readonly essential: ReadonlySet<ResourceDefinition>;

  constructor(
    readonly storage: StoragePort,
    definitions: readonly ResourceDefinition[],
    readonly gates: FeatureGates | undefined,
    options: Partial<WatchCacheOptions> = {},
    private readonly logger: Logger = () => {},
  ) {
    this.options = { ...defaultWatchCacheOptions, ...options };
    this.history = new HistoryBudget(this.options.historyMaxBytes);
    this.essential = new Set(definitions);
    for (const def of definitions) this.kinds.set(def, new KindCache(def, storage, this.options, logger, this.history));
  }

  /** Caches a kind served from now on (loaded in the background; reads wait for it as for any kind). */
  add(def: ResourceDefinition): void {
    if (this.kinds.has(def)) return;
    const kind = new KindCache(def, this.storage, this.options, this.logger, this.history);
    this.kinds.set(def, kind);
    if (this.started) kind.start();
  }

  /** Drops a kind no longer served; its watches end. */
  remove(def: ResourceDefinition): void {
    const kind = this.kinds.get(def);
    if (!kind) return;
    this.kinds.delete(def);
    kind.stop(true);
  }

  start(): this {
    this.started = true;
    for (const k of this.kinds.values()) k.start();
    this.trimTimer = setInterval(() => {
      for (const k of this.kinds.values()) k.trimHistory();
    }, this.options.historyTrimIntervalMs);
    this.trimTimer.unref?.();
    return this;
  }

  stop(): void {
    clearInterval(this.trimTimer);
    for (const k of this.kinds.values()) k.stop();
  }

  /** Every kind served from the start loaded and its storage watch live (for readyz). */
  ready(): boolean {
    for (const [def, k] of this.kinds) if (this.essential.has(def) && !(k.initialized && k.synced)) return false;
    return true;
  }

  kind(def: ResourceDefinition): KindCache {
    const k = this.kinds.get(def);
    if (!k) throw new Error(`${def.plural} is not cached`);
    return k;
  }

  /** Calls `listener` after the kind's cache applied a batch of changes or (re)loaded; returns its removal. */
  onChange(def: ResourceDefinition, listener: () => void): () => void {
    return this.kind(def).onChange(listener);
  }

  /** Every cached object of a kind, decoded, with the change counter it reflects. */
  snapshot(def: ResourceDefinition): { changes: number; objects: KObject[] } {
    const kind = this.kind(def);
    return { changes: kind.changes, objects: kind.list(kind.prefix, matchAll).items.map((o) => o.decode()) };
  }

  /** Storage's current revision, bounded in time (undefined when storage does not answer). */
  async currentRevision(): Promise<number | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), this.options.freshnessTimeoutMs)));
    try {
      return await Promise.race([this.storage.currentRevision().catch(() => undefined), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A match function over cached objects for the list's scope and selectors; undefined when nothing can match. */
  matcher(def: ResourceDefinition, predicate: Predicate, namespace: string | undefined): { prefix: string; match: (o: CachedObject) => boolean } | undefined {
    if (def.namespaced && namespace && predicate.namespace && namespace !== predicate.namespace) return undefined;
    const ns = def.namespaced ? (namespace ?? predicate.namespace) : undefined;
    const prefix = listPrefix(def, ns);
    if (predicate.empty) return { prefix, match: matchAll };
    const fields = new CachedFields(def);
    // metadata.name=x across namespaces: most keys fail on their last segment, before any field is read.
    const suffix = predicate.name === undefined ? undefined : `/${predicate.name}`;
    const match = (o: CachedObject) => (suffix === undefined || o.key.endsWith(suffix)) && predicate.matchesAttributes(o.labels, fields.of(o));
    return { prefix, match };
  }

  async watch(def: ResourceDefinition, opts: ListOptions): Promise<CacheWatcher> {
    validateListOptions(opts, true);
    const predicate = compilePredicate(def, opts.labelSelector, opts.fieldSelector, shardSelectorOf(opts, this.gates));
    const rv = parseResourceVersion(opts.resourceVersion);
    const kind = this.kind(def);
    if (!(await kind.whenInitialized(this.options.freshnessTimeoutMs))) throw errors.tooManyRequests('storage is (re)initializing', 1);
    const scope = this.matcher(def, predicate, opts.namespace);
    const inScope = scope ? (o: CachedObject) => o.key.startsWith(scope.prefix) && scope.match(o) : () => false;
    const maxLag = this.options.maxWatcherLagEvents;
    const rvSet = opts.resourceVersion !== undefined && opts.resourceVersion !== '';
    const initial = opts.sendInitialEvents ?? rv === 0;

    if (!initial) {
      const start = rv === 0 ? kind.revision : rv;
      if (!kind.canResumeAt(start)) {
        const error = errors.expired(`too old resource version: ${start} (${kind.log.startRev})`).status;
        return new CacheWatcher(kind, inScope, { rev: start, error }, maxLag);
      }
      return new CacheWatcher(kind, inScope, { rev: start }, maxLag);
    }

    // The state must be at least as new as N, or as storage when RV is unset (a consistent read).
    const explicit = opts.sendInitialEvents === true;
    const min = rvSet ? rv : ((await this.currentRevision()) ?? 0);
    if (min > kind.revision && !(await kind.waitFor(min, this.options.freshnessTimeoutMs)) && (rvSet || explicit)) {
      const error = errors.tooLargeResourceVersion(min, kind.revision, 1).status;
      return new CacheWatcher(kind, inScope, { rev: kind.revision, error }, maxLag);
    }
    const snapshot = scope ? kind.list(scope.prefix, scope.match).items : [];
    const markInitialEnd = opts.allowWatchBookmarks === true;
    return new CacheWatcher(kind, inScope, { rev: kind.revision, snapshot, markInitialEnd }, maxLag);
  }
}
