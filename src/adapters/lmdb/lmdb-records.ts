/**
 * On-disk record shapes of the lmdb store and small helpers around them.
 *
 * Five named databases live in one lmdb environment:
 *   state:     key -> StateRecord (the latest value of every live key)
 *   log:       revision -> LogRecord (one small entry per write, until compacted)
 *   logValues: revision -> LogValues (that write's value, kept until a write below the compaction mark replaces
 *              it; the previous value too where the log no longer had it, as in data written by older versions)
 *   meta:      'rev' | 'compacted' -> number
 *   expiry:    [expiresAt ms, key] -> 1, for keys written with a TTL (the expiry index)
 * Values sit apart from the log so that scans by key (reads at old
 * revisions, watch replay) decode only small records.
 * Field names are one letter because msgpack stores them with every record.
 */
import type { KeyValue, StorageEvent } from '../../ports/storage.port';

export interface StateRecord {
  /** value */
  v: Buffer;
  /** createRevision */
  c: number;
  /** modRevision */
  m: number;
  /** When the key expires (ms since the epoch), for keys written with a TTL; its expiry index entry is [x, key]. */
  x?: number;
}

export interface LogRecord {
  /** key */
  k: string;
  /** 1 when this entry is a deletion */
  d?: 1;
  /** createRevision of the key's current incarnation */
  c: number;
  /** previous modRevision, when the key existed before this write */
  pm?: number;
}

export interface LogValues {
  /** new value (puts only) */
  v?: Buffer;
  /** previous value, when the key existed before this write and the log no longer held it */
  pv?: Buffer;
}

/** lmdb's key limit is 1978 bytes, including ordered-binary's type byte. */
export const MAX_KEY_BYTES = 1900;

/** No key this long can be stored, so none can be found: reads answer "absent" without asking lmdb. */
export function keyTooLong(key: string): boolean {
  return key.length > MAX_KEY_BYTES / 3 && Buffer.byteLength(key) > MAX_KEY_BYTES;
}

export const META_REVISION = 'rev';
export const META_COMPACTED = 'compacted';

/** msgpack may hand back a Uint8Array; the port promises Buffers. */
export function asBuffer(value: Uint8Array): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

export function toKeyValue(key: string, record: StateRecord): KeyValue {
  return { key, value: asBuffer(record.v), createRevision: record.c, modRevision: record.m };
}

export function toStorageEvent(revision: number, record: LogRecord, values: LogValues | undefined): StorageEvent {
  const event: StorageEvent = { type: record.d ? 'delete' : 'put', key: record.k, modRevision: revision };
  if (values?.v !== undefined) event.value = asBuffer(values.v);
  return event;
}

/**
 * The smallest string greater than every string starting with prefix, or
 * undefined when the prefix is empty (no upper bound). Keys are ASCII paths,
 * so bumping the last UTF-16 unit matches lmdb's byte order.
 */
export function prefixEnd(prefix: string): string | undefined {
  if (prefix === '') return undefined;
  const last = prefix.charCodeAt(prefix.length - 1);
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}

/** True when key lies in [start, end) (end undefined = unbounded). */
export function inRange(key: string, start: string, end: string | undefined): boolean {
  return key >= start && (end === undefined || key < end);
}
