/**
 * StoragePort on etcd v3: reads, writes and watches through GrpcClient (gRPC
 * over a bare HTTP/2 session), leases and compaction through the etcd3 client.
 *
 * Every port key lives under `prefix` (default /registry); resourceVersion is
 * etcd's mod_revision. Creates and compare-and-swap writes are single
 * transactions; a failed compare returns the current value in the same round
 * trip. Reads are linearizable.
 */
import type { Etcd3 } from 'etcd3';
import {
  CompactedError,
  FutureRevisionError,
  KeyExistsError,
  KeyNotFoundError,
  RevisionMismatchError,
  StorageError,
  StorageTimeoutError,
  type KeyValue,
  type PutOptions,
  type RangeOptions,
  type RangeResult,
  type StoragePort,
  type WatchCallbacks,
  type WatchHandle,
} from '../../ports/storage.port';
import { KeySpace, isCompactedMessage, isFutureRevisionMessage, toStorageError } from './etcd-keys';
import { EtcdWatch } from './etcd-watch';
import { LeaseManager } from './etcd-leases';
import { EtcdKv, memberVersion, type Compare, type RequestOp, type TxnResponse } from './etcd-kv';
import { GrpcClient, GrpcStatusError, GrpcTimeoutError } from './grpc-client';
import { ProgressSupport } from './progress-support';
import { connectionOptions, type EtcdTls } from './etcd-tls';
import { libraryClient, raceTimeout } from './library-client';

export interface EtcdStorageOptions {
  /** Client URLs, e.g. ['http://127.0.0.1:2379']. */
  endpoints: string[];
  /** Prepended to every key (default '/registry'). */
  prefix?: string;
  /** Deadline of each unary request (ms, default 10000): past it the call fails with StorageTimeoutError. */
  requestTimeoutMs?: number;
  /** Deadline of ping() when the caller gives none (ms, default 2000). */
  pingTimeoutMs?: number;
  /**
   * Whether watches may ask etcd for progress on demand (consistent reads from the watch cache then need not wait for
   * the next periodic notification). Default: when every member's version answers such requests soundly.
   */
  progressRequests?: boolean;
  /** For https:// endpoints: the CA of etcd's certificate, and a client certificate and key when etcd asks for one. */
  tls?: EtcdTls;
}

const STATUS_TIMEOUT_MS = 5000;

export class EtcdStorage implements StoragePort {
  private readonly client: Etcd3;
  private readonly grpc: GrpcClient;
  private readonly kv: EtcdKv;
  private readonly keys: KeySpace;
  private readonly watches = new Set<EtcdWatch>();
  private readonly leases: LeaseManager;
  /** Connections asking members for their version (closed with the storage, answered or not). */
  private readonly statusClients = new Set<GrpcClient>();
  /** Undefined when options.progressRequests decided it. */
  readonly progressSupport: ProgressSupport | undefined;
  /** Lower bound of etcd's compact revision, raised as we learn more. */
  private knownCompacted = 0;
  private closed = false;
  private pingFailure: string | undefined;

  /** Every Range and Txn carries this deadline, to etcd (grpc-timeout) and locally. */
  readonly callTimeoutMs: number;

  constructor(private readonly options: EtcdStorageOptions) {
    this.callTimeoutMs = options.requestTimeoutMs ?? 10_000;
    this.keys = new KeySpace(options.prefix ?? '/registry');
    this.client = libraryClient(options.endpoints, options.tls);
    this.grpc = new GrpcClient(options.endpoints, undefined, undefined, connectionOptions(options.tls));
    this.kv = new EtcdKv(this.grpc, this.timeoutMs);
    this.leases = new LeaseManager(this.client, () => this.deadline());
    if (options.progressRequests === undefined) this.progressSupport = new ProgressSupport(options.endpoints, (ep) => this.versionAt(ep));
  }

  async currentRevision(): Promise<number> {
    const res = await this.call(() => this.kv.range({ key: this.keys.probeKey(), count_only: true }));
    return res.revision;
  }

