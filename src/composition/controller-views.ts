/**
 * What the controllers read of the watch cache besides the registry: their
 * wake-ups (controllers/changes.ts), a look at cached JSON, and the
 * namespaces in use. No storage reads.
 */
import type { ResourceDefinition } from '../machinery/resource-definition';
import type { WatchCache } from '../registry/watch-cache';
import type { DefinitionSet } from '../registry/definition-set';
import { matchAll, type KindCache } from '../registry/watch-cache/kind-cache';
import type { CachedObject } from '../registry/watch-cache/cached-object';
import type { ChangedObject, ChangeFilter, ScanCache, WatchAllChanges, WatchChanges } from '../controllers/changes';

/**
 * The controllers' wake-ups from the watch cache's change listeners. The
 * listener only notes the change and looks once the write that caused it
 * is done (a burst of writes is one look); the filter then reads the changed
 * objects from the kind's event log. Changes that left the log before they
 * were looked at count as a match. `watchAll` follows the served kinds:
 * kinds served later (custom resources) join, withdrawn ones leave.
 */
export function cacheChanges(cache: WatchCache, served: DefinitionSet): { watch: WatchChanges; watchAll: WatchAllChanges } {
  const watch: WatchChanges = (def, wake, filter) => {
    const kind = cache.kind(def);
    let seen = kind.initialized ? kind.revision : 0;
    let queued = false;
    const look = () => {
      queued = false;
      const from = seen;
      seen = kind.revision;
      let matched: boolean;
      try {
        matched = !filter || changedSince(def, kind, from, filter);
      } catch {
        matched = true; // a kind withdrawn meanwhile: waking for nothing costs one pass
      }
      if (matched) wake();
    };
    return cache.onChange(def, () => {
      if (queued) return;
      queued = true;
      setImmediate(look);
    });
  };
  const everyKind = new Set<{ wake: () => void; filter?: ChangeFilter; stops: Map<ResourceDefinition, () => void> }>();
  // Runs after the cache's own listener (assemble adds that one first), so an added kind is cached by now.
  served.onChange((change) => {
    for (const s of everyKind) {
      if ('added' in change) s.stops.set(change.added, watch(change.added, s.wake, s.filter));
      else {
        s.stops.get(change.removed)?.();
        s.stops.delete(change.removed);
      }
    }
  });
  const watchAll: WatchAllChanges = (wake, filter) => {
    const s = { wake, filter, stops: new Map(served.all.map((def) => [def, watch(def, wake, filter)])) };
    everyKind.add(s);
    return () => {
      everyKind.delete(s);
      for (const stop of s.stops.values()) stop();
    };
  };
  return { watch, watchAll };
}

function changedSince(def: ResourceDefinition, kind: KindCache, from: number, filter: ChangeFilter): boolean {
  if (!kind.initialized || from < kind.log.startRev) return true;
  const log = kind.log;
  for (let seq = log.seqAfter(from); seq < log.endSeq; seq++) {
    const ev = log.at(seq);
    const o = ev?.object ?? ev?.prev;
    if (!o) continue;
    if (filter(new LoggedChange(o.name, def.namespaced ? o.namespace : undefined, ev!.object))) return true;
  }
  return false;
}

/**
 * A change as a filter sees it. A class, so that its getter is on the prototype: an object literal with a getter
 * is built through V8's runtime, once per filter and change on every write.
 */
class LoggedChange implements ChangedObject {
  constructor(
    readonly name: string,
    readonly namespace: string | undefined,
    private readonly now: CachedObject | undefined,
  ) {}

  get deleting(): boolean {
    return !!this.now?.deleting;
  }

  /** The JSON view only for filters that read it (most look at the name). */
  get json(): Buffer | undefined {
    return this.now?.bytes;
  }
}

/** The controllers' look at cached JSON: every object of the kind in key order, each one's bytes as a view of its slab. */
export function scanCache(cache: WatchCache): ScanCache {
  return (def, test) => {
    let kind: KindCache;
    try {
      kind = cache.kind(def);
    } catch {
      return true; // withdrawn meanwhile: say "maybe", the pass reads what is there
    }
    if (!kind.initialized) return true;
    return kind.list(kind.prefix, matchAll).items.some((o) => test(o.bytes));
  };
}

/** The namespaces that hold objects of a namespaced kind, from the watch cache's keys once the kind is loaded. */
export function cachedNamespaces(cache: WatchCache): (def: ResourceDefinition) => Promise<Set<string>> {
  return async (def) => {
    const kind = cache.kind(def);
    if (!(await kind.whenInitialized(cache.options.freshnessTimeoutMs))) throw new Error(`the watch cache of ${def.plural} is not loaded yet`);
    return kind.namespaces();
  };
}
