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
  const end = prefixEnd(prefix);
  const limit = options.limit && options.limit > 0 ? options.limit : Infinity;
  const undo = collectUndo(tables, start, end, revision, transaction);

  const items: KeyValue[] = [];
  const undoKeys = [...undo.keys()].sort();
  let u = 0;
  const emit = (key: string, record: StateRecord | null): void => {
    if (record && items.length < limit) items.push(toKeyValue(key, record));
  };
  for (const { key, value } of tables.state.getRange({ start, end, transaction })) {
    if (items.length >= limit) break;
    while (u < undoKeys.length && undoKeys[u] < key) emit(undoKeys[u], undo.get(undoKeys[u++])!);
    if (undoKeys[u] === key) emit(key, undo.get(undoKeys[u++])!);
    else emit(key, value);
  }
  while (u < undoKeys.length && items.length < limit) emit(undoKeys[u], undo.get(undoKeys[u++])!);

  // count = keys now, adjusted by the keys whose existence differs at the read revision.
  let count = tables.state.getKeysCount({ start, end, transaction });
  for (const [key, old] of undo) {
    const existsNow = tables.state.get(key, { transaction }) !== undefined;
    count += (old ? 1 : 0) - (existsNow ? 1 : 0);
  }
  return { items, more: count > items.length, count, revision };
}

/** Value of each key touched after revision, as it was at revision (null = absent). */
function collectUndo(
  tables: LmdbTables,
  start: string,
  end: string | undefined,
  revision: number,
  transaction: Transaction,
): Map<string, StateRecord | null> {
  const undo = new Map<string, StateRecord | null>();
  for (const { key: rev, value: entry } of tables.log.getRange({ start: revision + 1, transaction })) {
    if (!inRange(entry.k, start, end) || undo.has(entry.k)) continue;
    if (entry.pm === undefined) {
      undo.set(entry.k, null);
    } else {
      const values = tables.logValues.get(rev, { transaction });
      undo.set(entry.k, { v: values?.pv ?? Buffer.alloc(0), c: entry.c, m: entry.pm });
    }
  }
  return undo;
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
