/** GET and LIST served by the watch cache, on both backends. */
import { encodeForStorage } from '../../src/registry/codec';
import { namespaceOfKey, resourcePrefix } from '../../src/registry/keys';
import { cachedNamespaces } from '../../src/composition/controller-views';
import { backends, call, CacheServer, cm, startCacheServer } from './harness';

const ns = 'lists';
const base = `/api/v1/namespaces/${ns}/configmaps`;

describe.each(backends)('list and get from the watch cache (%s)', (backend) => {
  let s: CacheServer;
  const revs: number[] = [];
  beforeAll(async () => {
    s = await startCacheServer(backend, { gates: { ShardedListAndWatch: true }, watchCache: { freshnessTimeoutMs: 1000 } });
    for (const name of ['a', 'b', 'c', 'd', 'e']) {
      const r = await call(s.url, 'POST', base, cm(name, {}, { tier: name < 'c' ? 'front' : 'back' }));
      expect(r.status).toBe(201);
      revs.push(Number(r.json.metadata.resourceVersion));
    }
  });
  afterAll(() => s.close());

  test('pages share the first page RV; remainingItemCount counts down; continue goes on from storage', async () => {
    const p1 = await call(s.url, 'GET', `${base}?limit=2`);
    expect(p1.status).toBe(200);
    expect(p1.json.items.map((i: any) => i.metadata.name)).toEqual(['a', 'b']);
    expect(p1.json.metadata.remainingItemCount).toBe(3);
    const rv = p1.json.metadata.resourceVersion;
    expect(Number(rv)).toBeGreaterThanOrEqual(revs[4]);
    // Created after page 1 and sorting after the cursor: must not show up.
    await call(s.url, 'POST', base, cm('zz'));
    const p2 = await call(s.url, 'GET', `${base}?limit=2&continue=${encodeURIComponent(p1.json.metadata.continue)}`);
    expect(p2.json.items.map((i: any) => i.metadata.name)).toEqual(['c', 'd']);
    expect(p2.json.metadata.resourceVersion).toBe(rv);
    expect(p2.json.metadata.remainingItemCount).toBe(1);
    const p3 = await call(s.url, 'GET', `${base}?limit=2&continue=${encodeURIComponent(p2.json.metadata.continue)}`);
    expect(p3.json.items.map((i: any) => i.metadata.name)).toEqual(['e']);
    expect(p3.json.metadata.resourceVersion).toBe(rv);
    expect(p3.json.metadata.continue).toBeUndefined();
    expect(p3.json.metadata.remainingItemCount).toBeUndefined();
    await call(s.url, 'DELETE', `${base}/zz`);
    // A consistent list waits for the cache to apply the delete, so the RV=0 list below cannot see zz.
    expect((await call(s.url, 'GET', base)).json.items.map((i: any) => i.metadata.name)).not.toContain('zz');
  });

  test('resourceVersion=0 ignores limit', async () => {
    const r = await call(s.url, 'GET', `${base}?limit=1&resourceVersion=0`);
    expect(r.json.items.map((i: any) => i.metadata.name)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(r.json.metadata.continue).toBeUndefined();
  });

  test('label selector filters; remainingItemCount is omitted with a selector', async () => {
    const r = await call(s.url, 'GET', `${base}?labelSelector=tier%3Dback&limit=2`);
    expect(r.json.items.map((i: any) => i.metadata.name)).toEqual(['c', 'd']);
    expect(r.json.metadata.continue).toBeDefined();
    expect(r.json.metadata.remainingItemCount).toBeUndefined();
    const bad = await call(s.url, 'GET', `${base}?labelSelector=a%3D%3D%3Db`);
    expect(bad.status).toBe(400);
    const field = await call(s.url, 'GET', `${base}?fieldSelector=metadata.name%3Db`);
    expect(field.json.items.map((i: any) => i.metadata.name)).toEqual(['b']);
  });

  test('a resourceVersion newer than storage waits (3 s by default, 1 s here), then 504 ResourceVersionTooLarge with Retry-After', async () => {
    const future = revs[4] + 100_000;
    const started = Date.now();
    const r = await call(s.url, 'GET', `${base}?resourceVersion=${future}&resourceVersionMatch=NotOlderThan`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(r.status).toBe(504);
    expect(r.headers.get('retry-after')).toBe('1');
    expect(r.json).toMatchObject({
      kind: 'Status',
      reason: 'Timeout',
      code: 504,
      details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
    });
    expect(r.json.message).toMatch(new RegExp(`^Timeout: Too large resource version: ${future}, current: \\d+$`));
    const get = await call(s.url, 'GET', `${base}/a?resourceVersion=${future}`);
    expect(get.status).toBe(504);
  });

  test('get at resourceVersion 0 and N comes from the cache', async () => {
    const zero = await call(s.url, 'GET', `${base}/a?resourceVersion=0`);
    expect(zero.json.metadata).toMatchObject({ name: 'a', resourceVersion: String(revs[0]) });
    const n = await call(s.url, 'GET', `${base}/c?resourceVersion=${revs[4]}`);
    expect(n.json.metadata.resourceVersion).toBe(String(revs[2]));
    const missing = await call(s.url, 'GET', `${base}/nope?resourceVersion=0`);
    expect(missing.status).toBe(404);
  });

  test('Exact and legacy limit+N read storage at that revision', async () => {
    const exact = await call(s.url, 'GET', `${base}?resourceVersion=${revs[1]}&resourceVersionMatch=Exact`);
    expect(exact.json.items.map((i: any) => i.metadata.name)).toEqual(['a', 'b']);
    expect(exact.json.metadata.resourceVersion).toBe(String(revs[1]));
    const legacy = await call(s.url, 'GET', `${base}?resourceVersion=${revs[2]}&limit=10`);
    expect(legacy.json.items.map((i: any) => i.metadata.name)).toEqual(['a', 'b', 'c']);
    // Sent as bytes (the stored JSON with its resourceVersion written in), the same text as the decoded list encodes:
    // the same members in the same order, item by item.
    const pretty = await fetch(`${s.url}${base}?resourceVersion=${revs[4]}&resourceVersionMatch=Exact&pretty=true`).then((r) => r.text());
    const bytes = await fetch(`${s.url}${base}?resourceVersion=${revs[4]}&resourceVersionMatch=Exact`).then((r) => r.text());
    // kind before apiVersion in both, as Go encodes a list's TypeMeta.
    expect(bytes).toBe(JSON.stringify(JSON.parse(pretty)));
    expect(JSON.parse(bytes).items.map((i: any) => i.metadata.resourceVersion)).toEqual(revs.map(String));
    const invalid = await call(s.url, 'GET', `${base}?resourceVersionMatch=Exact`);
    expect(invalid.status).toBe(422);
    expect(invalid.json.details).toMatchObject({ kind: 'ListOptions', group: 'meta.k8s.io' });
  });

  test('a consistent list sees a write that bypassed this server (another replica)', async () => {
    const key = `/configmaps/${ns}/direct`;
    const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'direct', namespace: ns, uid: 'u-direct', creationTimestamp: '2024-01-01T00:00:00Z' } };
    const rev = await s.storage.create(key, encodeForStorage({}, obj));
    const r = await call(s.url, 'GET', base);
    expect(r.json.items.map((i: any) => i.metadata.name)).toContain('direct');
    expect(Number(r.json.metadata.resourceVersion)).toBeGreaterThanOrEqual(rev);
    await s.storage.delete(key, rev);
  });

  test('shardSelector: complementary ranges partition the list; malformed is 400', async () => {
    const sel = (a: string, b: string) => encodeURIComponent(`shardRange(object.metadata.uid, '${a}', '${b}')`);
    const low = await call(s.url, 'GET', `${base}?shardSelector=${sel('0x0', '0x8000000000000000')}`);
    const high = await call(s.url, 'GET', `${base}?shardSelector=${sel('0x8000000000000000', '0x10000000000000000')}`);
    expect(low.status).toBe(200);
    const names = [...low.json.items, ...high.json.items].map((i: any) => i.metadata.name).sort();
    expect(names).toEqual(['a', 'b', 'c', 'd', 'e']);
    const fromStorage = await call(s.url, 'GET', `${base}?shardSelector=${sel('0x0', '0x8000000000000000')}&resourceVersion=${revs[4]}&resourceVersionMatch=Exact`);
    expect(fromStorage.json.items.map((i: any) => i.metadata.name)).toEqual(low.json.items.map((i: any) => i.metadata.name));
    const bad = await call(s.url, 'GET', `${base}?shardSelector=${encodeURIComponent('shardRange(object.metadata.name, 1, 2)')}`);
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/^invalid shardSelector: /);
  });

  test('metadata.name across namespaces finds the object in each namespace only', async () => {
    await call(s.url, 'POST', '/api/v1/namespaces/other/configmaps', cm('b'));
    await call(s.url, 'POST', '/api/v1/namespaces/other/configmaps', cm('bb'));
    const r = await call(s.url, 'GET', '/api/v1/configmaps?fieldSelector=metadata.name%3Db&resourceVersion=0');
    expect(r.json.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`).sort()).toEqual(['lists/b', 'other/b']);
  });

  test('the namespaces in use come from the cached keys', async () => {
    await call(s.url, 'POST', '/api/v1/namespaces/ns-in-use/configmaps', cm('x'));
    const def = s.registry.definitions.find((d) => d.plural === 'configmaps' && !d.group)!;
    await call(s.url, 'GET', '/api/v1/configmaps');
    const used = await cachedNamespaces(s.cache)(def);
    expect(used).toContain('lists');
    expect(used).toContain('ns-in-use');
    const stored = (await s.storage.range(resourcePrefix(def), {})).items.map((kv) => namespaceOfKey(resourcePrefix(def), kv.key));
    expect(used).toEqual(new Set(stored));
  });

  test('a large list streams as valid JSON', async () => {
    const big = 'x'.repeat(1024);
    await Promise.all(Array.from({ length: 200 }, (_, i) => call(s.url, 'POST', '/api/v1/namespaces/big/configmaps', cm(`cm-${i}`, { data: { big } }))));
    const r = await call(s.url, 'GET', '/api/v1/namespaces/big/configmaps');
    expect(r.status).toBe(200);
    expect(r.json.items).toHaveLength(200);
    expect(r.json.items[0].data.big).toBe(big);
    const all = await call(s.url, 'GET', '/api/v1/configmaps?resourceVersion=0');
    expect(all.json.items.length).toBeGreaterThanOrEqual(205);
  });
});

describe('shardSelector without the gate', () => {
  test('is ignored', async () => {
    const s = await startCacheServer('lmdb');
    try {
      await call(s.url, 'POST', base, cm('only'));
      const r = await call(s.url, 'GET', `${base}?shardSelector=garbage`);
      expect(r.status).toBe(200);
      expect(r.json.items).toHaveLength(1);
    } finally {
      await s.close();
    }
  });
});
