/**
 * Kinds whose stored form is reached by a call (StoredAs.converter, a custom
 * resource's conversion webhook) are converted at the registry's edges: reads
 * here, writes in store.ts and update.ts. The read path and the cache hold
 * such objects as stored; the request's selectors are applied after
 * conversion, as the version's fields and labels are what they match. Every
 * other kind goes straight to the read path underneath.
 */
import type { KObject } from '../machinery/object';
import type { AsyncConverter, ResourceDefinition } from '../machinery/resource-definition';
import type { FeatureGates } from '../machinery/feature-gates';
import { compilePredicate, shardSelectorOf } from './predicate';
import type { CurrentValue, ReadPath } from './reader';
import type { ListOptions } from './request';
import { ListResult, ObjectResult } from './results';
import { ConvertingWatcher } from './converting-watcher';
import type { EventWatcher } from './watch-cache/cache-watcher';

export function converterOf(def: ResourceDefinition): AsyncConverter | undefined {
  return def.storedAs?.converter;
}

export async function convertFromStorage(converter: AsyncConverter, obj: KObject): Promise<KObject> {
  return (await converter.fromStorage([obj]))[0];
}

export async function convertToStorage(converter: AsyncConverter, obj: KObject): Promise<KObject> {
  return (await converter.toStorage([obj]))[0];
}

/** The selectors are the converted objects' business: the read path underneath reads every object in scope. */
function unselected(opts: ListOptions): ListOptions {
  const { labelSelector: _l, fieldSelector: _f, shardSelector: _s, ...rest } = opts;
  return rest;
}

export class ConvertingReadPath implements ReadPath {
  readonly watch?: (def: ResourceDefinition, opts: ListOptions) => Promise<EventWatcher>;
  readonly cached?: (def: ResourceDefinition, key: string) => CurrentValue | undefined;

  constructor(
    private readonly inner: ReadPath,
    private readonly gates?: FeatureGates,
  ) {
    const watch = inner.watch?.bind(inner);
    if (watch) this.watch = (def, opts) => this.watchConverted(watch, def, opts);
    const cached = inner.cached?.bind(inner);
    // A converted kind's update starts from its stored object converted by a call: no guess for it.
    if (cached) this.cached = (def, key) => (converterOf(def) ? undefined : cached(def, key));
  }

  // Not async: a kind without a converter gets the read path's own promise, no extra step.
  get(def: ResourceDefinition, namespace: string | undefined, name: string, resourceVersion?: string): Promise<ObjectResult | undefined> {
    const converter = converterOf(def);
    if (!converter) return this.inner.get(def, namespace, name, resourceVersion);
    return this.inner.get(def, namespace, name, resourceVersion).then(async (found) => found && ObjectResult.of(await convertFromStorage(converter, found.object)));
  }

  list(def: ResourceDefinition, opts: ListOptions): Promise<ListResult> {
    const converter = converterOf(def);
    if (!converter) return this.inner.list(def, opts);
    return this.listConverted(converter, def, opts);
  }

  private async listConverted(converter: AsyncConverter, def: ResourceDefinition, opts: ListOptions): Promise<ListResult> {
    const predicate = compilePredicate(def, opts.labelSelector, opts.fieldSelector, shardSelectorOf(opts, this.gates));
    const list = await this.inner.list(def, unselected(opts));
    const items = await converter.fromStorage(list.items);
    if (predicate.empty) return new ListResult(list, { decoded: items });
    // A filtered page's count of what remains is unknown (upstream gives none with selectors either).
    const { remainingItemCount: _r, ...metadata } = list.metadata;
    return new ListResult({ kind: list.kind, apiVersion: list.apiVersion, metadata }, { decoded: items.filter((o) => predicate.matches(o)) });
  }

  private watchConverted(watch: (def: ResourceDefinition, opts: ListOptions) => Promise<EventWatcher>, def: ResourceDefinition, opts: ListOptions): Promise<EventWatcher> {
    const converter = converterOf(def);
    if (!converter) return watch(def, opts);
    return this.convertedWatch(watch, converter, def, opts);
  }

  private async convertedWatch(
    watch: (def: ResourceDefinition, opts: ListOptions) => Promise<EventWatcher>,
    converter: AsyncConverter,
    def: ResourceDefinition,
    opts: ListOptions,
  ): Promise<EventWatcher> {
    const predicate = compilePredicate(def, opts.labelSelector, opts.fieldSelector, shardSelectorOf(opts, this.gates));
    return new ConvertingWatcher(await watch(def, unselected(opts)), converter, predicate);
  }
}
