/**
 * The etcd-style key-value contract that every storage adapter keeps.
 *
 * Revisions are one strictly increasing counter across all keys; every write
 * gets a new one. An object's resourceVersion is the modRevision of its key.
 * Only adapters do arithmetic on revisions; everything above treats them as
 * opaque increasing numbers.
 */

export interface KeyValue {
  key: string;
  value: Buffer;
  /** Revision of the write that created this key (since its last deletion). */
  createRevision: number;
  /** Revision of the last write to this key: the object's resourceVersion. */
  modRevision: number;
}

export interface RangeOptions {
  /** Read the snapshot at this revision; 0 or absent reads the latest. */
  revision?: number;
  /** At most this many keys; 0 or absent means no limit. */
  limit?: number;
  /** First key to return (inclusive); must lie under the prefix. */
  startKey?: string;
}

export interface RangeResult {
  items: KeyValue[];
  /** True when keys under the prefix remain after the last returned one. */
  more: boolean;
  /** Keys under the prefix from startKey on, at the read revision (including the returned ones). */
  count: number;
  /** The revision the snapshot was read at (the store's current one when none was asked). */
  revision: number;
}

export type WatchEventType = 'put' | 'delete';

/**
 * One change. It carries no previous value: the watch cache holds every
 * object's current state itself, and on etcd asking for the previous value
 * (prev_kv) would send every updated value twice.
 */
export interface StorageEvent {
  type: WatchEventType;
  key: string;
  /** New value for put; absent for delete. */
  value?: Buffer;
  /** Revision of this change (for delete: the deletion revision). */
  modRevision: number;
}

export interface WatchCallbacks {
  /** Events in revision order, each delivered exactly once. */
  onEvents(events: StorageEvent[]): void;
  /**
   * Progress: every change up to this revision has been delivered. Adapters
   * call it when idle so that consumers know how fresh they are.
   */
  onProgress?(revision: number): void;
  /** The watch ended for good (e.g. CompactedError); no more events follow. */
  onError(error: Error): void;
}

export interface WatchHandle {
  cancel(): void;
  /**
   * Optional: report onProgress soon if this watch has delivered everything
   * (consistent reads from the watch cache wait for it). Adapters offer it
   * only where it cannot overtake a pending event.
   */
  requestProgress?(): void;
}

/** Options of a write that stores a value. */
export interface PutOptions {
  /**
   * The key expires (is deleted, with a delete event) about this many seconds
   * after the write, as etcd's leases do. A later write without it makes the
   * key permanent again. Adapters may round up (etcd has a minimum lease TTL)
   * and may expire a key a little late, never early.
   */
  ttlSeconds?: number;
}

export interface StoragePort {
  /**
   * Optional: set when currentRevision, get, range at the latest revision, and create, update and delete without a
   * TTL each fail with StorageTimeoutError by themselves within this many ms (etcd's calls carry deadlines of their
   * own; a range at an older revision may take further reads to say why etcd refused it).
   */
  readonly callTimeoutMs?: number;
  /** The store's current revision (a consistent, quorum read for etcd). */
  currentRevision(): Promise<number>;
  get(key: string): Promise<KeyValue | undefined>;
  range(prefix: string, options?: RangeOptions): Promise<RangeResult>;
  /** Creates the key if absent; KeyExistsError otherwise. Returns the new revision. */
  create(key: string, value: Buffer, options?: PutOptions): Promise<number>;
  /**
   * Replaces the value if the key's modRevision equals expectedModRevision.
   * KeyNotFoundError if absent; RevisionMismatchError (carrying the current value) otherwise.
   */
  update(key: string, value: Buffer, expectedModRevision: number, options?: PutOptions): Promise<number>;
  /** Deletes if modRevision matches, like update. Returns the deletion revision. */
  delete(key: string, expectedModRevision: number): Promise<number>;
  /** Delivers every change under prefix with revision > fromRevision, in order. */
  watch(prefix: string, fromRevision: number, callbacks: WatchCallbacks): WatchHandle;
  /** Drops history before revision; reads and watches before it fail with CompactedError. */
  compact(revision: number): Promise<void>;
  /** The oldest revision still readable (0 when nothing was compacted). */
  compactedRevision(): Promise<number>;
  /** Cheap liveness probe for livez/readyz: false when storage does not answer within timeoutMs. */
  ping(timeoutMs?: number): Promise<boolean>;
  /** Why the last ping failed, as one sentence naming the endpoint (for /readyz); undefined after a ping that passed. */
  lastPingFailure?(): string | undefined;
  close(): Promise<void>;
}

export class StorageError extends Error {}

export class KeyExistsError extends StorageError {
  constructor(readonly key: string) {
    super(`key exists: ${key}`);
  }
}

export class KeyNotFoundError extends StorageError {
  constructor(readonly key: string) {
    super(`key not found: ${key}`);
  }
}

export class RevisionMismatchError extends StorageError {
  constructor(
    readonly key: string,
    readonly current: KeyValue | undefined,
  ) {
    super(`revision mismatch on ${key}`);
  }
}

export class CompactedError extends StorageError {
  constructor(
    readonly requestedRevision: number,
    readonly compactedRevision: number,
  ) {
    super(`required revision ${requestedRevision} has been compacted (compacted at ${compactedRevision})`);
  }
}

export class FutureRevisionError extends StorageError {
  constructor(
    readonly requestedRevision: number,
    readonly currentRevision: number,
  ) {
    super(`required revision ${requestedRevision} is a future revision (current ${currentRevision})`);
  }
}

/** Storage cannot be reached or cannot serve now; the message says so without transport details. */
export class UnavailableError extends StorageError {}

/** Storage did not answer within the call's deadline: a write may or may not have taken effect. */
export class StorageTimeoutError extends StorageError {
  constructor(
    readonly timeoutMs: number,
    message = `storage did not answer within ${timeoutMs / 1000}s`,
  ) {
    super(message);
  }
}

/** Storage refused a value (or a request) as too large. */
export class ValueTooLargeError extends StorageError {
  constructor(
    message: string,
    readonly limitBytes?: number,
  ) {
    super(message);
  }
}

/** Storage is overloaded and asks callers to come back shortly. */
export class StorageBusyError extends StorageError {}