  async get(key: string): Promise<KeyValue | undefined> {
    const res = await this.call(() => this.kv.range({ key: this.keys.full(key) }));
    return res.kvs.length ? this.keys.toKeyValue(res.kvs[0]) : undefined;
  }

  async range(prefix: string, options: RangeOptions = {}): Promise<RangeResult> {
    const { key, rangeEnd } = this.keys.range(prefix, options.startKey);
    const revision = options.revision && options.revision > 0 ? options.revision : 0;
    const res = await this.call(
      () => this.kv.range({ key, range_end: rangeEnd, revision, limit: options.limit ?? 0 }),
      revision,
    );
    return {
      items: res.kvs.map((kv) => this.keys.toKeyValue(kv)),
      more: res.more,
      count: res.count,
      revision: revision || res.revision,
    };
  }

  async create(key: string, value: Buffer, options?: PutOptions): Promise<number> {
    const k = this.keys.full(key);
    const res = await this.txn(
      [{ key: k, target: 'Create', result: 'Equal', create_revision: 0 }],
      options?.ttlSeconds ? await this.leasedPut(k, value, options.ttlSeconds) : { request_put: { key: k, value } },
      k,
    );
    if (!res.succeeded) throw new KeyExistsError(key);
    return res.revision;
  }

  async update(key: string, value: Buffer, expectedModRevision: number, options?: PutOptions): Promise<number> {
    const k = this.keys.full(key);
    const put: RequestOp = options?.ttlSeconds ? await this.leasedPut(k, value, options.ttlSeconds) : { request_put: { key: k, value } };
    const res = await this.txn(this.casCompare(k, expectedModRevision), put, k);
    if (!res.succeeded) this.casFailed(key, res);
    return res.revision;
  }

  async delete(key: string, expectedModRevision: number): Promise<number> {
    const k = this.keys.full(key);
    const res = await this.txn(this.casCompare(k, expectedModRevision), { request_delete_range: { key: k } }, k);
    if (!res.succeeded) this.casFailed(key, res);
    return res.revision;
  }

  watch(prefix: string, fromRevision: number, callbacks: WatchCallbacks): WatchHandle {
    if (this.closed) throw new StorageError('etcd storage is closed');
    const progress = () => this.options.progressRequests ?? this.progressSupport?.supported ?? false;
    const watch = new EtcdWatch(this.grpc, this.keys, prefix, fromRevision, callbacks, (w) => this.watches.delete(w), progress);
    this.watches.add(watch);
    return watch;
  }

  /** Compacting at or below etcd's current compact revision is a no-op. */
  async compact(revision: number): Promise<void> {
    try {
      await this.client.kv.compact({ revision, physical: false }, this.deadline());
    } catch (err) {
      if (isCompactedMessage(err)) return;
      if (isFutureRevisionMessage(err)) throw new FutureRevisionError(revision, await this.currentRevision());
      throw toStorageError(err, this.timeoutMs);
    }
    this.knownCompacted = Math.max(this.knownCompacted, revision);
  }

  /**
   * etcd has no call that returns its compact revision, so probe: a read at
   * revision r fails iff r < compact revision. Binary search between the
   * last known value and the current revision (~log2(n) cheap count reads).
   */
  async compactedRevision(): Promise<number> {
    const current = await this.currentRevision();
    let low = Math.max(1, this.knownCompacted);
    if (await this.readableAt(low)) return this.knownCompacted;
    let high = current; // always readable
    while (high - low > 1) {
      const mid = Math.floor((low + high) / 2);
      if (await this.readableAt(mid)) high = mid;
      else low = mid;
    }
    this.knownCompacted = Math.max(this.knownCompacted, high);
    return high;
  }

  async ping(timeoutMs = this.options.pingTimeoutMs ?? 2000): Promise<boolean> {
    if (this.closed) return false;
    try {
      await this.kv.range({ key: this.keys.probeKey(), count_only: true }, timeoutMs);
      this.pingFailure = undefined;
      return true;
    } catch (err) {
      this.pingFailure = this.unreachable(err, timeoutMs);
      return false;
    }
  }

  lastPingFailure(): string | undefined {
    return this.pingFailure;
  }

