/**
 * Views of the watch cache that the access layer and the controllers read:
 * RBAC objects for the authorizer, object uids for token checks, the
 * controllers' wake-ups and the namespaces in use. No storage reads.
 */
import type { ResourceDefinition } from '../machinery/resource-definition';
import { apiVersionOf } from '../machinery/resource-definition';
import { errors } from '../machinery/status';
import { objectKey } from '../registry/keys';
import type { WatchCache } from '../registry/watch-cache';
import type { KindCache } from '../registry/watch-cache/kind-cache';
import type { ChangeFilter, ScanCache, WatchChanges } from '../controllers/changes';
import { matchAll } from '../registry/watch-cache/kind-cache';
import type { KindSnapshotSource } from '../auth/authz/rbac-authorizer';
import type { UidLookup } from '../auth/authn/service-account';

/** The RBAC kinds as the watch cache holds them; a kind that is not served reads as empty. */
export function rbacSources(cache: WatchCache, definitions: ResourceDefinition[]) {
  const source = (plural: string): KindSnapshotSource => {
    const def = definitions.find((d) => d.group === 'rbac.authorization.svc.io' && d.plural === plural);
    if (!def) return { changes: () => 0, objects: () => [] };
    return { changes: () => cache.kind(def).changes, objects: () => cache.snapshot(def).objects };
  };
  return { roles: source('roles'), roleBindings: source('rolebindings'), clusterRoles: source('clusterroles'), clusterRoleBindings: source('clusterrolebindings') };
}

/** Object uids from the watch cache, for service-account token checks (no storage reads). */
export function uidLookup(cache: WatchCache, definitions: ResourceDefinition[]): UidLookup {
  return {
    uidOf(apiVersion, kind, namespace, name) {
      const def = definitions.find((d) => apiVersionOf(d) === apiVersion && d.kind === kind);
      if (!def) return undefined;
      return cache.kind(def).get(objectKey(def, def.namespaced ? namespace : undefined, name))?.uid;
    },
  };
}

/** A TokenRequest may bind to any served kind; others are a 400 as upstream's unsupported kinds. */
export function bindableUid(lookup: UidLookup, definitions: ResourceDefinition[], apiVersion: string, kind: string, ns: string, name: string): string | undefined {
  if (!definitions.some((d) => apiVersionOf(d) === apiVersion && d.kind === kind)) {
    throw errors.badRequest(`cannot bind token for object of type ${apiVersion}, Kind=${kind}: it is not served here`);
  }
  return lookup.uidOf(apiVersion, kind, ns, name);
}

/**
 * The controllers' wake-ups (controllers/changes.ts) from the watch cache's
 * change listeners. The listener only notes the change and looks once the
 * write that caused it is done (a burst of writes is one look); the filter
 * then reads the changed objects from the kind's event log. Changes that
 * left the log before they were looked at count as a match.
 */
export function cacheChanges(cache: WatchCache): WatchChanges {
  return (def, wake, filter) => {
    const kind = cache.kind(def);
    let seen = kind.initialized ? kind.revision : 0;
    let queued = false;
    const look = () => {
      queued = false;
      const from = seen;
      seen = kind.revision;
      if (!filter || changedSince(def, kind, from, filter)) wake();
    };
    return cache.onChange(def, () => {
      if (queued) return;
      queued = true;
      setImmediate(look);
    });
  };
}

function changedSince(def: ResourceDefinition, kind: KindCache, from: number, filter: ChangeFilter): boolean {
  if (!kind.initialized || from < kind.log.startRev) return true;
  const log = kind.log;
  for (let seq = log.seqAfter(from); seq < log.endSeq; seq++) {
    const ev = log.at(seq);
    const o = ev?.object ?? ev?.prev;
    if (!o) continue;
    // The JSON view only for filters that read it (most look at the name).
    const changed = { name: o.name, namespace: def.namespaced ? o.namespace : undefined, get json() { return ev!.object?.bytes; } };
    if (filter(changed)) return true;
  }
  return false;
}

/** The controllers' look at cached JSON: every object of the kind in key order, each one's bytes as a view of its slab. */
export function scanCache(cache: WatchCache): ScanCache {
  return (def, test) => {
    const kind = cache.kind(def);
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
