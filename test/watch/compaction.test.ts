/** Slab compaction under live data: lists, gets and watches from the history read the same after it, on both backends. */
import { KindSlabs } from '../../src/registry/watch-cache/compaction';
import type { KindCache } from '../../src/registry/watch-cache/kind-cache';
import { backends, call, CacheServer, cm, startCacheServer, WatchClient } from './harness';

const ns = 'compact';
const base = `/api/v1/namespaces/${ns}/configmaps`;

/** n ConfigMaps created out of key order (their bytes land scattered), every other one labelled pick=yes. */
async function createScattered(url: string, namespace: string, n: number): Promise<void> {
  const names = Array.from({ length: n }, (_, i) => (i * 7919) % n);
  for (let i = 0; i < n; i += 50) {
    await Promise.all(
      names.slice(i, i + 50).map(async (k) => {
        const body = cm(`cm-${String(k).padStart(5, '0')}`, {}, k % 2 ? undefined : { pick: 'yes' });
        expect((await call(url, 'POST', `/api/v1/namespaces/${namespace}/configmaps`, body)).status).toBe(201);
      }),
    );
  }
  // A consistent list (the cache has taken them all in), by a selector that picks them all but that, being a
  // selector, leaves the layout alone.
  expect((await call(url, 'GET', `/api/v1/namespaces/${namespace}/configmaps?fieldSelector=metadata.namespace%3D${namespace}`)).json.items).toHaveLength(n);
}

/** True when the cache holds the namespace's ConfigMaps in many small pieces (a list would copy them one by one). */
function scatteredIn(kind: KindCache, namespace: string): boolean {
  // A match other than matchAll: looking must not count as a list that copies them.
  const { items } = kind.list(`${kind.prefix}${namespace}/`, () => true);
  return new KindSlabs(() => 0, 0).scattered(items, 0, items.length);
}

/**
 * A namespace of n ConfigMaps that the cache holds scattered. The cache takes them in from its watch in arrival
 * order; should it relist meanwhile (a busy etcd), they come back in key order, already compacted, so try afresh.
 */
async function scatteredNamespace(url: string, kind: KindCache, name: string, n: number): Promise<string> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const namespace = `${name}-${attempt}`;
    await createScattered(url, namespace, n);
    if (scatteredIn(kind, namespace)) return namespace;
  }
  throw new Error(`the cache never held ${name} scattered`);
}

const nextTurn = () => new Promise((r) => setImmediate(r));

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
  test('lists that keep copying a scattered run get it compacted before the interval is up', async () => {
    let now = 1_000_000;
    const t = await startCacheServer(backend, { watchCache: { now: () => now } });
    try {
      const def = t.registry.definitions.find((d) => d.plural === 'configmaps' && !d.group)!;
      const kind = t.cache.kind(def);
      await createScattered(t.url, 'early', 1200);
      kind.compact(); // as a controller's pass would: the next one is not due for 30 s
      const late = await scatteredNamespace(t.url, kind, 'late', 1200);
      const compact = jest.spyOn(kind, 'compact');
      const path = `/api/v1/namespaces/${late}/configmaps?resourceVersion=0`;
      const before = (await call(t.url, 'GET', path)).json.items;
      // Each list copies about a fifth of what the kind and its history hold: a few lists pay for a compaction,
      // once a second has passed since the last one.
      for (let i = 0; i < 10; i++) await call(t.url, 'GET', path);
      await nextTurn();
      expect(compact).not.toHaveBeenCalled();
      now += 1000;
      await call(t.url, 'GET', path);
      await nextTurn();
      expect(compact).toHaveBeenCalledTimes(1);
      expect((await call(t.url, 'GET', path)).json.items).toEqual(before);
    } finally {
      await t.close();
    }
  });

  test('a list by selector does not compact: what a selector picks stays apart whatever the layout', async () => {
    const t = await startCacheServer(backend, { watchCache: { compactionIntervalMs: 0 } });
    try {
      const def = t.registry.definitions.find((d) => d.plural === 'configmaps' && !d.group)!;
      const kind = t.cache.kind(def);
      const picked = await scatteredNamespace(t.url, kind, 'picked', 1200);
      const compact = jest.spyOn(kind, 'compact');
      const chosen = await call(t.url, 'GET', `/api/v1/namespaces/${picked}/configmaps?resourceVersion=0&labelSelector=pick%3Dyes`);
      expect(chosen.json.items).toHaveLength(600);
      await nextTurn();
      expect(compact).not.toHaveBeenCalled();
      expect(scatteredIn(kind, picked)).toBe(true);
      // The whole namespace, scattered, is compacted.
      await call(t.url, 'GET', `/api/v1/namespaces/${picked}/configmaps?resourceVersion=0`);
      await nextTurn();
      expect(compact).toHaveBeenCalledTimes(1);
    } finally {
      await t.close();
    }
  });
});
