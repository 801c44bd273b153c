/**
 * Which snapshot a GET or LIST is served from, following upstream's
 * resourceVersion rules (apimachinery.md §1.2-1.3). Reads go to storage here;
 * the watch cache takes over the ones it can answer from memory.
 */
import { errors } from '../machinery/status';
import { KList, KObject } from '../machinery/object';
import { ResourceDefinition } from '../machinery/resource-definition';
import { KeyValue, StoragePort } from '../ports/storage.port';
import { listFromStorage, type StorageList } from './list';
import { namespaceOfKey, resourcePrefix } from './keys';
import { parseResourceVersion, validateListOptions } from './list-options';
import { compilePredicate, shardSelectorOf, type Predicate } from './predicate';
import { ListOptions } from './request';
import type { FeatureGates } from '../machinery/feature-gates';
import type { CacheWatcher } from './watch-cache/cache-watcher';

/** A list whose items are already JSON (the watch cache keeps objects encoded), streamed as is. */
export interface EncodedList {
  apiVersion: string;
  kind: string;
  metadata: KList['metadata'];
  /** The items' JSON joined by commas, in pieces (one piece may hold many items). */
  body: Buffer[];
}

/** Items' JSON per piece of an encoded list's body: one Buffer per item cost more than encoding the item. */
const PIECE_CHARS = 64 * 1024;

/** A list as an EncodedList: the items' JSON read from storage where the list kept it, else encoded here. */
export function encodeList(list: StorageList): EncodedList {
  const { items, itemsJson, ...rest } = list;
  const body: Buffer[] = [];
  let piece: string[] = [];
  let chars = 0;
  for (let i = 0; i < items.length; i++) {
    const json = itemsJson?.[i] ?? JSON.stringify(items[i]);
    piece.push(json);
    chars += json.length;
    if (chars >= PIECE_CHARS) {
      body.push(Buffer.from((body.length ? ',' : '') + piece.join(',')));
      piece = [];
      chars = 0;
    }
  }
  if (piece.length) body.push(Buffer.from((body.length ? ',' : '') + piece.join(',')));
  return { ...rest, body };
}

export interface ReadPath {
  get(def: ResourceDefinition, namespace: string | undefined, name: string, resourceVersion?: string): Promise<KObject | undefined>;
  list(def: ResourceDefinition, opts: ListOptions): Promise<KList>;
  /** The same read with the object as JSON bytes, when the path has them ready. */
  getEncoded?(def: ResourceDefinition, namespace: string | undefined, name: string, resourceVersion?: string): Promise<Buffer | undefined>;
  /** The same list with items as JSON bytes, when the path has them ready. */
  listEncoded?(def: ResourceDefinition, opts: ListOptions): Promise<EncodedList>;
  /** A watch from opts.resourceVersion, when the path can serve one (the watch cache does). */
  watch?(def: ResourceDefinition, opts: ListOptions): Promise<CacheWatcher>;
  /** The namespaces that hold objects of a namespaced kind (as a LIST at RV "0" would see them), read from keys. */
  namespaces(def: ResourceDefinition): Promise<Set<string>>;
}


export class StorageReadPath implements ReadPath {
  constructor(
    private readonly storage: StoragePort,
    private readonly key: (def: ResourceDefinition, ns: string | undefined, name: string) => string,
    private readonly decode: (def: ResourceDefinition, kv: KeyValue) => KObject,
    private readonly gates?: FeatureGates,
  ) {}

  async get(def: ResourceDefinition, namespace: string | undefined, name: string, resourceVersion?: string): Promise<KObject | undefined> {
    const min = parseResourceVersion(resourceVersion);
    const kv = await this.storage.get(this.key(def, namespace, name));
    if (min > 0) {
      const current = await this.storage.currentRevision();
      if (min > current) throw errors.tooLargeResourceVersion(min, current, 0);
    }
    return kv ? this.decode(def, kv) : undefined;
  }

  async namespaces(def: ResourceDefinition): Promise<Set<string>> {
    const prefix = resourcePrefix(def);
    const found = new Set<string>();
    let revision = 0;
    let startKey: string | undefined;
    for (;;) {
      const page = await this.storage.range(prefix, { revision, limit: 10_000, startKey });
      revision = page.revision;
      for (const kv of page.items) found.add(namespaceOfKey(prefix, kv.key));
      if (!page.more || page.items.length === 0) return found;
      startKey = `${page.items[page.items.length - 1].key}\u0000`;
    }
  }

  async listEncoded(def: ResourceDefinition, opts: ListOptions): Promise<EncodedList> {
    return encodeList(await this.list(def, opts, undefined, true));
  }

  /**
   * `compiled`: the predicate of opts, when the caller has validated opts and compiled it already; `json`: keep each
   * item's JSON as read (for a list sent as bytes).
   */
  async list(def: ResourceDefinition, opts: ListOptions, compiled?: Predicate, json = false): Promise<StorageList> {
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
      json,
    });
  }
}
