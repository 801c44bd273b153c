/**
 * Which snapshot a GET or LIST is served from, following upstream's
 * resourceVersion rules (apimachinery.md §1.2-1.3). Reads go to storage here;
 * the watch cache takes over the ones it can answer from memory.
 */
import { errors } from '../machinery/status';
import { ResourceDefinition } from '../machinery/resource-definition';
import { KeyValue, StoragePort } from '../ports/storage.port';
import { listFromStorage, type StorageList } from './list';
import { objectKey } from './keys';
import { decodeKeyValue } from './codec';
import { joinJson, ListResult, ObjectResult } from './results';
import { insertRevisionInText } from './with-revision';
import { parseResourceVersion, validateListOptions } from './list-options';
import { compilePredicate, shardSelectorOf, type Predicate } from './predicate';
import { ListOptions } from './request';
import type { FeatureGates } from '../machinery/feature-gates';
import type { EventWatcher } from './watch-cache/cache-watcher';

/** A list read from storage as a ListResult: items decoded, and their JSON as stored (resourceVersion written in). */
export function storageListResult(list: StorageList): ListResult {
  const { items, itemsJson, ...head } = list;
  return new ListResult(head, { decoded: items, encode: () => joinJson(itemsJson ?? items.map((o) => JSON.stringify(o))) });
}

/** A GET from storage: decoded (a corrupt object must fail here), and answered in JSON from the stored text. */
export function storageObjectResult(def: ResourceDefinition, kv: KeyValue): ObjectResult {
  const object = decodeKeyValue(def, kv);
  const json = def.storedAs ? undefined : insertRevisionInText(kv.value.toString('utf8'), kv.modRevision);
  return json === undefined ? ObjectResult.of(object) : ObjectResult.ofJson(json, () => object);
}

/** A stored value: from storage, or the watch cache's copy (its bytes then carry the resourceVersion too). */
export type CurrentValue = Pick<KeyValue, 'key' | 'value' | 'modRevision'>;

export interface ReadPath {
  get(def: ResourceDefinition, namespace: string | undefined, name: string, resourceVersion?: string): Promise<ObjectResult | undefined>;
  list(def: ResourceDefinition, opts: ListOptions): Promise<ListResult>;
  /** A watch from opts.resourceVersion, when the path can serve one (the watch cache does). */
  watch?(def: ResourceDefinition, opts: ListOptions): Promise<EventWatcher>;
  /** The watch cache's copy of the value under `key` now, without waiting: an update's first guess (update.ts). */
  cached?(def: ResourceDefinition, key: string): CurrentValue | undefined;
}


export class StorageReadPath implements ReadPath {
  constructor(
    private readonly storage: StoragePort,
    private readonly gates?: FeatureGates,
  ) {}

  async get(def: ResourceDefinition, namespace: string | undefined, name: string, resourceVersion?: string): Promise<ObjectResult | undefined> {
    const min = parseResourceVersion(resourceVersion);
    const kv = await this.storage.get(objectKey(def, namespace, name));
    if (min > 0) {
      const current = await this.storage.currentRevision();
      if (min > current) throw errors.tooLargeResourceVersion(min, current, 0);
    }
    return kv ? storageObjectResult(def, kv) : undefined;
  }

  async list(def: ResourceDefinition, opts: ListOptions): Promise<ListResult> {
    return storageListResult(await this.listItems(def, opts));
  }

  /** `compiled`: the predicate of opts, when the caller has validated opts and compiled it already. */
  async listItems(def: ResourceDefinition, opts: ListOptions, compiled?: Predicate): Promise<StorageList> {
    if (!compiled) validateListOptions(opts, false);
    const predicate = compiled ?? compilePredicate(def, opts.labelSelector, opts.fieldSelector, shardSelectorOf(opts, this.gates));
    const rv = parseResourceVersion(opts.resourceVersion);
    const match = opts.resourceVersionMatch ?? '';
    const exact = rv > 0 && (match === 'Exact' || (match === '' && !!opts.limit && !opts.continue));
    const limit = opts.resourceVersion === '0' && !opts.continue ? 0 : opts.limit;
    if (rv > 0 && !exact) {
      const current = await this.storage.currentRevision();
      if (rv > current) throw errors.tooLargeResourceVersion(rv, current, 0);
    }
    return listFromStorage(def, this.storage, {
      namespace: opts.namespace,
      predicate,
      limit,
      continue: opts.continue,
      revision: exact ? rv : 0,
      json: true,
    });
  }
}
