/**
 * StoragePort on an embedded lmdb environment (single process, durable).
 *
 * Every write runs in an lmdb-js async transaction: it checks the key,
 * takes the next revision from the meta table, updates the state table and
 * appends a log entry, all atomically. lmdb-js batches the transactions of
 * one event turn into one commit, so many concurrent writes share a sync.
 * A write resolves after its commit is flushed to disk (durableWrites).
 *
 * Keys written with a TTL are listed in an expiry index ordered by expiry
 * time; a timer deletes the due ones (each a normal delete with its own
 * revision and watch event), reading only the due part of the index.
 */
import { open, type Database, type RootDatabase } from 'lmdb';
import { prepareDataDir } from './data-dir';
import {
  FutureRevisionError,
  KeyExistsError,
  KeyNotFoundError,
  RevisionMismatchError,
  StorageError,
  type KeyValue,
  type PutOptions,
  type RangeOptions,
  type RangeResult,
  type StorageEvent,
  type StoragePort,
  type WatchCallbacks,
  type WatchHandle,
} from '../../ports/storage.port';
import { META_COMPACTED, META_REVISION, MAX_KEY_BYTES, keyTooLong, toKeyValue, type LogRecord, type LogValues, type StateRecord } from './lmdb-records';
import { readLog, readRange, readRevisions, type LmdbTables } from './lmdb-range';
import { WatchHub } from './lmdb-watch';

export interface LmdbStorageOptions {
  /** Directory of the lmdb environment (created if missing). */
  path: string;
  /**
   * Keep at most this many revisions of history: the store compacts itself
   * once it holds ~10% more. Absent = keep history until compact() is called.
   */
  historyRetention?: number;
  /** How often idle watchers get onProgress (ms, default 1000). */
  progressIntervalMs?: number;
  /** Resolve writes only once flushed to disk (default true). */
  durableWrites?: boolean;
  /** How often keys written with a TTL are checked for expiry (ms, default 1000). */
  expiryIntervalMs?: number;
  /** Clock for TTLs (ms since the epoch; tests move it). */
  now?: () => number;
  /** Bytes of recent events kept in memory for watchers (default 4 MiB); older ones are read from disk. */
  recentEventBytes?: number;
}

type WriteOutcome =
  | { ok: true; event: StorageEvent }
  | { ok: false; error: StorageError };

const COMPACT_CHUNK = 5000;
/** Expired keys deleted per sweep; the rest wait for the next one. */
const EXPIRE_CHUNK = 1000;

type ExpiryKey = [number, string];

export class LmdbStorage implements StoragePort {
  private readonly env: RootDatabase;
  private readonly tables: LmdbTables;
  private readonly expiry: Database<1, ExpiryKey>;
  private readonly hub: WatchHub;
  private readonly timer: NodeJS.Timeout;
  private readonly expiryTimer: NodeJS.Timeout;
  private sweeping = false;
  private compacting: Promise<void> = Promise.resolve();
  private autoCompacting = false;
  private closed = false;
  /**
   * The compaction mark when this process opened the store: the log holds the value of every key written at or after
   * it (this version's compaction keeps a value until a write below the mark replaces it), where an older version's
   * compaction had dropped all values below its mark.
   */
  private readonly valuesFrom: number;

  constructor(private readonly options: LmdbStorageOptions) {
    prepareDataDir(options.path);
    // noSubdir must be explicit: lmdb-js otherwise reads a dot in the last component as a file name.
    this.env = open({ path: options.path, noSubdir: false, maxDbs: 8 });
    this.expiry = this.env.openDB<1, ExpiryKey>({ name: 'expiry' });
    this.tables = {
      state: this.env.openDB<StateRecord, string>({ name: 'state' }),
      log: this.env.openDB<LogRecord, number>({ name: 'log' }),
      logValues: this.env.openDB<LogValues, number>({ name: 'logValues' }),
      meta: this.env.openDB<number, string>({ name: 'meta' }),
    };
    const tables = this.tables;
    this.valuesFrom = readRevisions(tables).compacted;
    this.hub = new WatchHub(readRevisions(tables).current, {
      read: (start, end, after, upTo, maxScan) => this.withReadTxn((txn) => readLog(tables, start, end, after, upTo, maxScan, txn)),
      compactedRevision: () => readRevisions(tables).compacted,
    }, 10_000, options.recentEventBytes);
    this.timer = setInterval(() => this.hub.tick(), options.progressIntervalMs ?? 1000);
    this.timer.unref();
    this.expiryTimer = setInterval(() => void this.expireDue(), options.expiryIntervalMs ?? 1000);
    this.expiryTimer.unref();
  }

  async currentRevision(): Promise<number> {
    this.assertOpen();
    return readRevisions(this.tables).current;
  }

