/**
 * The names a request's resource answers to when rules are matched.
 *
 * Our groups are upstream's with `svc.io` for `k8s.io`: rbac.authorization.svc.io
 * is the resource upstream calls rbac.authorization.k8s.io. Webhook
 * configurations are written for upstream, so the k8s.io spelling of a group
 * (the kind's upstreamGroup, else the `.svc.io` → `.k8s.io` rename) names the
 * same resource as ours: a rule naming either matches, under matchPolicy
 * Exact too (it is one resource under two names, not another version or
 * group needing conversion). The webhook is told the name its rule matched,
 * and sees the object with that group in its apiVersion, as upstream shows
 * a webhook the object in the version its rule matched.
 *
 * matchPolicy Equivalent adds, as upstream, the other served kinds kept in
 * the same storage (core Events and events.svc.io Events, the versions of a
 * custom resource), under each of their names, converted through storage.
 */
import { apiVersionOf, type ResourceDefinition } from '../../machinery/resource-definition';

export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface ResourceName {
  resource: GroupVersionResource;
  kind: GroupVersionKind;
  /** The served kind whose form the object takes under this name. */
  def: ResourceDefinition;
  /** The object's apiVersion under this name. */
  apiVersion: string;
}

const ours = '.svc.io';
const theirs = '.k8s.io';

/** Upstream's spelling of one of our groups, when it differs. */
export function upstreamGroupOf(def: Pick<ResourceDefinition, 'group' | 'upstreamGroup'>): string | undefined {
  if (def.upstreamGroup) return def.upstreamGroup;
  return def.group.endsWith(ours) ? def.group.slice(0, -ours.length) + theirs : undefined;
}

/** Our group's name and upstream's, in that order. */
export function groupNames(def: Pick<ResourceDefinition, 'group' | 'upstreamGroup'>): string[] {
  const upstream = upstreamGroupOf(def);
  return upstream && upstream !== def.group ? [def.group, upstream] : [def.group];
}

/** The kind a write to `subresource` carries: a view's own kind (scale), else the object's. */
function kindOf(def: ResourceDefinition, group: string, subresource: string): GroupVersionKind {
  const view = subresource ? def.subresources[subresource]?.view : undefined;
  if (view) return { group: view.group, version: view.version, kind: view.kind };
  return { group, version: def.version, kind: def.kind };
}

/** The names of one served kind: its own group first, then upstream's spelling of it. */
export function namesOf(def: ResourceDefinition, subresource: string): ResourceName[] {
  return groupNames(def).map((group) => ({
    resource: { group, version: def.version, resource: def.plural },
    kind: kindOf(def, group, subresource),
    def,
    apiVersion: apiVersionOf({ group, version: def.version }),
  }));
}

function storageOf(def: ResourceDefinition): string {
  return def.storedAs ? `${def.storedAs.group}/${def.storedAs.plural}` : `${def.group}/${def.plural}`;
}

const equivalentsCache = new WeakMap<ResourceDefinition, Map<string, { setVersion: number; names: ResourceName[] }>>();

/** The names of the other served kinds stored with `def` (that also serve `subresource`), in serving order. */
export function equivalentNames(def: ResourceDefinition, subresource: string, served: readonly ResourceDefinition[], setVersion: number): ResourceName[] {
  let bySub = equivalentsCache.get(def);
  if (!bySub) equivalentsCache.set(def, (bySub = new Map()));
  const hit = bySub.get(subresource);
  if (hit && hit.setVersion === setVersion) return hit.names;
  const storage = storageOf(def);
  const names = served
    .filter((d) => d !== def && storageOf(d) === storage && (!subresource || d.subresources[subresource]))
    .flatMap((d) => namesOf(d, subresource));
  bySub.set(subresource, { setVersion, names });
  return names;
}

/**
 * `obj` (in `from`'s form) in `to`'s form under `apiVersion`: through storage when the kinds differ. A copy where
 * anything changes; `obj` itself when nothing does.
 */
export function convertObject<T extends { apiVersion?: string }>(obj: T, from: ResourceDefinition, to: ResourceDefinition, apiVersion: string): T {
  let out: T = obj;
  if (from !== to) {
    const stored = from.storedAs ? from.storedAs.toStorage(structuredClone(obj) as never) : structuredClone(obj);
    out = (to.storedAs ? to.storedAs.fromStorage(stored as never) : stored) as T;
  }
  if (out.apiVersion === apiVersion) return out;
  return { ...out, apiVersion };
}
