/**
 * One etcd transaction writing several objects of a kind gives them one
 * revision; the watch cache must apply every one of them (it used to keep
 * only the first, so lists and watches missed the others).
 */
import { randomBytes } from 'node:crypto';
import { Etcd3 } from 'etcd3';
import { EtcdStorage } from '../../src/adapters/etcd';
import { etcdEndpoints } from '../support/test-server';
import { call, CacheServer, startCacheServer, WatchClient } from './harness';

const base = '/api/v1/namespaces/txn/configmaps';

describe('several keys changed at one etcd revision', () => {
  const prefix = `/multi-${randomBytes(6).toString('hex')}`;
  let storage: EtcdStorage;
  let s: CacheServer;
  let etcd: Etcd3;
  beforeAll(async () => {
    storage = new EtcdStorage({ endpoints: etcdEndpoints(), prefix });
    s = await startCacheServer('etcd', { storage });
    etcd = new Etcd3({ hosts: etcdEndpoints() });
  });
  afterAll(async () => {
    await s.close();
    await storage.close();
    etcd.close();
  });

  test('all of them reach the cached list and the watchers', async () => {
    const start = (await call(s.url, 'GET', base)).json.metadata.resourceVersion;
    const w = await WatchClient.open(s.url, `${base}?watch=1&resourceVersion=${start}`);
    const value = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'txn', uid: `uid-${name}`, creationTimestamp: '2026-01-01T00:00:00Z' } });
    const names = ['a', 'b', 'c'];
    await etcd
      .if(`${prefix}/none`, 'Create', '==', 0)
      .then(...names.map((n) => etcd.put(`${prefix}/configmaps/txn/${n}`).value(value(n))))
      .commit();
    const events = await w.waitFor(3);
    expect(events.map((e) => [e.type, e.object.metadata.name])).toEqual(names.map((n) => ['ADDED', n]));
    expect(new Set(events.map((e) => e.object.metadata.resourceVersion)).size).toBe(1);
    const list = await call(s.url, 'GET', `${base}?resourceVersion=0`);
    expect(list.json.items.map((i: any) => i.metadata.name)).toEqual(names);
    w.close();
  });
});
