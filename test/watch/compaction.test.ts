/** Slab compaction under live data: lists, gets and watches from the history read the same after it, on both backends. */
import { backends, call, CacheServer, cm, startCacheServer, WatchClient } from './harness';

const ns = 'compact';
const base = `/api/v1/namespaces/${ns}/configmaps`;

describe.each(backends)('watch cache compaction (%s)', (backend) => {
  let s: CacheServer;
  beforeAll(async () => {
    s = await startCacheServer(backend);
  });
  afterAll(() => s.close());

  test('moves bytes only: the same list, gets and history events after it', async () => {
    // Created in an order other than key order, so that their bytes are scattered.
    const names = Array.from({ length: 40 }, (_, i) => `cm-${String((i * 17) % 40).padStart(2, '0')}`);
    for (const name of names) expect((await call(s.url, 'POST', base, cm(name, { data: { v: name } }))).status).toBe(201);
    const before = await call(s.url, 'GET', base);
    const rv = before.json.metadata.resourceVersion;
    for (const name of names.slice(0, 10)) await call(s.url, 'PUT', `${base}/${name}`, { ...cm(name, { data: { v: `${name}-2` } }) });
    for (const name of names.slice(10, 13)) await call(s.url, 'DELETE', `${base}/${name}`);
    const listed = await call(s.url, 'GET', base);
    const def = s.registry.definitions.find((d) => d.plural === 'configmaps' && !d.group)!;

    s.cache.kind(def).compact();

    expect((await call(s.url, 'GET', `${base}?resourceVersion=0`)).text).toBe(listed.text);
    expect((await call(s.url, 'GET', `${base}/${names[0]}?resourceVersion=0`)).json.data.v).toBe(`${names[0]}-2`);
    const watch = await WatchClient.open(s.url, `${base}?watch=1&resourceVersion=${rv}`);
    const events = await watch.waitFor(13);
    watch.close();
    expect(events.slice(0, 10).map((e) => `${e.type} ${e.object.data.v}`)).toEqual(names.slice(0, 10).map((n) => `MODIFIED ${n}-2`));
    expect(events.slice(10).map((e) => `${e.type} ${e.object.data.v}`)).toEqual(names.slice(10, 13).map((n) => `DELETED ${n}`));
  });
});
