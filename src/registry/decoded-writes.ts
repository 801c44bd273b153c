/**
 * Large values this process wrote, kept decoded, so that the next update of the same key starts from them instead
 * of decoding the stored bytes again: for a 900 KB ConfigMap replaced over and over, decoding the old value was
 * about 2.5 ms and 2 MB of large strings (page faults, major collections) per replace. The object kept is JSON's
 * reading of exactly the bytes written (built from the written object without parsing), and it is handed out only
 * for the same kind and equal bytes, as a fresh copy: strings are immutable, so a copy shares them and costs only the
 * objects and arrays around them. Small values decode faster than they would be compared, and are not kept; at most
 * 16 MiB of values are (each with its strings: twice that in memory), the least recently used going first.
 */
import { deepCopy, putMember, type KObject } from '../machinery/object';
import type { ResourceDefinition } from '../machinery/resource-definition';
import type { KeyValue } from '../ports/storage.port';
import type { RevisionSlot } from './with-revision';

/** A value as storage or the watch cache hands it to an update (reader.ts's CurrentValue). */
type Stored = Pick<KeyValue, 'key' | 'value' | 'modRevision'>;

/** Below this a value decodes in well under 0.1 ms: keeping it would cost more than it saves. */
export const minDecodedBytes = 64 * 1024;
const maxEntries = 64;
const maxBytes = 16 * 1024 * 1024;

interface Decoded {
  readonly def: ResourceDefinition;
  readonly bytes: Buffer;
  readonly object: KObject;
  /** Where the watch cache's copy of the bytes has metadata.resourceVersion, and whether a comma goes before it. */
  readonly revisionAt: number;
  readonly comma: boolean;
}

/** By key, least recently used first. */
const kept = new Map<string, Decoded>();
let keptBytes = 0;

function drop(key: string, d: Decoded): void {
  kept.delete(key);
  keptBytes -= d.bytes.length;
}

/**
 * Called with the bytes about to be stored under `key`, the object (without conversion) they encode, and the slot
 * of their revision (with-revision.ts).
 */
export function rememberDecoded(def: ResourceDefinition, key: string, bytes: Buffer, obj: KObject, slot: RevisionSlot | undefined): void {
  const before = kept.get(key);
  if (before) drop(key, before);
  if (def.storedAs || bytes.length < minDecodedBytes || !slot) return;
  const object = storedForm(obj);
  if (!object) return;
  kept.set(key, { def, bytes, object, revisionAt: slot.at, comma: slot.comma });
  keptBytes += bytes.length;
  for (const [k, d] of kept) {
    if (kept.size <= maxEntries && keptBytes <= maxBytes) break;
    drop(k, d);
  }
}

/**
 * When this process wrote exactly these bytes under the key as `def`: a function giving, at each call, a fresh
 * decodeKeyValue(def, current). The bytes are compared once, however many copies an update takes (a patch takes two).
 */
export function writtenCopier(def: ResourceDefinition, current: Stored): (() => KObject) | undefined {
  const d = kept.get(current.key);
  if (!d) return undefined;
  if (d.def !== def || !sameValue(d, current)) return undefined;
  kept.delete(current.key); // most recently used last
  kept.set(current.key, d);
  const revision = String(current.modRevision);
  return () => {
    const obj = deepCopy(d.object);
    obj.metadata.resourceVersion = revision;
    return obj;
  };
}

/** decodeKeyValue(def, current) when this process wrote exactly these bytes under the key as `def`; else undefined. */
export function decodeWritten(def: ResourceDefinition, current: Stored): KObject | undefined {
  return writtenCopier(def, current)?.();
}

/** Whether `current` holds d's bytes: as stored, or as the watch cache keeps them, with the revision written in. */
function sameValue(d: Decoded, current: Stored): boolean {
  const { bytes, revisionAt: at } = d;
  const value = current.value;
  if (value === bytes || value.equals(bytes)) return true;
  const insert = `${d.comma ? ',' : ''}"resourceVersion":"${current.modRevision}"`;
  const after = at + insert.length;
  return (
    value.length === bytes.length + insert.length &&
    value.compare(bytes, 0, at, 0, at) === 0 &&
    value.toString('latin1', at, after) === insert &&
    value.compare(bytes, at, bytes.length, after, value.length) === 0
  );
}

/** Nothing kept: for tests. */
export function forgetDecoded(): void {
  kept.clear();
  keptBytes = 0;
}

/**
 * What JSON.parse gives for the stored JSON of `obj` (encodeForStorage: without metadata.resourceVersion and
 * selfLink), or undefined where that reading is not certain (a toJSON method, a class instance, a number JSON cannot
 * write): then the value is decoded from its bytes as before.
 */
function storedForm(obj: KObject): KObject | undefined {
  const out = jsonForm(obj);
  if (out === unsure || !isRecord(out) || !isRecord(out.metadata)) return undefined;
  delete out.metadata.resourceVersion;
  delete out.metadata.selfLink;
  return out as unknown as KObject;
}

const unsure = Symbol('unsure');
/** JSON leaves these out of an object and writes null for them in an array. */
const omitted = Symbol('omitted');

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function jsonForm(v: unknown): unknown {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      return Number.isFinite(v) ? v + 0 : unsure; // -0 is written as 0
    case 'undefined':
    case 'function':
    case 'symbol':
      return omitted;
    case 'object':
      break;
    default:
      return unsure; // bigint: JSON.stringify throws
  }
  if (v === null) return null;
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return unsure;
  if (Array.isArray(v)) {
    const out: unknown[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) {
      const e = jsonForm(v[i]);
      if (e === unsure) return unsure;
      out[i] = e === omitted ? null : e;
    }
    return out;
  }
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null) return unsure;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    const e = jsonForm((v as Record<string, unknown>)[k]);
    if (e === unsure) return unsure;
    if (e === omitted) continue;
    putMember(out, k, e);
  }
  return out;
}
