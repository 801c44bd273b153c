/**
 * Key prefixing, record mapping and error mapping between etcd's wire types
 * and the storage port. Revisions are int64 on the wire; they stay below
 * 2^53 in practice, so plain numbers are safe.
 */
import { GRPCDeadlineExceededError, isRecoverableError } from 'etcd3';
import type { EtcdKeyValue } from './etcd-kv';
import type { WatchEvent } from './response-decoding';
import { GrpcConnectionError, GrpcStatusError, GrpcTimeoutError } from './grpc-client';
import {
  StorageBusyError,
  StorageError,
  StorageTimeoutError,
  UnavailableError,
  ValueTooLargeError,
  type KeyValue,
  type StorageEvent,
} from '../../ports/storage.port';

export class KeySpace {
  private readonly prefixBytes: number;

  constructor(readonly prefix: string) {
    this.prefixBytes = Buffer.byteLength(prefix);
  }

  /** etcd key of a port key. */
  full(key: string): Buffer {
    return Buffer.from(this.prefix + key);
  }

  /** A key read only for its response header (revision, reachability). */
  probeKey(): Buffer {
    return Buffer.from(`${this.prefix}/`);
  }

  /** Port key of an etcd key (the prefix removed). */
  strip(key: Buffer): string {
    return key.subarray(this.prefixBytes).toString();
  }

  /** [start, end) covering every etcd key under the port prefix, from startKey on. */
  range(prefix: string, startKey?: string): { key: Buffer; rangeEnd: Buffer } {
    const from = startKey && startKey > prefix ? startKey : prefix;
    return { key: this.full(from), rangeEnd: prefixEnd(this.full(prefix)) };
  }

  toKeyValue(kv: EtcdKeyValue): KeyValue {
    return { key: this.strip(kv.key), value: kv.value, createRevision: kv.create_revision, modRevision: kv.mod_revision };
  }

  /** A Watch response's event (protobuf: type 0 is a put, 1 a delete). */
  toEvent(ev: WatchEvent): StorageEvent {
    const kv = ev.kv;
    const event: StorageEvent = { type: ev.type === 1 ? 'delete' : 'put', key: this.strip(kv.key), modRevision: kv.mod_revision };
    if (event.type === 'put') event.value = kv.value;
    return event;
  }
}

/** Smallest key greater than every key starting with prefix (etcd's prefix range end). */
export function prefixEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i] < 0xff) {
      end[i]++;
      return end.subarray(0, i + 1);
    }
  }
  return Buffer.from([0]); // all 0xff: every key from prefix on
}

export function isCompactedMessage(err: unknown): boolean {
  return err instanceof Error && err.message.includes('required revision has been compacted');
}

export function isFutureRevisionMessage(err: unknown): boolean {
  return err instanceof Error && err.message.includes('required revision is a future revision');
}

/** etcd's default --max-request-bytes (1.5 MiB): the largest write it accepts. */
export const etcdMaxRequestBytes = 1.5 * 1024 * 1024;

/**
 * etcd and gRPC failures as port errors whose messages a client may read (no
 * gRPC strings; the original stays as `cause` for logs). Anything not
 * recognised passes through.
 */
export function toStorageError(err: unknown, timeoutMs = 0): unknown {
  if (err instanceof StorageError || !(err instanceof Error)) return err;
  const message = err.message;
  let mapped: StorageError | undefined;
  if (err instanceof GRPCDeadlineExceededError || err instanceof GrpcTimeoutError || /DEADLINE_EXCEEDED|Deadline exceeded/.test(message)) {
    mapped = new StorageTimeoutError(timeoutMs, timeoutMs ? `etcd did not answer within ${timeoutMs / 1000}s` : 'etcd did not answer in time');
  } else if (message.includes('etcdserver: request timed out')) {
    mapped = new StorageTimeoutError(timeoutMs, 'etcd did not commit the request in time (etcdserver: request timed out)');
  } else if (message.includes('etcdserver: request is too large') || message.includes('larger than max')) {
    mapped = new ValueTooLargeError(`the request is larger than etcd accepts (its --max-request-bytes, ${etcdMaxRequestBytes} bytes by default)`);
  } else if (message.includes('etcdserver: too many requests')) {
    mapped = new StorageBusyError('etcd is overloaded (too many requests); try again shortly');
  } else if (message.includes('database space exceeded')) {
    mapped = new UnavailableError('etcd is out of space (NOSPACE alarm): it refuses writes until it is compacted, defragmented and the alarm is disarmed');
  } else if (/etcdserver: (no leader|leader changed|not capable|unhealthy cluster)|timed out due to leader failure/.test(message)) {
    mapped = new UnavailableError('etcd has no leader right now; try again shortly');
  } else if (
    err instanceof GrpcConnectionError ||
    (err instanceof GrpcStatusError && err.code === 14) ||
    err.name === 'BrokenCircuitError' ||
    err.constructor?.name === 'BrokenCircuitError' ||
    isRecoverableError(err)
  ) {
    mapped = new UnavailableError('etcd is unavailable: none of the --etcd-servers answers; try again shortly');
  }
  if (!mapped) return err;
  (mapped as { cause?: unknown }).cause = err;
  return mapped;
}
