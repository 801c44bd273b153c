/**
 * Every storage call gets a deadline (--request-timeout): a storage that
 * hangs (a frozen etcd, a stalled disk) turns into StorageTimeoutError, and
 * so a 504, instead of a request that waits as long as the transport does.
 * Watches are long-running and have no deadline; ping has its own. Calls
 * that a storage bounds by itself (StoragePort.callTimeoutMs) are left to it.
 */
import { StorageTimeoutError, type PutOptions, type StoragePort } from '../ports/storage.port';

const graceMs = 100;

/** A call as it is, a synchronous throw turned into a rejection (as `bounded` does). */
function passThrough<T>(call: () => Promise<T>): Promise<T> {
  try {
    return call();
  } catch (err) {
    return Promise.reject(err);
  }
}

export function withDeadlines(storage: StoragePort, timeoutMs: number): StoragePort {
  // One promise and one timer per call; an answer after the deadline is dropped (a promise settles once).
  const bounded = <T>(call: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      // A little grace: an adapter with deadlines of its own (etcd's cancel the call at etcd) answers first.
      const timer = setTimeout(() => reject(new StorageTimeoutError(timeoutMs)), timeoutMs + graceMs);
      let inner: Promise<T>;
      try {
        inner = call();
      } catch (err) {
        clearTimeout(timer);
        throw err;
      }
      inner.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (err: unknown) => {
          clearTimeout(timer);
          reject(err);
        },
      );
    });
  // Calls the storage bounds by itself in time need no timer of their own (one per call, on every request's path).
  const own = storage.callTimeoutMs !== undefined && storage.callTimeoutMs <= timeoutMs;
  const single = own ? passThrough : bounded;
  // A write with a TTL is two calls to etcd (a lease, then the write): bounded as a whole.
  const write = (options: PutOptions | undefined) => (options?.ttlSeconds ? bounded : single);
  return {
    callTimeoutMs: timeoutMs + graceMs,
    currentRevision: () => single(() => storage.currentRevision()),
    get: (key) => single(() => storage.get(key)),
    // A read at a revision that etcd refuses (compacted, or in the future) is followed by more reads to say why.
    range: (prefix, options) => (options?.revision ? bounded : single)(() => storage.range(prefix, options)),
    create: (key, value, options) => write(options)(() => storage.create(key, value, options)),
    update: (key, value, rev, options) => write(options)(() => storage.update(key, value, rev, options)),
    delete: (key, rev) => single(() => storage.delete(key, rev)),
    watch: (prefix, from, callbacks) => storage.watch(prefix, from, callbacks),
    compact: (rev) => bounded(() => storage.compact(rev)),
    compactedRevision: () => bounded(() => storage.compactedRevision()),
    ping: (ms) => storage.ping(ms),
    close: () => storage.close(),
  };
}