  async compactedRevision(): Promise<number> {
    this.assertOpen();
    return readRevisions(this.tables).compacted;
  }

  async get(key: string): Promise<KeyValue | undefined> {
    this.assertOpen();
    if (keyTooLong(key)) return undefined; // e.g. GET of a 10,000-character name: not found, as on etcd
    const record = this.tables.state.get(key);
    return record ? toKeyValue(key, record) : undefined;
  }

  async range(prefix: string, options: RangeOptions = {}): Promise<RangeResult> {
    this.assertOpen();
    return this.withReadTxn((txn) => readRange(this.tables, prefix, options, txn));
  }

  create(key: string, value: Buffer, options?: PutOptions): Promise<number> {
    const x = this.expiresAt(options);
    return this.write(key, () => {
      if (this.tables.state.get(key)) return { ok: false, error: new KeyExistsError(key) };
      const rev = this.nextRevision();
      this.tables.state.put(key, { v: value, c: rev, m: rev, ...this.indexExpiry(key, undefined, x) });
      this.tables.log.put(rev, { k: key, c: rev });
      this.tables.logValues.put(rev, { v: value });
      return { ok: true, event: { type: 'put', key, value, modRevision: rev } };
    });
  }

  update(key: string, value: Buffer, expectedModRevision: number, options?: PutOptions): Promise<number> {
    const x = this.expiresAt(options);
    return this.write(key, () => {
      const cur = this.checkCurrent(key, expectedModRevision);
      if (!('m' in cur)) return cur;
      const rev = this.nextRevision();
      this.tables.state.put(key, { v: value, c: cur.c, m: rev, ...this.indexExpiry(key, cur.x, x) });
      this.tables.log.put(rev, { k: key, c: cur.c, pm: cur.m });
      this.tables.logValues.put(rev, this.keepsPrevious(cur) ? { v: value } : { v: value, pv: cur.v });
      const event: StorageEvent = { type: 'put', key, value, modRevision: rev };
      return { ok: true, event };
    });
  }

  delete(key: string, expectedModRevision: number): Promise<number> {
    return this.write(key, () => {
      const cur = this.checkCurrent(key, expectedModRevision);
      if (!('m' in cur)) return cur;
      return { ok: true, event: this.removeKey(key, cur) };
    });
  }

  watch(prefix: string, fromRevision: number, callbacks: WatchCallbacks): WatchHandle {
    this.assertOpen();
    return this.hub.watch(prefix, fromRevision, callbacks);
  }

  /** Compactions run one at a time; compacting at or below the current mark is a no-op. */
  compact(revision: number): Promise<void> {
    const run = this.compacting.then(() => this.compactNow(revision));
    this.compacting = run.catch(() => undefined);
    return run;
  }

  /** Local and in-process: answers at once (the timeout has nothing to bound). */
  async ping(_timeoutMs?: number): Promise<boolean> {
    return !this.closed;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    clearInterval(this.expiryTimer);
    this.hub.close();
    await this.compacting;
    await this.env.close();
  }

  private async compactNow(revision: number): Promise<void> {
    this.assertOpen();
    const { current, compacted } = readRevisions(this.tables);
    if (revision > current) throw new FutureRevisionError(revision, current);
    if (revision <= compacted) return;
    // Raise the mark first so reads below it fail, then drop old entries in bounded chunks.
    await this.env.transaction(() => this.tables.meta.put(META_COMPACTED, revision));
    for (;;) {
      const removed = await this.env.transaction(() => {
        const old = [...this.tables.log.getRange({ end: revision, limit: COMPACT_CHUNK })];
        for (const { key: rev, value: entry } of old) {
          this.tables.log.remove(rev);
          // The value this entry replaced is not readable at or after the mark; its own value is while it is the
          // key's latest below the mark (a read there finds it through the next write's pm).
          if (entry.pm !== undefined) this.tables.logValues.remove(entry.pm);
          if (entry.d) this.tables.logValues.remove(rev);
        }
        return old.length;
      });
      if (removed < COMPACT_CHUNK || this.closed) break;
    }
  }

  /** Runs one write transaction; notifies watchers once committed, resolves once durable. */
  private async write(key: string, body: () => WriteOutcome): Promise<number> {
    this.assertOpen();
    // Checked up front: a put failing inside the batch would leave a taken revision without a log entry.
    if (keyTooLong(key)) throw new StorageError(`key longer than ${MAX_KEY_BYTES} bytes: ${key.slice(0, 80)}…`);
    let outcome: WriteOutcome;
    try {
      outcome = await this.env.transaction(body);
    } catch (err) {
      // The batch did not commit: revisions taken in it will be handed out again.
      this.hub.reset(readRevisions(this.tables).current);
      throw err;
    }
    if (!outcome.ok) throw outcome.error;
    // Committed writes are already visible to reads, so watchers learn of them now, not after the sync.
    this.hub.committed(outcome.event);
    this.maybeAutoCompact(outcome.event.modRevision);
    if (this.options.durableWrites !== false) await this.env.flushed;
    return outcome.event.modRevision;
  }

