/**
 * Storage keys: `/<group>/<plural>/<namespace>/<name>`, with no group segment
 * for the core group (as upstream writes `/registry/configmaps/...`) and no
 * namespace segment for cluster-scoped kinds. The adapter adds --etcd-prefix.
 */
import type { ResourceDefinition } from '../machinery/resource-definition';

export function resourcePrefix(def: Pick<ResourceDefinition, 'group' | 'plural'>): string {
  return def.group ? `/${def.group}/${def.plural}/` : `/${def.plural}/`;
}

/** Prefix of a list: the whole resource, or one namespace of it. */
export function listPrefix(def: ResourceDefinition, namespace?: string): string {
  const base = resourcePrefix(def);
  return def.namespaced && namespace ? `${base}${namespace}/` : base;
}

export function objectKey(def: ResourceDefinition, namespace: string | undefined, name: string): string {
  const base = resourcePrefix(def);
  return def.namespaced ? `${base}${namespace}/${name}` : `${base}${name}`;
}
