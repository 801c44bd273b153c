/**
 * The contract on a dedicated etcd started by this file: compaction in etcd is
 * cluster-wide, so running these tests on the shared globalSetup etcd would
 * break other suites' reads and watches at old revisions.
 */
import { openEtcdStorage, type EtcdStorage } from '../../src/adapters/etcd';
import { startEtcd, testEtcdEndpoints, type EtcdInstance } from '../support/etcd-harness';
import { WatchRecorder, buf, freshPrefix, sleep, until } from './contract-helpers';
import { describeStorageContract } from './storage.contract';

let etcd: EtcdInstance;

beforeAll(async () => {
  etcd = await startEtcd();
}, 30_000);
afterAll(async () => {
  await etcd?.cleanup();
});

describeStorageContract('etcd', async () => {
  const storage = openEtcdStorage({ endpoints: [etcd.endpoint] });
  return { storage, cleanup: () => storage.close() };
});

describe('etcd adapter', () => {
  it('reaches the etcd from globalSetup (TEST_ETCD_ENDPOINTS)', async () => {
    const storage = openEtcdStorage({ endpoints: testEtcdEndpoints() });
    try {
      expect(await storage.ping()).toBe(true);
    } finally {
      await storage.close();
    }
  });

  it('stores keys under the prefix and strips it on the way out', async () => {
    const p = freshPrefix();
    const storage = openEtcdStorage({ endpoints: [etcd.endpoint], prefix: '/custom' });
    const plain = openEtcdStorage({ endpoints: [etcd.endpoint], prefix: '' });
    try {
      await storage.create(`${p}a`, buf('x'));
      expect((await storage.range(p)).items.map((i) => i.key)).toEqual([`${p}a`]);
      expect((await plain.get(`/custom${p}a`))?.value).toEqual(buf('x'));
    } finally {
      await Promise.all([storage.close(), plain.close()]);
    }
  });

  it('keeps a watch gap-free and duplicate-free across an etcd restart', async () => {
    const p = freshPrefix();
    const storage: EtcdStorage = openEtcdStorage({ endpoints: [etcd.endpoint] });
    const w = new WatchRecorder();
    const handle = storage.watch(p, await storage.currentRevision(), w.callbacks);
    try {
      const revs: number[] = [];
      for (let i = 0; i < 5; i++) revs.push(await storage.create(`${p}before${i}`, buf(`b${i}`)));
      await w.waitForEvents(5);

      await etcd.stop();
      const started = Date.now();
      expect(await storage.ping()).toBe(false);
      expect(Date.now() - started).toBeLessThan(4000);
      await sleep(300); // let the watch notice and start retrying
      await etcd.restart();
      await until('etcd to answer after the restart', () => storage.ping(), { timeoutMs: 15_000, intervalMs: 100 });

      // Written as soon as etcd answers, typically before the watch has reconnected.
      for (let i = 0; i < 5; i++) revs.push(await storage.create(`${p}after${i}`, buf(`a${i}`)));
      await w.waitForEvents(10, 15_000);
      // Nothing delivered twice after the reconnect: a barrier the watch must deliver next, with only revs before it.
      const sentinel = await storage.create(`${p}sentinel`, buf('s'));
      expect((await w.through(sentinel)).map((e) => e.modRevision)).toEqual([...revs, sentinel]);
      expect(w.errors).toEqual([]);
    } finally {
      handle.cancel();
      await storage.close();
    }
  }, 30_000);
});
