/** Watch over HTTP from the watch cache, on both backends. */
import { backends, call, CacheServer, cm, startCacheServer, until, WatchClient } from './harness';

const rv = (o: any) => Number(o.metadata.resourceVersion);

describe.each(backends)('watch (%s)', (backend) => {
  let s: CacheServer;
  let n = 0;
  /** A fresh namespace per test, so tests never see each other's objects. */
  const space = () => `w${++n}`;
  const path = (ns: string) => `/api/v1/namespaces/${ns}/configmaps`;

  beforeAll(async () => {
    s = await startCacheServer(backend, { watchStream: { bookmarkIntervalMs: 300 } });
  });
  afterAll(() => s.close());

  test('headers come before any event; create, update, delete arrive in order with their RVs', async () => {
    const ns = space();
    const list = await call(s.url, 'GET', path(ns));
    const w = await WatchClient.open(s.url, `${path(ns)}?watch=true&resourceVersion=${list.json.metadata.resourceVersion}`);
    expect(w.status).toBe(200);
    expect(w.res.headers['content-type']).toBe('application/json');
    expect(w.res.headers['transfer-encoding']).toBe('chunked');
    const created = (await call(s.url, 'POST', path(ns), cm('a'))).json;
    const updated = (await call(s.url, 'PUT', `${path(ns)}/a`, { ...created, data: { v: '2' } })).json;
    const deleted = await call(s.url, 'DELETE', `${path(ns)}/a`);
    expect(deleted.status).toBe(200);
    const events = await w.waitFor(3);
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    expect(events[0].object).toEqual(created);
    expect(events[1].object).toEqual(updated);
    expect(events[2].object.data).toEqual({ v: '2' });
    expect(rv(events[2].object)).toBeGreaterThan(rv(updated));
    w.close();
  });

  test('without resourceVersion: the current objects first as ADDED, then changes', async () => {
    const ns = space();
    await call(s.url, 'POST', path(ns), cm('x'));
    await call(s.url, 'POST', path(ns), cm('y'));
    const w = await WatchClient.open(s.url, `${path(ns)}?watch=1`);
    await w.waitFor(2);
    await call(s.url, 'POST', path(ns), cm('z'));
    expect((await w.waitFor(3)).map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED x', 'ADDED y', 'ADDED z']);
    w.close();
  });

  test('label selector transitions: ADDED when it starts matching, DELETED with the old labels when it stops', async () => {
    const ns = space();
    const w = await WatchClient.open(s.url, `${path(ns)}?watch=true&resourceVersion=0&labelSelector=app%3Dweb`);
    const created = (await call(s.url, 'POST', path(ns), cm('l', {}, { app: 'db' }))).json;
    const on = (await call(s.url, 'PUT', `${path(ns)}/l`, { ...created, metadata: { ...created.metadata, labels: { app: 'web' } } })).json;
    const still = (await call(s.url, 'PUT', `${path(ns)}/l`, { ...on, data: { v: '3' } })).json;
    const off = (await call(s.url, 'PUT', `${path(ns)}/l`, { ...still, metadata: { ...still.metadata, labels: { app: 'db' } } })).json;
    const events = await w.waitFor(3);
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    expect(rv(events[0].object)).toBe(rv(on));
    expect(events[2].object.metadata.labels).toEqual({ app: 'web' });
    expect(rv(events[2].object)).toBe(rv(off));
    w.close();
  });

  test('sendInitialEvents: state, then the svc.io/initial-events-end bookmark, then changes; 422 without NotOlderThan', async () => {
    const ns = space();
    await call(s.url, 'POST', path(ns), cm('i1'));
    await call(s.url, 'POST', path(ns), cm('i2'));
    const w = await WatchClient.open(s.url, `${path(ns)}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
    const first = await w.waitFor(3);
    expect(first.map((e) => e.type)).toEqual(['ADDED', 'ADDED', 'BOOKMARK']);
    expect(first[2].object).toEqual({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { resourceVersion: first[2].object.metadata.resourceVersion, annotations: { 'svc.io/initial-events-end': 'true' } },
    });
    expect(rv(first[2].object)).toBeGreaterThanOrEqual(rv(first[1].object));
    await call(s.url, 'POST', path(ns), cm('i3'));
    await until('i3', () => w.events.some((e) => e.type === 'ADDED' && e.object.metadata.name === 'i3'));
    w.close();
    const bad = await call(s.url, 'GET', `${path(ns)}?watch=1&sendInitialEvents=true`);
    expect(bad.status).toBe(422);
    expect(bad.json.message).toContain('sendInitialEvents requires setting resourceVersionMatch to NotOlderThan');
  });

  test('timeoutSeconds ends the stream cleanly, with a bookmark before the end', async () => {
    const ns = space();
    const list = await call(s.url, 'GET', path(ns));
    const started = Date.now();
    const w = await WatchClient.open(s.url, `${path(ns)}?watch=1&resourceVersion=${list.json.metadata.resourceVersion}&timeoutSeconds=1&allowWatchBookmarks=true`);
    await w.waitEnd(4000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(w.events.length).toBeGreaterThan(0);
    expect(w.events.every((e) => e.type === 'BOOKMARK')).toBe(true);
    const b = w.events[0].object;
    expect(Object.keys(b)).toEqual(['kind', 'apiVersion', 'metadata']);
    expect(Object.keys(b.metadata)).toEqual(['resourceVersion']);
    expect(rv(b)).toBeGreaterThanOrEqual(Number(list.json.metadata.resourceVersion));
  });

  test('a resourceVersion older than the window gets ERROR 410 in the stream, then EOF', async () => {
    const small = await startCacheServer(backend, { watchCache: { historyMaxEvents: 3 } });
    try {
      const ns = 'old';
      const first = (await call(small.url, 'POST', path(ns), cm('o0'))).json;
      for (let i = 1; i < 8; i++) await call(small.url, 'POST', path(ns), cm(`o${i}`));
      await until('the window to move', () => small.cache.kind(small.registry.definitions.find((d) => d.plural === 'configmaps')!).log.startRev > rv(first));
      const w = await WatchClient.open(small.url, `${path(ns)}?watch=1&resourceVersion=${rv(first)}`);
      expect(w.status).toBe(200);
      await w.waitEnd();
      expect(w.events).toHaveLength(1);
      expect(w.events[0].type).toBe('ERROR');
      expect(w.events[0].object).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410 });
      expect(w.events[0].object.message).toMatch(new RegExp(`^too old resource version: ${rv(first)} \\(\\d+\\)$`));
    } finally {
      await small.close();
    }
  });

  test('Accept: application/yaml is 406; Table watches send columnDefinitions only first', async () => {
    const ns = space();
    const yaml = await call(s.url, 'GET', `${path(ns)}?watch=1`, undefined, { accept: 'application/yaml' });
    expect(yaml.status).toBe(406);
    await call(s.url, 'POST', path(ns), cm('t1'));
    const w = await WatchClient.open(s.url, `${path(ns)}?watch=1`, { accept: 'application/json;as=Table;g=meta.k8s.io;v=v1' });
    await w.waitFor(1);
    await call(s.url, 'POST', path(ns), cm('t2'));
    const [a, b] = await w.waitFor(2);
    expect(a.object.kind).toBe('Table');
    expect(a.object.columnDefinitions.length).toBeGreaterThan(0);
    expect(a.object.rows[0].cells[0]).toBe('t1');
    expect(b.object.columnDefinitions).toBeUndefined();
    expect(b.object.rows[0].cells[0]).toBe('t2');
    expect(b.object.metadata.resourceVersion).toBeDefined();
    w.close();
  });

  test('the deprecated /watch/ paths, for a collection and a single object', async () => {
    const ns = space();
    const p1 = (await call(s.url, 'POST', path(ns), cm('p1'))).json;
    const p2 = (await call(s.url, 'POST', path(ns), cm('p2'))).json;
    const all = await WatchClient.open(s.url, `/api/v1/watch/namespaces/${ns}/configmaps`);
    const one = await WatchClient.open(s.url, `/api/v1/watch/namespaces/${ns}/configmaps/p2`);
    await all.waitFor(2);
    expect((await one.waitFor(1))[0].object.metadata.name).toBe('p2');
    // A change to p1, which the single-object watch must not show, then a barrier it must: a change to p2. Events come
    // in revision order, so anything of p1's it showed would come before the barrier.
    expect((await call(s.url, 'PUT', `${path(ns)}/p1`, { ...p1, data: { v: '2' } })).status).toBe(200);
    const barrier = await call(s.url, 'PUT', `${path(ns)}/p2`, { ...p2, data: { v: '2' } });
    expect(barrier.status).toBe(200);
    const seen = await one.through(barrier.json.metadata.resourceVersion);
    expect(seen.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED p2', 'MODIFIED p2']);
    all.close();
    one.close();
  });

  test('a client disconnect frees its watcher at once', async () => {
    const def = s.registry.definitions.find((d) => d.plural === 'configmaps')!;
    await until('earlier tests to let go of their watches', () => s.watch.activeCount === 0);
    const before = s.cache.kind(def).watcherCount;
    const w = await WatchClient.open(s.url, `${path(space())}?watch=1&resourceVersion=0`);
    await until('the watcher', () => s.cache.kind(def).watcherCount === before + 1);
    w.close();
    await until('the watcher to go', () => s.cache.kind(def).watcherCount === before, { timeoutMs: 2000 });
  });

  test('periodic bookmarks carry a resourceVersion a watch can resume from', async () => {
    const ns = space();
    const w = await WatchClient.open(s.url, `${path(ns)}?watch=1&resourceVersion=0&allowWatchBookmarks=true`);
    await until('a bookmark', () => w.events.some((e) => e.type === 'BOOKMARK'), { timeoutMs: 3000 });
    const created = (await call(s.url, 'POST', path(ns), cm('after-bookmark'))).json;
    await until('a later bookmark', () => w.events.filter((e) => e.type === 'BOOKMARK').some((e) => rv(e.object) >= rv(created)), { timeoutMs: 3000 });
    w.close();
  });
});

describe('slow watchers', () => {
  test('a watcher whose socket does not drain is closed instead of buffering', async () => {
    const s = await startCacheServer('lmdb', { watchCache: { maxWatcherLagEvents: 20 }, watchStream: { stallTimeoutMs: 500 } });
    try {
      const def = s.registry.definitions.find((d) => d.plural === 'configmaps')!;
      const w = await WatchClient.open(s.url, '/api/v1/namespaces/slow/configmaps?watch=1&resourceVersion=0');
      w.res.pause(); // stop reading: the kernel buffers fill, then the server sees backpressure
      const big = 'y'.repeat(400_000);
      for (let i = 0; i < 40 && !w.ended; i++) await call(s.url, 'POST', '/api/v1/namespaces/slow/configmaps', cm(`big-${i}`, { data: { big } }));
      await until('the slow watcher to be dropped', () => s.cache.kind(def).watcherCount === 0, { timeoutMs: 5000 });
      // The HTTP stream ends right after the cache lets go of its watcher (a moment later under load).
      await until('the slow watch stream to end', () => s.watch.activeCount === 0, { timeoutMs: 5000 });
      w.close();
    } finally {
      await s.close();
    }
  });
});