  /** A failed call as one sentence naming the endpoints (the transport's connection errors name theirs). */
  private unreachable(err: unknown, timeoutMs: number): string {
    const servers = this.options.endpoints.join(',');
    if (err instanceof GrpcTimeoutError) return `etcd at ${servers} did not answer within ${timeoutMs} ms`;
    if (err instanceof GrpcStatusError) return `etcd at ${servers} answered: ${err.details || err.message}`;
    return err instanceof Error ? err.message : String(err);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const w of [...this.watches]) w.cancel();
    this.progressSupport?.stop();
    for (const c of this.statusClients) c.close();
    this.grpc.close();
    this.client.close();
  }

  /** One member's version, on a connection of its own (the shared one goes to whichever member it reached). */
  private async versionAt(endpoint: string): Promise<string> {
    const grpc = new GrpcClient([endpoint], undefined, undefined, connectionOptions(this.options.tls));
    this.statusClients.add(grpc);
    try {
      return await memberVersion(grpc, STATUS_TIMEOUT_MS);
    } finally {
      this.statusClients.delete(grpc);
      grpc.close();
    }
  }

  /** A put attached to a lease, for a write with a TTL (a put without one detaches the key from its lease). */
  private async leasedPut(key: Buffer, value: Buffer, ttlSeconds: number): Promise<RequestOp> {
    // The lease grant goes through the etcd3 client: its deadline cancels the call at etcd, the timer bounds the rest.
    const lease = await this.call(() => raceTimeout(this.leases.leaseFor(ttlSeconds), this.timeoutMs, () => {
      throw new StorageTimeoutError(this.timeoutMs, `etcd did not answer within ${this.timeoutMs / 1000}s`);
    }));
    return { request_put: { key, value, lease } };
  }

  private casCompare(key: Buffer, expected: number): Compare[] {
    // Mod == expected alone would match an absent key when expected is 0.
    return [
      { key, target: 'Mod', result: 'Equal', mod_revision: expected },
      { key, target: 'Create', result: 'Greater', create_revision: 0 },
    ];
  }

  private casFailed(key: string, res: TxnResponse): never {
    if (res.rangeKvs.length === 0) throw new KeyNotFoundError(key);
    throw new RevisionMismatchError(key, this.keys.toKeyValue(res.rangeKvs[0]));
  }

  private txn(compare: Compare[], success: RequestOp, key: Buffer): Promise<TxnResponse> {
    return this.call(() => this.kv.txn({ compare, success: [success], failure: [{ request_range: { key } }] }));
  }

  /**
   * Runs an etcd call, mapping etcd's revision errors and transport failures
   * to port errors. EtcdKv bounds every call by the request timeout (sent as
   * the gRPC deadline, and a local timer).
   */
  private async call<T>(fn: () => Promise<T>, revision = 0): Promise<T> {
    if (this.closed) throw new StorageError('etcd storage is closed');
    const timeoutMs = this.timeoutMs;
    try {
      return await fn();
    } catch (err) {
      if (isCompactedMessage(err)) throw new CompactedError(revision, await this.compactedRevisionOr(revision + 1));
      if (isFutureRevisionMessage(err)) throw new FutureRevisionError(revision, await this.currentRevision().catch(() => 0));
      throw toStorageError(err, timeoutMs);
    }
  }

  private get timeoutMs(): number {
    return this.options.requestTimeoutMs ?? 10_000;
  }

  private async compactedRevisionOr(fallback: number): Promise<number> {
    return this.compactedRevision().catch(() => Math.max(fallback, this.knownCompacted));
  }

  private async readableAt(revision: number): Promise<boolean> {
    try {
      await this.kv.range({ key: this.keys.probeKey(), count_only: true, revision });
      return true;
    } catch (err) {
      if (isCompactedMessage(err)) return false;
      throw toStorageError(err, this.timeoutMs);
    }
  }

  private deadline(): { deadline: number } {
    return { deadline: Date.now() + this.timeoutMs };
  }
}

export function openEtcdStorage(options: EtcdStorageOptions): EtcdStorage {
  return new EtcdStorage(options);
}
