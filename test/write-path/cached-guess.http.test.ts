/**
 * An update's first attempt starts from the watch cache's copy of the object
 * (as upstream's GuaranteedUpdate takes the cacher's), so a current cache
 * saves the read from storage. A stale copy must change nothing a client
 * sees: every outcome short of a successful write (a pinned resourceVersion
 * that differs, a failing JSON patch test, no change at all) is decided again
 * from storage. The cache is held stale by pausing the storage watch that
 * feeds it while another writer changes the object underneath.
 */
import type { StorageEvent, StoragePort, WatchCallbacks } from '../../src/ports/storage.port';
import { configMapDefinition } from '../../src/resources/config-map';
import { objectKey } from '../../src/registry/keys';
import { openStorage } from '../support/test-server';
import { backends, call, startCacheServer, until, type Backend, type CacheServer } from '../watch/harness';

/** The storage, with its watches pausable (events and progress held back, then delivered in order) and its reads counted. */
function pausable(inner: StoragePort) {
  let paused = false;
  const held: Array<() => void> = [];
  let deleteBeforeUpdate: string | undefined;
  const reads = new Map<string, number>();
  const storage = new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === 'get') {
        return (key: string) => {
          reads.set(key, (reads.get(key) ?? 0) + 1);
          return target.get(key);
        };
      }
      if (prop === 'update') {
        // Another writer deletes the key between the update's read and its write.
        return async (key: string, ...rest: [Buffer, number]) => {
          if (key === deleteBeforeUpdate) {
            deleteBeforeUpdate = undefined;
            await target.delete(key, rest[1]);
          }
          return target.update(key, ...rest);
        };
      }
      if (prop === 'watch') {
        return (prefix: string, from: number, cb: WatchCallbacks) =>
          target.watch(prefix, from, {
            onEvents: (events: StorageEvent[]) => (paused ? held.push(() => cb.onEvents(events)) : cb.onEvents(events)),
            onProgress: cb.onProgress && ((rev: number) => (paused ? held.push(() => cb.onProgress!(rev)) : cb.onProgress!(rev))),
            onError: (e: Error) => cb.onError(e),
          });
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    storage,
    reads: (key: string) => reads.get(key) ?? 0,
    pause: () => (paused = true),
    deleteBeforeUpdate: (key: string) => (deleteBeforeUpdate = key),
    resume: () => {
      paused = false;
      for (const deliver of held.splice(0)) deliver();
    },
  };
}

describe.each(backends)('an update starts from the watch cache on %s', (backend: Backend) => {
  let opened: ReturnType<typeof openStorage>;
  let p: ReturnType<typeof pausable>;
  let s: CacheServer;
  const ns = 'guess';
  const path = (name: string) => `/api/v1/namespaces/${ns}/configmaps/${name}`;
  const key = (name: string) => objectKey(configMapDefinition, ns, name);
  const mergePatch = { 'content-type': 'application/merge-patch+json' };
  const jsonPatch = { 'content-type': 'application/json-patch+json' };

  beforeAll(async () => {
    opened = openStorage(backend);
    p = pausable(opened.storage);
    s = await startCacheServer(backend, { storage: p.storage });
  });
  afterAll(async () => {
    p.resume();
    await s.close();
    await opened.storage.close();
    opened.cleanup();
  });

  /** A ConfigMap the cache holds at the revision of its creation. */
  async function created(name: string, data: Record<string, string>): Promise<string> {
    const res = await call(s.url, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });
    expect(res.status).toBe(201);
    const rv = res.json.metadata.resourceVersion as string;
    await until('the cache to hold it', () => String(s.cache.kind(configMapDefinition).get(key(name))?.rev) === rv);
    return rv;
  }

  /** Another writer changes the object in storage while the cache does not hear of it. */
  async function changedBehindTheCache(name: string, rv: string, data: Record<string, string>): Promise<string> {
    p.pause();
    const kv = (await opened.storage.get(key(name)))!;
    const obj = JSON.parse(kv.value.toString());
    obj.data = data;
    return String(await opened.storage.update(key(name), Buffer.from(JSON.stringify(obj)), Number(rv)));
  }

  afterEach(() => p.resume());

  test('a current cache: the update reads nothing from storage', async () => {
    const rv = await created('current', { v: '1' });
    const before = p.reads(key('current'));
    const res = await call(s.url, 'PUT', path('current'), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'current', resourceVersion: rv }, data: { v: '2' } });
    expect(res.status).toBe(200);
    expect(p.reads(key('current'))).toBe(before);
  });

  test('a pinned resourceVersion newer than the cache: written, not refused as a conflict', async () => {
    const rv = await created('pinned', { v: '1' });
    const rv2 = await changedBehindTheCache('pinned', rv, { v: '2' });
    const res = await call(s.url, 'PUT', path('pinned'), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pinned', resourceVersion: rv2 }, data: { v: '3' } });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({ v: '3' });
    expect(Number(res.json.metadata.resourceVersion)).toBeGreaterThan(Number(rv2));
  });

  test('a pinned resourceVersion that is stale in storage too: still a conflict', async () => {
    const rv = await created('stale', { v: '1' });
    await changedBehindTheCache('stale', rv, { v: '2' });
    const res = await call(s.url, 'PUT', path('stale'), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'stale', resourceVersion: rv }, data: { v: '3' } });
    expect(res.status).toBe(409);
    expect(res.json.reason).toBe('Conflict');
    expect((await opened.storage.get(key('stale')))!.value.toString()).toContain('"v":"2"');
  });

  test('deleted between the read and the write of a pinned update: not found, as upstream answers', async () => {
    p.pause(); // the cache does not hold it: the update reads storage
    const res = await call(s.url, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'vanishing' }, data: { v: '1' } });
    expect(res.status).toBe(201);
    expect(s.cache.kind(configMapDefinition).get(key('vanishing'))).toBeUndefined();
    p.deleteBeforeUpdate(key('vanishing'));
    const rv = res.json.metadata.resourceVersion;
    const put = await call(s.url, 'PUT', path('vanishing'), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'vanishing', resourceVersion: rv }, data: { v: '2' } });
    expect(put.status).toBe(404);
    expect(put.json.reason).toBe('NotFound');
  });

  test('a merge patch over a stale cache keeps the other writer\'s change', async () => {
    const rv = await created('merged', { v: '1' });
    await changedBehindTheCache('merged', rv, { v: '2', other: 'kept' });
    const res = await call(s.url, 'PATCH', path('merged'), { data: { mine: 'added' } }, mergePatch);
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({ v: '2', other: 'kept', mine: 'added' });
  });

  test('a JSON patch whose test holds in storage but not in the cache: applied', async () => {
    const rv = await created('tested', { v: '1' });
    await changedBehindTheCache('tested', rv, { v: '2' });
    const ops = [
      { op: 'test', path: '/data/v', value: '2' },
      { op: 'replace', path: '/data/v', value: '3' },
    ];
    const res = await call(s.url, 'PATCH', path('tested'), ops, jsonPatch);
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({ v: '3' });
  });

  test('no change from the cache\'s copy is a change from storage\'s: written', async () => {
    const rv = await created('unchanged', { v: '1' });
    const rv2 = await changedBehindTheCache('unchanged', rv, { v: '2' });
    const res = await call(s.url, 'PUT', path('unchanged'), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'unchanged' }, data: { v: '1' } });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({ v: '1' });
    expect(Number(res.json.metadata.resourceVersion)).toBeGreaterThan(Number(rv2));
    expect((await opened.storage.get(key('unchanged')))!.value.toString()).toContain('"v":"1"');
  });
});
