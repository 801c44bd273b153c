/**
 * Views of the watch cache that the access layer reads: RBAC objects for
 * the authorizer, object uids for token checks (the controllers' views are
 * in controller-views.ts). No storage reads.
 */
import type { ResourceDefinition } from '../machinery/resource-definition';
import { apiVersionOf } from '../machinery/resource-definition';
import { errors } from '../machinery/status';
import { objectKey } from '../registry/keys';
import type { WatchCache } from '../registry/watch-cache';
import type { KindSnapshotSource } from '../auth/authz/rbac-authorizer';
import type { UidLookup } from '../auth/authn/service-account';

/** The RBAC kinds as the watch cache holds them; a kind that is not served reads as empty. */
export function rbacSources(cache: WatchCache, definitions: readonly ResourceDefinition[]) {
  const source = (plural: string): KindSnapshotSource => {
    const def = definitions.find((d) => d.group === 'rbac.authorization.svc.io' && d.plural === plural);
    if (!def) return { changes: () => 0, objects: () => [] };
    return { changes: () => cache.kind(def).changes, objects: () => cache.snapshot(def).objects };
  };
  return { roles: source('roles'), roleBindings: source('rolebindings'), clusterRoles: source('clusterroles'), clusterRoleBindings: source('clusterrolebindings') };
}

/** Object uids from the watch cache, for service-account token checks (no storage reads). */
export function uidLookup(cache: WatchCache, definitions: readonly ResourceDefinition[]): UidLookup {
  return {
    uidOf(apiVersion, kind, namespace, name) {
      const def = definitions.find((d) => apiVersionOf(d) === apiVersion && d.kind === kind);
      if (!def) return undefined;
      return cache.kind(def).get(objectKey(def, def.namespaced ? namespace : undefined, name))?.uid;
    },
  };
}

/** A TokenRequest may bind to any served kind; others are a 400 as upstream's unsupported kinds. */
export function bindableUid(lookup: UidLookup, definitions: readonly ResourceDefinition[], apiVersion: string, kind: string, ns: string, name: string): string | undefined {
  if (!definitions.some((d) => apiVersionOf(d) === apiVersion && d.kind === kind)) {
    throw errors.badRequest(`cannot bind token for object of type ${apiVersion}, Kind=${kind}: it is not served here`);
  }
  return lookup.uidOf(apiVersion, kind, ns, name);
}
