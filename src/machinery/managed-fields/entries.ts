/**
 * metadata.managedFields entries <-> field sets keyed by manager identifier,
 * as upstream's managedfields package does it: the identifier is the entry's
 * JSON without time and fields (and without apiVersion for appliers), entries
 * are sorted by operation, time, manager, apiVersion, subresource, and at most
 * ten Update entries are kept, older ones merged into `ancient-changes`.
 */
import { isPlainObject, type ManagedFieldsEntry } from '../object';
import { FieldSet } from './field-set';
import { fieldsV1ToSet, setToFieldsV1 } from './fields-v1';
import { goJsonString } from './go-values';
import { field } from './path';
import type { ManagedSets } from './updater';

export interface Managed {
  sets: ManagedSets;
  /** Entry times (RFC 3339, seconds), by identifier; absent when the entry has none. */
  times: Map<string, string | undefined>;
}

export const emptyManaged = (): Managed => ({ sets: new Map(), times: new Map() });

export interface ManagerInfo {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion?: string;
  subresource?: string;
}

/** The identifier: Go's JSON of the entry with only manager, operation, apiVersion (Update) and subresource. */
export function managerIdentifier(m: ManagerInfo): string {
  const parts: string[] = [];
  if (m.manager) parts.push(`"manager":${goJsonString(m.manager)}`);
  if (m.operation) parts.push(`"operation":${goJsonString(m.operation)}`);
  if (m.operation !== 'Apply' && m.apiVersion) parts.push(`"apiVersion":${goJsonString(m.apiVersion)}`);
  if (m.subresource) parts.push(`"subresource":${goJsonString(m.subresource)}`);
  return `{${parts.join(',')}}`;
}

export function parseIdentifier(id: string): ManagerInfo {
  let info = parsedIdentifiers.get(id);
  if (!info) {
    info = Object.freeze(JSON.parse(id) as ManagerInfo);
    // The same few managers write again and again; a flood of new names only empties the memo.
    if (parsedIdentifiers.size >= 1000) parsedIdentifiers.clear();
    parsedIdentifiers.set(id, info);
  }
  return info;
}

const parsedIdentifiers = new Map<string, ManagerInfo>();

/** `[]` and `[{}]` in a request reset tracking (upstream's isResetManagedFields). */
export function isResetManagedFields(entries: unknown): boolean {
  if (!Array.isArray(entries)) return false;
  if (entries.length === 0) return true;
  return entries.length === 1 && typeof entries[0] === 'object' && entries[0] !== null && Object.keys(entries[0]).length === 0;
}

/** Decodes entries; throws on anything upstream's DecodeManagedFields rejects. */
export function decodeManagedFields(entries: ManagedFieldsEntry[] | undefined): Managed {
  const managed = emptyManaged();
  (entries ?? []).forEach((e, i) => {
    if (e.operation !== 'Apply' && e.operation !== 'Update') throw new Error('operation must be `Apply` or `Update`');
    if (!e.apiVersion) throw new Error('apiVersion must not be empty');
    if (!e.fieldsType) throw new Error(`missing fieldsType in managed fields entry ${i}`);
    if (e.fieldsType !== 'FieldsV1') throw new Error(`invalid fieldsType "${e.fieldsType}" in managed fields entry ${i}`);
    const id = managerIdentifier({ manager: e.manager ?? '', operation: e.operation, apiVersion: e.apiVersion, subresource: e.subresource });
    const set = fieldsV1ToSet(e.fieldsV1 ?? {});
    managed.sets.set(id, { set, apiVersion: e.apiVersion, applied: e.operation === 'Apply' });
    managed.times.set(id, normalizeTime(e.time));
  });
  return managed;
}

function normalizeTime(t: string | undefined): string | undefined {
  if (!t) return undefined;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? t : new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

const seconds = (t: string | undefined) => (t ? Math.floor(Date.parse(t) / 1000) || 0 : 0);

/** Entries in upstream's order; undefined when there are none. */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] | undefined {
  if (managed.sets.size === 0) return undefined;
  const entries: ManagedFieldsEntry[] = [];
  for (const [id, vs] of managed.sets) {
    const info = parseIdentifier(id);
    const e: ManagedFieldsEntry = {};
    if (info.manager) e.manager = info.manager;
    e.operation = vs.applied ? 'Apply' : info.operation;
    e.apiVersion = vs.apiVersion;
    const time = managed.times.get(id);
    if (time) e.time = time;
    e.fieldsType = 'FieldsV1';
    e.fieldsV1 = setToFieldsV1(vs.set);
    if (info.subresource) e.subresource = info.subresource;
    entries.push(e);
  }
  const cmp = (a: string | undefined, b: string | undefined) => ((a ?? '') < (b ?? '') ? -1 : (a ?? '') > (b ?? '') ? 1 : 0);
  return entries.sort(
    (p, q) =>
      cmp(p.operation, q.operation) ||
      seconds(p.time) - seconds(q.time) ||
      cmp(p.manager, q.manager) ||
      cmp(p.apiVersion, q.apiVersion) ||
      cmp(p.subresource, q.subresource),
  );
}

export const maxUpdateManagers = 10;
const ancientChanges = 'ancient-changes';

/** Merges the oldest Update entries beyond the cap into one `ancient-changes` entry per apiVersion. */
export function capUpdateManagers(managed: Managed, max = maxUpdateManagers): void {
  const updaters = [...managed.sets].filter(([, vs]) => !vs.applied).map(([id]) => id);
  if (updaters.length <= max) return;
  updaters.sort((a, b) => seconds(managed.times.get(a)) - seconds(managed.times.get(b)) || (a < b ? -1 : a > b ? 1 : 0));
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
    const id = updaters[i];
    const vs = managed.sets.get(id)!;
    const time = managed.times.get(id);
    const bucket = managerIdentifier({ manager: ancientChanges, operation: 'Update', apiVersion: vs.apiVersion });
    const first = firstOfVersion.get(vs.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(vs.apiVersion, id);
      continue;
    }
    if (!managed.sets.has(bucket)) {
      managed.sets.set(bucket, managed.sets.get(first)!);
      managed.sets.delete(first);
    }
    const into = managed.sets.get(bucket)!;
    managed.sets.set(bucket, { set: vs.set.union(into.set), apiVersion: vs.apiVersion, applied: vs.applied });
    managed.sets.delete(id);
    managed.times.set(bucket, time);
    length--;
  }
}

/** Metadata fields nobody owns: the server sets them, or they are the object's identity. */
export const untrackedMetadata: readonly string[] = ['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'];

/** Fields nobody owns: type meta, metadata itself and its server-managed fields. */
export const untrackedFields = FieldSet.of(
  [field('apiVersion')],
  [field('kind')],
  [field('metadata')],
  ...untrackedMetadata.map((f) => [field('metadata'), field(f)]),
);

export function stripUntracked(set: FieldSet): FieldSet {
  return set.difference(untrackedFields);
}

/**
 * The object without the fields nobody owns (metadata stays, with what it tracks). When no manager holds an entry
 * yet (a create), comparing these views finds what comparing the whole objects and then stripping would, without
 * walking and then dropping type meta, name, uid, resourceVersion and the timestamps of every write.
 */
export function trackedView(obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k in obj) if (k !== 'apiVersion' && k !== 'kind') out[k] = obj[k];
  const meta = obj.metadata;
  if (isPlainObject(meta)) {
    const tracked: Record<string, unknown> = {};
    for (const k in meta) if (!untrackedMetadata.includes(k)) tracked[k] = meta[k];
    out.metadata = tracked;
  }
  return out;
}
