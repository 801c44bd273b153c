/**
 * Every storage call gets a deadline (--request-timeout): a storage that
 * hangs (a frozen etcd, a stalled disk) turns into StorageTimeoutError, and
 * so a 504, instead of a request that waits as long as the transport does.
 * Watches are long-running and have no deadline; ping has its own.
 */
import { StorageTimeoutError, type StoragePort } from '../ports/storage.port';

const graceMs = 100;

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
  return {
    currentRevision: () => bounded(() => storage.currentRevision()),
    get: (key) => bounded(() => storage.get(key)),
    range: (prefix, options) => bounded(() => storage.range(prefix, options)),
    create: (key, value, options) => bounded(() => storage.create(key, value, options)),
    update: (key, value, rev, options) => bounded(() => storage.update(key, value, rev, options)),
    delete: (key, rev) => bounded(() => storage.delete(key, rev)),
    watch: (prefix, from, callbacks) => storage.watch(prefix, from, callbacks),
    compact: (rev) => bounded(() => storage.compact(rev)),
    compactedRevision: () => bounded(() => storage.compactedRevision()),
    ping: (ms) => storage.ping(ms),
    close: () => storage.close(),
  };
}
