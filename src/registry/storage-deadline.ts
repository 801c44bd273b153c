/**
 * Every storage call gets a deadline (--request-timeout): a storage that
 * hangs (a frozen etcd, a stalled disk) turns into StorageTimeoutError, and
 * so a 504, instead of a request that waits as long as the transport does.
 * Watches are long-running and have no deadline; ping has its own.
 */
import { StorageTimeoutError, type StoragePort } from '../ports/storage.port';

const graceMs = 100;

export function withDeadlines(storage: StoragePort, timeoutMs: number): StoragePort {
  const bounded = <T>(call: () => Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const inner = call();
    inner.catch(() => undefined); // an answer after the deadline is dropped
    const deadline = new Promise<never>((_, reject) => {
      // A little grace: an adapter with deadlines of its own (etcd's cancel the call at etcd) answers first.
      timer = setTimeout(() => reject(new StorageTimeoutError(timeoutMs)), timeoutMs + graceMs);
    });
    return Promise.race([inner, deadline]).finally(() => clearTimeout(timer));
  };
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
