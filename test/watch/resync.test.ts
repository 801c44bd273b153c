/**
 * The cache losing its storage watch to compaction: it relists, and turns
 * what it missed into events, so a connected watcher sees every change once;
 * watches that would resume inside the rebuilt range get 410.
 */
import { FlakyStorage, startFlakyCacheServer } from './flaky-storage';
import { backends, call, CacheServer, cm, until, WatchClient } from './harness';

const base = '/api/v1/namespaces/resync/configmaps';
const rv = (o: any) => Number(o.metadata.resourceVersion);

describe.each(backends)('watch cache resynchronisation (%s)', (backend) => {
  let s: CacheServer;
  let flaky: FlakyStorage;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ server: s, flaky, close } = await startFlakyCacheServer(backend));
  });
  afterAll(() => close());

  test('missed changes arrive as events exactly once; resuming inside the rebuilt range is 410', async () => {
    const a = (await call(s.url, 'POST', base, cm('a'))).json;
    await call(s.url, 'POST', base, cm('b'));
    const c = (await call(s.url, 'POST', base, cm('c'))).json;
    const list = await call(s.url, 'GET', base);
    const w = await WatchClient.open(s.url, `${base}?watch=1&resourceVersion=${list.json.metadata.resourceVersion}`);

    flaky.dropping = true;
    const a2 = (await call(s.url, 'PUT', `${base}/a`, { ...a, data: { v: '2' } })).json;
    expect(rv(a2)).toBeGreaterThan(rv(c));
    expect((await call(s.url, 'DELETE', `${base}/b`)).status).toBe(200);
    const d = (await call(s.url, 'POST', base, cm('d'))).json;
    // A watch from a revision the cache has not seen yet waits for it...
    const early = await WatchClient.open(s.url, `${base}?watch=1&resourceVersion=${rv(a2)}`);
    expect(await call(s.url, 'GET', `${base}/a?resourceVersion=0`).then((r) => r.json.data)).toEqual({ v: '1' }); // stale but served

    flaky.compactWatches();
    const events = await w.waitFor(3);
    expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['MODIFIED a', 'ADDED d', 'DELETED b']);
    expect(events[0].object).toEqual(a2);
    expect(events[1].object).toEqual(d);
    const deletedRv = rv(events[2].object);
    expect(deletedRv).toBeGreaterThanOrEqual(rv(d));

    // ...and is told to relist, since the history it would resume in was rebuilt.
    await early.waitEnd();
    expect(early.events.map((e) => e.type)).toEqual(['ERROR']);
    expect(early.events[0].object).toMatchObject({ code: 410, reason: 'Expired' });
    const inside = await WatchClient.open(s.url, `${base}?watch=1&resourceVersion=${rv(a2)}`);
    await inside.waitEnd();
    expect(inside.events[0].object).toMatchObject({ code: 410, reason: 'Expired' });

    // Live again: later changes flow, nothing was delivered twice.
    await until('the cache to be ready', () => s.cache.ready());
    await call(s.url, 'PUT', `${base}/c`, { ...c, data: { v: '3' } });
    await w.waitFor(4);
    expect(w.summary().map((l) => l.split(' ').slice(0, 2).join(' '))).toEqual(['MODIFIED a', 'ADDED d', 'DELETED b', 'MODIFIED c']);
    const after = await WatchClient.open(s.url, `${base}?watch=1&resourceVersion=${deletedRv}`);
    await call(s.url, 'POST', base, cm('e'));
    expect((await after.waitFor(2)).map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['MODIFIED c', 'ADDED e']);
    w.close();
    after.close();
  });
});
