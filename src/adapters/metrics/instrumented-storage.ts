/** A StoragePort decorator that times every call into etcd_request_duration_seconds. */
import type { StoragePort } from '../../ports/storage.port';
import type { ApiMetrics } from './metrics';

/** `/group/plural/...` or `/plural/...` → the resource part, as upstream's `type` label. */
function typeOf(key: string): string {
  const parts = key.split('/').filter(Boolean);
  return parts.length > 1 && parts[0].includes('.') ? `${parts[1]}.${parts[0]}` : (parts[0] ?? '');
}

export function instrumentStorage(storage: StoragePort, metrics: ApiMetrics): StoragePort {
  const series = new Map<string, ReturnType<ApiMetrics['etcdDuration']['bind']>>();
  const time = async <T>(operation: string, key: string, fn: () => Promise<T>): Promise<T> => {
    const type = typeOf(key);
    const id = `${operation} ${type}`;
    let s = series.get(id);
    if (!s) series.set(id, (s = metrics.etcdDuration.bind({ operation, type })));
    const started = performance.now();
    try {
      return await fn();
    } finally {
      s.observe((performance.now() - started) / 1000);
    }
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
