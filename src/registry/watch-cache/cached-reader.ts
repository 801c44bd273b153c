/**
 * GET and LIST served from the watch cache where upstream's cacher serves
 * them (apimachinery.md §10.2), from storage otherwise:
 *  - GET: RV unset → storage; "0" → cache; N → cache once it reached N (≤ 3 s, else 504).
 *  - LIST: `continue`, Exact, or legacy limit+N → storage at that revision;
 *    "0" → cache, limit ignored; N → cache once it reached N; unset →
 *    consistent read: storage's current revision, wait for the cache to get
 *    there, answer from memory (fall back to storage after 3 s).
 * Lists from the cache hand out the cached JSON bytes, as slices of the slabs
 * they live in (no per-item encoding or copying).
 */
import { errors } from '../../machinery/status';
import type { KList } from '../../machinery/object';
import { apiVersionOf, ResourceDefinition } from '../../machinery/resource-definition';
import type { StoragePort } from '../../ports/storage.port';
import { encodeContinue } from '../continue-token';
import { objectKey, resourcePrefix } from '../keys';
import { listFromStorage, type StorageList } from '../list';
import { parseResourceVersion, validateListOptions } from '../list-options';
import { compilePredicate, shardSelectorOf } from '../predicate';
import { ReadPath, StorageReadPath, storageListResult, type CurrentValue } from '../reader';
import { ListResult, ObjectResult } from '../results';
import type { ListOptions } from '../request';
import { type CachedObject, joinedBytes } from './cached-object';
import type { CacheWatcher } from './cache-watcher';
import type { WatchCache } from './watch-cache';

type CachedList = Omit<KList, 'items'> & { objects: CachedObject[] };
type Listed = { from: 'cache'; list: CachedList } | { from: 'storage'; list: StorageList };

export class CachedReadPath implements ReadPath {
  private readonly direct: StorageReadPath;

  constructor(
    private readonly cache: WatchCache,
    private readonly storage: StoragePort,
  ) {
    this.direct = new StorageReadPath(storage, cache.gates);
  }

  /** From the cache: its bytes, decoded only when asked for. */
  async get(def: ResourceDefinition, namespace: string | undefined, name: string, resourceVersion?: string): Promise<ObjectResult | undefined> {
    if (resourceVersion === undefined || resourceVersion === '') return this.direct.get(def, namespace, name);
    const rv = parseResourceVersion(resourceVersion);
    const kind = this.cache.kind(def);
    const timeout = this.cache.options.freshnessTimeoutMs;
    // Checked before awaiting: nearly every read finds the cache ready and current, and needs no wait.
    if (!kind.initialized && !(await kind.whenInitialized(timeout))) return this.direct.get(def, namespace, name, resourceVersion);
    if (rv > kind.revision && !(await kind.waitFor(rv, timeout))) throw errors.tooLargeResourceVersion(rv, kind.revision, 1);
    const cached = kind.get(objectKey(def, namespace, name));
    return cached && ObjectResult.ofJson(cached.bytes, () => cached.decode());
  }

  /** Its bytes as the stored value (they also carry the resourceVersion); none for a kind stored as another. */
  cached(def: ResourceDefinition, key: string): CurrentValue | undefined {
    if (def.storedAs) return undefined;
    const kind = this.cache.kind(def);
    const o = kind.initialized ? kind.get(key) : undefined;
    return o && { key, value: o.bytes, modRevision: o.rev };
  }

  async list(def: ResourceDefinition, opts: ListOptions): Promise<ListResult> {
    const res = await this.select(def, opts);
    if (res.from === 'storage') return storageListResult(res.list);
    const { objects, ...head } = res.list;
    return new ListResult(head, { decode: () => objects.map((o) => o.decode()), encode: () => joinedBytes(objects) });
  }

  watch(def: ResourceDefinition, opts: ListOptions): Promise<CacheWatcher> {
    return this.cache.watch(def, opts);
  }

  private async select(def: ResourceDefinition, opts: ListOptions): Promise<Listed> {
    validateListOptions(opts, false);
    const shard = shardSelectorOf(opts, this.cache.gates);
    const predicate = compilePredicate(def, opts.labelSelector, opts.fieldSelector, shard);
    const rv = parseResourceVersion(opts.resourceVersion);
    const match = opts.resourceVersionMatch ?? '';
    const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
    const exact = rv > 0 && (match === 'Exact' || (match === '' && limit > 0 && !opts.continue));
    if (opts.continue || exact) return { from: 'storage', list: await this.direct.listItems(def, opts, predicate) };

    const kind = this.cache.kind(def);
    const timeout = this.cache.options.freshnessTimeoutMs;
    if (!(await kind.whenInitialized(timeout))) return { from: 'storage', list: await this.direct.listItems(def, opts, predicate) };
    if (rv > 0) {
      if (!(await kind.waitFor(rv, timeout))) throw errors.tooLargeResourceVersion(rv, kind.revision, 1);
    } else if (opts.resourceVersion !== '0') {
      const current = await this.storage.currentRevision();
      if (!(await kind.waitFor(current, timeout))) {
        return { from: 'storage', list: await listFromStorage(def, this.storage, { namespace: opts.namespace, predicate, limit, json: true }) };
      }
    }
    const revision = kind.revision;
    const scope = this.cache.matcher(def, predicate, opts.namespace);
    const head = { kind: def.listKind, apiVersion: apiVersionOf(def) };
    if (!scope) return { from: 'cache', list: { ...head, metadata: { resourceVersion: String(revision) }, objects: [] } };
    // RV "0" ignores limit, as upstream's cache does.
    const pageLimit = opts.resourceVersion === '0' ? 0 : limit;
    const page = kind.list(scope.prefix, scope.match, pageLimit);
    const metadata: KList['metadata'] = { resourceVersion: String(revision) };
    if (page.hasMore) {
      const last = page.items[page.items.length - 1];
      metadata.continue = encodeContinue(revision, last.key.slice(resourcePrefix(def).length));
      const remaining = page.total - page.items.length;
      if (predicate.empty && remaining > 0) metadata.remainingItemCount = remaining;
    }
    return { from: 'cache', list: { ...head, metadata, objects: page.items } };
  }
}
