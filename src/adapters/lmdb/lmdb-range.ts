/**
 * Reads of the lmdb store at a revision. The state table only holds the
 * latest values, so a read at an older revision undoes the log entries
 * written after it: for every key touched since, the oldest such entry
 * carries the value the key had at the read revision (or its absence).
 */
import type { Database, Transaction } from 'lmdb';
import {
  CompactedError,
  FutureRevisionError,
  type KeyValue,
  type RangeOptions,
  type RangeResult,
  type StorageEvent,
} from '../../ports/storage.port';
import {
  META_COMPACTED,
  META_REVISION,
  inRange,
  keyTooLong,
  prefixEnd,
  toKeyValue,
  toStorageEvent,
  type LogRecord,
  type LogValues,
  type StateRecord,
} from './lmdb-records';

export interface LmdbTables {
  state: Database<StateRecord, string>;
  log: Database<LogRecord, number>;
  logValues: Database<LogValues, number>;
  meta: Database<number, string>;
}

export function readRevisions(tables: LmdbTables, transaction?: Transaction): { current: number; compacted: number } {
  return {
    current: tables.meta.get(META_REVISION, { transaction }) ?? 0,
    compacted: tables.meta.get(META_COMPACTED, { transaction }) ?? 0,
  };
}

export function readRange(
  tables: LmdbTables,
  prefix: string,
  options: RangeOptions,
  transaction: Transaction,
): RangeResult {
  const { current, compacted } = readRevisions(tables, transaction);
  const revision = options.revision && options.revision > 0 ? options.revision : current;
  if (revision > current) throw new FutureRevisionError(revision, current);
  if (revision < compacted) throw new CompactedError(revision, compacted);

  const start = options.startKey && options.startKey > prefix ? options.startKey : prefix;
  // Keys this long cannot be stored: a prefix (or a crafted continue key) beyond the limit finds nothing.
  if (keyTooLong(start)) return { items: [], more: false, count: 0, revision };
  const end = prefixEnd(prefix);
  const limit = options.limit && options.limit > 0 ? options.limit : Infinity;
  const undo = collectUndo(tables, start, end, revision, transaction);
  let count = tables.state.getKeysCount({ start, end, transaction });
  if (undo.size === 0) {
    const items = [...tables.state.getRange({ start, end, limit, transaction })].map((e) => toKeyValue(e.key, e.value));
    return { items, more: count > items.length, count, revision };
  }

  // Merge the current keys with the touched keys' old versions, in key order.
  const items: KeyValue[] = [];
  const undoKeys = [...undo.keys()].sort();
  let u = 0;
  const emitOld = (key: string): void => {
    const old = undo.get(key)!;
    if (old.existed) items.push(oldKeyValue(tables, key, old, transaction));
  };
  for (const key of tables.state.getKeys({ start, end, transaction })) {
    while (u < undoKeys.length && undoKeys[u] < key && items.length < limit) emitOld(undoKeys[u++]);
    if (items.length >= limit) break;
    if (undoKeys[u] === key) emitOld(undoKeys[u++]);
    else items.push(toKeyValue(key, tables.state.get(key, { transaction })!));
  }
  while (u < undoKeys.length && items.length < limit) emitOld(undoKeys[u++]);

  // count = keys now, adjusted by the touched keys whose existence differs at the read revision.
  for (const old of undo.values()) count += (old.existed ? 1 : 0) - (old.existsNow ? 1 : 0);
  return { items, more: count > items.length, count, revision };
}

interface OldVersion {
  /** Whether the key existed at the read revision... */
  existed: boolean;
  /** ...and whether it exists now (its last log entry is not a delete). */
  existsNow: boolean;
  /** First log entry after the read revision: its "previous" fields are the old version. */
  firstRevision: number;
  createRevision: number;
  modRevision: number;
}

/** For each key under [start, end) written after revision: how it was then, and whether it exists now. */
function collectUndo(
  tables: LmdbTables,
  start: string,
  end: string | undefined,
  revision: number,
  transaction: Transaction,
): Map<string, OldVersion> {
  const undo = new Map<string, OldVersion>();
  for (const { key: rev, value: entry } of tables.log.getRange({ start: revision + 1, transaction })) {
    if (!inRange(entry.k, start, end)) continue;
    const seen = undo.get(entry.k);
    if (seen) {
      seen.existsNow = !entry.d;
      continue;
    }
    undo.set(entry.k, {
      existed: entry.pm !== undefined,
      existsNow: !entry.d,
      firstRevision: rev,
      createRevision: entry.c,
      modRevision: entry.pm ?? 0,
    });
  }
  return undo;
}

/**
 * The old version's value: the log's value of the write that made it, kept until a later write below the compaction
 * mark replaced it; or, in data written before that, the "previous value" stored with the first later write.
 */
function oldKeyValue(tables: LmdbTables, key: string, old: OldVersion, transaction: Transaction): KeyValue {
  const previous = tables.logValues.get(old.firstRevision, { transaction })?.pv ?? tables.logValues.get(old.modRevision, { transaction })?.v;
  if (previous === undefined) throw new Error(`lmdb store: no value of ${key} at revision ${old.modRevision} in the log`);
  return toKeyValue(key, { v: previous, c: old.createRevision, m: old.modRevision });
}

/**
 * Log entries in (after, upTo] under [start, end), scanning at most maxScan
 * revisions. Returns the events and the last revision scanned, or a
 * CompactedError when the entry after `after` is no longer kept.
 */
export function readLog(
  tables: LmdbTables,
  start: string,
  end: string | undefined,
  after: number,
  upTo: number,
  maxScan: number,
  transaction: Transaction,
): { events: StorageEvent[]; scannedTo: number } | CompactedError {
  const { compacted } = readRevisions(tables, transaction);
  if (after + 1 < compacted) return new CompactedError(after + 1, compacted);
  const events: StorageEvent[] = [];
  const last = Math.min(upTo, after + maxScan);
  for (const { key: rev, value: entry } of tables.log.getRange({ start: after + 1, end: last, inclusiveEnd: true, transaction })) {
    if (inRange(entry.k, start, end)) events.push(toStorageEvent(rev, entry, tables.logValues.get(rev, { transaction })));
  }
  return { events, scannedTo: last };
}
