/** A StoragePort decorator that times every call into etcd_request_duration_seconds. */
import type { StoragePort } from '../../ports/storage.port';
import type { ApiMetrics } from './metrics';

/** `/group/plural/...` or `/plural/...` → the resource part, as upstream's `type` label. */
export function typeOf(key: string): string {
  // Only the first two non-empty segments are read (this runs on every storage call): no split of the whole key.
  const first = segmentAt(key, 0);
  if (!first.text.includes('.')) return first.text;
  const second = segmentAt(key, first.end).text;
  return second ? `${second}.${first.text}` : first.text;
}

/** The first non-empty `/`-separated segment at or after `from`, and where it ends. */
function segmentAt(key: string, from: number): { text: string; end: number } {
  let start = from;
  while (key.charCodeAt(start) === 0x2f) start++;
  const slash = key.indexOf('/', start);
  const end = slash < 0 ? key.length : slash;
  return { text: key.slice(start, end), end };
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
    callTimeoutMs: storage.callTimeoutMs,
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
