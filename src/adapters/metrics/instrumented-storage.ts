/** A StoragePort decorator that times every call into etcd_request_duration_seconds. */
import type { StoragePort } from '../../ports/storage.port';
import type { ApiMetrics } from './metrics';

/** `/group/plural/...` or `/plural/...` → the resource part, as upstream's `type` label. */
export function typeOf(key: string): string {
  // The first two segments by index (this runs on every storage call); a key with empty segments the slow way.
  if (key.includes('//')) {
    const parts = key.split('/').filter(Boolean);
    return parts.length > 1 && parts[0].includes('.') ? `${parts[1]}.${parts[0]}` : (parts[0] ?? '');
  }
  const start = key.startsWith('/') ? 1 : 0;
  const firstEnd = key.indexOf('/', start);
  const first = key.slice(start, firstEnd < 0 ? key.length : firstEnd);
  if (firstEnd < 0 || !first.includes('.')) return first;
  const secondEnd = key.indexOf('/', firstEnd + 1);
  const second = key.slice(firstEnd + 1, secondEnd < 0 ? key.length : secondEnd);
  return second ? `${second}.${first}` : first;
}

export function instrumentStorage(storage: StoragePort, metrics: ApiMetrics): StoragePort {
  const series = new Map<string, ReturnType<ApiMetrics['etcdDuration']['bind']>>();
  const time = <T>(operation: string, key: string, fn: () => Promise<T>): Promise<T> => {
    const type = typeOf(key);
    const id = `${operation} ${type}`;
    let s = series.get(id);
    if (!s) series.set(id, (s = metrics.etcdDuration.bind({ operation, type })));
    const bound = s;
    const started = performance.now();
    const observe = () => bound.observe((performance.now() - started) / 1000);
    let pending: Promise<T>;
    try {
      pending = fn();
    } catch (err) {
      observe();
      return Promise.reject(err);
    }
    return pending.then(
      (value) => {
        observe();
        return value;
      },
      (err: unknown) => {
        observe();
        throw err;
      },
    );
  };
  return {
    currentRevision: () => time('getCurrentResourceVersion', '', () => storage.currentRevision()),
    get: (key) => time('get', key, () => storage.get(key)),
    range: (prefix, options) => time('listWithCount', prefix, () => storage.range(prefix, options)),
    create: (key, value, options) => time('create', key, () => storage.create(key, value, options)),
    update: (key, value, rev, options) => time('update', key, () => storage.update(key, value, rev, options)),
    delete: (key, rev) => time('delete', key, () => storage.delete(key, rev)),
    watch: (prefix, from, callbacks) => storage.watch(prefix, from, callbacks),
    compact: (rev) => time('compact', '', () => storage.compact(rev)),
    compactedRevision: () => storage.compactedRevision(),
    ping: (timeoutMs?: number) => storage.ping(timeoutMs),
    close: () => storage.close(),
  };
}
