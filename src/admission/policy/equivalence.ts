/**
 * Which served kinds a policy's rules and paramKind name, and which kinds are the same
 * resource under another group or version.
 *
 * The group rule: our `*.svc.io` groups are the same resources as upstream's `*.k8s.io`
 * groups, so a rule or paramKind naming `rbac.authorization.k8s.io` (a definition's
 * upstreamGroup, or any `<x>.k8s.io` for our `<x>.svc.io`) names our kind exactly as
 * `rbac.authorization.svc.io` does, under either matchPolicy. What expressions see
 * (`request.kind.group`, `request.resource.group`) is our served group.
 *
 * Equivalent resources (matchPolicy Equivalent): kinds kept in the same storage (the
 * served versions of a custom resource, events.k8s.io Events and core Events); an object
 * is shown to a policy matched through another of them converted through the stored form.
 */
import type { KObject } from '../../machinery/object';
import type { ResourceDefinition } from '../../machinery/resource-definition';

const OURS = '.svc.io';
const UPSTREAM = '.k8s.io';

/** The names a rule may give a kind's group: ours and upstream's. */
export function groupNames(def: ResourceDefinition): readonly string[] {
  const upstream = def.upstreamGroup ?? (def.group.endsWith(OURS) ? def.group.slice(0, -OURS.length) + UPSTREAM : def.group);
  return upstream === def.group ? [def.group] : [def.group, upstream];
}

/** Whether `group` (as a policy writes it) names the kind's group. */
export function namesGroup(group: string, def: ResourceDefinition): boolean {
  return group === def.group || groupNames(def).includes(group);
}

function storageIdentity(def: ResourceDefinition): string {
  const s = def.storedAs;
  return s ? `${s.group}/${s.plural}` : `${def.group}/${def.plural}`;
}

/** The other served kinds kept in the same storage, in serving order (upstream's EquivalentResourcesFor). */
export function equivalentDefinitions(def: ResourceDefinition, served: readonly ResourceDefinition[], subresource: string): ResourceDefinition[] {
  const id = storageIdentity(def);
  return served.filter((d) => d !== def && storageIdentity(d) === id && (!subresource || subresource in d.subresources));
}

/** An object of kind `from` as kind `to` shows it, both kept in one storage. */
export function convertObject(obj: KObject, from: ResourceDefinition, to: ResourceDefinition): KObject {
  if (from === to) return obj;
  const stored = from.storedAs ? from.storedAs.toStorage(obj) : obj;
  return to.storedAs ? to.storedAs.fromStorage(stored) : stored;
}

/** Go's schema.ParseGroupVersion: `v1`, `group/version`; undefined on more than one slash. */
export function parseGroupVersion(apiVersion: string): { group: string; version: string } | undefined {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: parts[0] };
  if (parts.length === 2) return { group: parts[0], version: parts[1] };
  return undefined;
}

/** The served kind a paramKind names (group by the rule above), or undefined. */
export function findKind(served: readonly ResourceDefinition[], group: string, version: string, kind: string): ResourceDefinition | undefined {
  return served.find((d) => d.kind === kind && d.version === version && namesGroup(group, d));
}
