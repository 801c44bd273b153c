/**
 * Replicas on one etcd: each cache is fed by its own storage watches, so it
 * sees every replica's writes. And while etcd is down, reads that need no
 * freshness are still served from memory; readyz says etcd is gone; after a
 * restart the cache catches up and watches continue.
 */
import { randomBytes } from 'node:crypto';
import { EtcdStorage } from '../../src/adapters/etcd';
import { startEtcd, type EtcdInstance } from '../support/etcd-harness';
import { etcdEndpoints } from '../support/test-server';
import { call, CacheServer, cm, sleep, startCacheServer, until, WatchClient } from './harness';

const base = '/api/v1/namespaces/replicas/configmaps';

describe('two replicas on one etcd', () => {
  let a: CacheServer;
  let b: CacheServer;
  const stores: EtcdStorage[] = [];
  beforeAll(async () => {
    const prefix = `/replicas-${randomBytes(6).toString('hex')}`;
    for (let i = 0; i < 2; i++) stores.push(new EtcdStorage({ endpoints: etcdEndpoints(), prefix }));
    a = await startCacheServer('etcd', { storage: stores[0] });
    b = await startCacheServer('etcd', { storage: stores[1] });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    for (const s of stores) await s.close();
  });

  test("each replica's reads and watches see the other's writes", async () => {
    const x = (await call(a.url, 'POST', base, cm('x'))).json;
    const list = await call(b.url, 'GET', base);
    expect(list.json.items.map((i: any) => i.metadata.name)).toEqual(['x']);
    const got = await call(b.url, 'GET', `${base}/x?resourceVersion=${x.metadata.resourceVersion}`);
    expect(got.json).toEqual(x);

    const w = await WatchClient.open(b.url, `${base}?watch=1&resourceVersion=${list.json.metadata.resourceVersion}`);
    const x2 = (await call(a.url, 'PUT', `${base}/x`, { ...x, data: { v: '2' } })).json;
    const y = (await call(b.url, 'POST', base, cm('y'))).json;
    const events = await w.waitFor(2);
    expect(events).toEqual([
      { type: 'MODIFIED', object: x2 },
      { type: 'ADDED', object: y },
    ]);
    const fromA = await call(a.url, 'GET', base);
    expect(fromA.json.items.map((i: any) => i.metadata.name)).toEqual(['x', 'y']);
    w.close();
  });
});

describe('etcd unavailable', () => {
  let etcd: EtcdInstance;
  let storage: EtcdStorage;
  let s: CacheServer;
  beforeAll(async () => {
    etcd = await startEtcd();
    storage = new EtcdStorage({ endpoints: [etcd.endpoint], pingTimeoutMs: 500 });
    s = await startCacheServer('etcd', { storage });
  }, 30_000);
  afterAll(async () => {
    await s?.close();
    await storage?.close();
    await etcd?.cleanup();
  });

  test('cached reads keep working, readyz fails, and the cache catches up after a restart', async () => {
    await call(s.url, 'POST', base, cm('before'));
    const w = await WatchClient.open(s.url, `${base}?watch=1&resourceVersion=0`);
    await w.waitFor(1);

    await etcd.stop();
    const listed = await call(s.url, 'GET', `${base}?resourceVersion=0`);
    expect(listed.status).toBe(200);
    expect(listed.json.items.map((i: any) => i.metadata.name)).toEqual(['before']);
    expect((await call(s.url, 'GET', `${base}/before?resourceVersion=0`)).status).toBe(200);
    const fresh = await WatchClient.open(s.url, `${base}?watch=1&resourceVersion=0`);
    expect((await fresh.waitFor(1))[0].object.metadata.name).toBe('before');
    const ready = await call(s.url, 'GET', '/readyz?verbose');
    expect(ready.status).toBe(500);
    expect(ready.text).toContain('[-]etcd failed');
    expect(ready.text).toContain('[+]watch-cache ok');

    await etcd.restart();
    await until('readyz', async () => (await call(s.url, 'GET', '/readyz')).status === 200, { timeoutMs: 20_000 });
    const after = (await call(s.url, 'POST', base, cm('after'))).json;
    await until('the watch to see the write after the restart', () => w.events.length >= 2, { timeoutMs: 20_000 });
    expect(w.events[1]).toEqual({ type: 'ADDED', object: after });
    expect((await fresh.waitFor(2))[1].object.metadata.name).toBe('after');
    const consistent = await call(s.url, 'GET', base);
    expect(consistent.json.items.map((i: any) => i.metadata.name)).toEqual(['after', 'before']);
    w.close();
    fresh.close();
    await sleep(10);
  }, 60_000);
});
