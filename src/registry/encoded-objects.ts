/**
 * What the watch cache reads of each value this process writes (labels, uid, the kind's selectable fields), taken
 * from the object before the write: when the value comes back to the cache (at once from the embedded store, a
 * moment later from etcd's watch), the cache compares bytes and reads these instead of parsing the value again,
 * a large object's biggest cost after its write. They are functions of the bytes, so equal bytes from any writer
 * (another replica too) have them. A value that was never written here, or differs, is parsed as before.
 */
import type { KObject } from '../machinery/object';
import type { ResourceDefinition } from '../machinery/resource-definition';
import { rememberDecoded } from './decoded-writes';
import { revisionSlot, type RevisionSlot } from './with-revision';

export interface WrittenAttributes {
  /** A copy: the writer's object may change once the write has answered. */
  readonly labels: Readonly<Record<string, string>> | undefined;
  readonly uid: string | undefined;
  /** Values of the kind's own field selectors; undefined when it has none. */
  readonly fields: Readonly<Record<string, string | undefined>> | undefined;
  /** Whether metadata.deletionTimestamp is set. */
  readonly deleting: boolean;
  /** Where the bytes take their revision (found once per write); undefined when they are not in the expected shape. */
  readonly slot: RevisionSlot | undefined;
}

interface Written {
  /** The kind the attributes are for (another kind stored under the same keys reads its own fields). */
  readonly def: ResourceDefinition;
  readonly bytes: Buffer;
  readonly attributes: WrittenAttributes;
}

/** Writes waiting for their value to reach the cache, oldest first, bounded (failed writes never come back). */
const pending = new Map<string, Written>();
let pendingBytes = 0;
const maxPendingEntries = 1024;
const maxPendingBytes = 16 * 1024 * 1024;

function forget(key: string, w: Written): void {
  pending.delete(key);
  pendingBytes -= w.bytes.length;
}

/**
 * Called with the bytes about to be stored under `key` and the object they were encoded from. Answers where the
 * bytes take their revision, for the write's own answer: the bytes are scanned for it once, for the answer, the
 * watch cache and the decoded copy alike.
 */
export function rememberWrite(def: ResourceDefinition, key: string, bytes: Buffer, obj: KObject): RevisionSlot | undefined {
  const slot = revisionSlot(bytes);
  rememberDecoded(def, key, bytes, obj, slot); // for the next update of a large value (decoded-writes.ts)
  if (def.storedAs) return slot; // stored as another kind: the cache's object is the converted one
  const meta = obj.metadata;
  const selectors = Object.entries(def.fieldSelectors);
  let fields: Record<string, string | undefined> | undefined;
  if (selectors.length) {
    fields = {};
    for (const [name, get] of selectors) fields[name] = get(obj);
  }
  const labels = meta.labels && Object.keys(meta.labels).length ? { ...meta.labels } : undefined;
  const before = pending.get(key);
  if (before) forget(key, before);
  pending.set(key, { def, bytes, attributes: { labels, uid: meta.uid, fields, deleting: !!meta.deletionTimestamp, slot } });
  pendingBytes += bytes.length;
  for (const [k, w] of pending) {
    if (pending.size <= maxPendingEntries && pendingBytes <= maxPendingBytes) break;
    forget(k, w);
  }
  return slot;
}

/** The attributes of `value` for `def` if this process wrote exactly these bytes under `key` as it; the entry goes. */
export function takeWritten(def: ResourceDefinition, key: string, value: Buffer): WrittenAttributes | undefined {
  const w = pending.get(key);
  if (!w || w.def !== def || !(w.bytes === value || w.bytes.equals(value))) return undefined; // a later write's entry stays
  forget(key, w);
  return w.attributes;
}