  /** Called inside a write transaction: the deletion of a live key as a log entry. */
  private removeKey(key: string, cur: StateRecord): StorageEvent {
    const rev = this.nextRevision();
    this.tables.state.remove(key);
    if (cur.x !== undefined) this.expiry.remove([cur.x, key]);
    this.tables.log.put(rev, { k: key, d: 1, c: cur.c, pm: cur.m });
    if (!this.keepsPrevious(cur)) this.tables.logValues.put(rev, { pv: cur.v });
    return { type: 'delete', key, modRevision: rev };
  }

  private expiresAt(options: PutOptions | undefined): number | undefined {
    return options?.ttlSeconds ? (this.options.now ?? Date.now)() + options.ttlSeconds * 1000 : undefined;
  }

  /** Called inside a write transaction: moves the key's expiry index entry; returns the state field. */
  private indexExpiry(key: string, old: number | undefined, next: number | undefined): { x?: number } {
    if (old !== undefined && old !== next) this.expiry.remove([old, key]);
    if (next === undefined) return {};
    this.expiry.put([next, key], 1);
    return { x: next };
  }

  /** Deletes keys whose expiry time has passed, oldest first, a chunk per run. */
  private async expireDue(): Promise<void> {
    if (this.sweeping || this.closed) return;
    this.sweeping = true;
    try {
      const now = (this.options.now ?? Date.now)();
      const due = [...this.expiry.getKeys({ end: [now + 1], limit: EXPIRE_CHUNK })] as ExpiryKey[];
      await Promise.all(due.map(([x, key]) => this.expire(key, x)));
    } catch {
      // A failed sweep (e.g. closing) leaves the entries for the next one.
    } finally {
      this.sweeping = false;
    }
  }

  /** Removes the key if it still carries this expiry (a later write may have renewed or cleared it). */
  private async expire(key: string, x: number): Promise<void> {
    let event: StorageEvent | undefined;
    try {
      event = await this.env.transaction(() => {
        const cur = this.tables.state.get(key);
        if (!cur || cur.x !== x) {
          this.expiry.remove([x, key]);
          return undefined;
        }
        return this.removeKey(key, cur);
      });
    } catch (err) {
      this.hub.reset(readRevisions(this.tables).current);
      throw err;
    }
    if (!event) return;
    this.hub.committed(event);
    this.maybeAutoCompact(event.modRevision);
  }

  /**
   * Whether the log still holds the value `cur` was written with, so that a write replacing it need not store it
   * again as the previous value (reads at older revisions find it there). Decided from revisions alone: looking the
   * value up would map its pages into this process, and values stay in the log until replaced.
   */
  private keepsPrevious(cur: StateRecord): boolean {
    return cur.m >= this.valuesFrom;
  }

  private checkCurrent(key: string, expected: number): StateRecord | { ok: false; error: StorageError } {
    const cur = this.tables.state.get(key);
    if (!cur) return { ok: false, error: new KeyNotFoundError(key) };
    if (cur.m !== expected) return { ok: false, error: new RevisionMismatchError(key, toKeyValue(key, cur)) };
    return cur;
  }

  /** Called inside a write transaction: reads see this batch's earlier writes. */
  private nextRevision(): number {
    const rev = (this.tables.meta.get(META_REVISION) ?? 0) + 1;
    this.tables.meta.put(META_REVISION, rev);
    return rev;
  }

  private maybeAutoCompact(revision: number): void {
    const keep = this.options.historyRetention;
    if (!keep || this.autoCompacting || this.closed) return;
    const { compacted } = readRevisions(this.tables);
    if (revision - compacted <= keep + Math.max(1, Math.floor(keep / 10))) return;
    this.autoCompacting = true;
    this.compact(revision - keep)
      .then(
        () => {
          this.autoCompacting = false;
          // Writes that landed meanwhile skipped their check: catch up with them.
          if (!this.closed) this.maybeAutoCompact(readRevisions(this.tables).current);
        },
        () => (this.autoCompacting = false), // retried on a later write
      );
  }

  private withReadTxn<T>(fn: (txn: ReturnType<RootDatabase['useReadTransaction']>) => T): T {
    const txn = this.env.useReadTransaction();
    try {
      return fn(txn);
    } finally {
      txn.done();
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new StorageError('lmdb storage is closed');
  }
}

export function openLmdbStorage(path: string, options: Omit<LmdbStorageOptions, 'path'> = {}): LmdbStorage {
  return new LmdbStorage({ ...options, path });
}
