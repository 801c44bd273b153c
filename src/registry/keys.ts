/**
 * Storage keys: `/<group>/<plural>/<namespace>/<name>`, with no group segment
 * for the core group (as upstream writes `/registry/configmaps/...`) and no
 * namespace segment for cluster-scoped kinds. The adapter adds --etcd-prefix.
 * A kind stored as another (ResourceDefinition.storedAs) uses that kind's keys.
 */
import type { ResourceDefinition } from '../machinery/resource-definition';

export function resourcePrefix(def: Pick<ResourceDefinition, 'group' | 'plural' | 'storedAs'>): string {
  const { group, plural } = def.storedAs ?? def;
  return group ? `/${group}/${plural}/` : `/${plural}/`;
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

/** The namespace segment of a namespaced object's key (`<prefix><namespace>/<name>`). */
export function namespaceOfKey(prefix: string, key: string): string {
  return key.slice(prefix.length, key.indexOf('/', prefix.length));
}
