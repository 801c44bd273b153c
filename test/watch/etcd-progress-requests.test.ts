/**
 * Progress on demand: a consistent read of a kind that has not changed while
 * another kind did needs the cache to learn that nothing of its kind happened
 * in between. Where etcd's answers to progress requests are sound, the watch
 * asks for one and the read is served from memory at once; elsewhere it waits
 * for etcd's periodic notification. This etcd sends those only every 10
 * minutes, so anything arriving here came on request.
 */
import { EtcdStorage } from '../../src/adapters/etcd';
import { memberVersion } from '../../src/adapters/etcd/etcd-kv';
import { GrpcClient } from '../../src/adapters/etcd/grpc-client';
import { progressRequestsSound } from '../../src/adapters/etcd/progress-support';
import type { StoragePort } from '../../src/ports/storage.port';
import { startEtcd, type EtcdInstance } from '../support/etcd-harness';
import { call, CacheServer, cm, startCacheServer, until } from './harness';

let etcd: EtcdInstance;
beforeAll(async () => {
  etcd = await startEtcd({ progressNotifyInterval: '10m' });
}, 30_000);
afterAll(async () => {
  await etcd?.cleanup();
});

test("a watch's progress request is answered with the store's revision, past writes to other keys", async () => {
  // Forced on: the etcd this suite runs may be one whose answers are not trusted by default (the race they have
  // needs events in flight; here there are none).
  const storage = new EtcdStorage({ endpoints: [etcd.endpoint], prefix: '/progress-watch', progressRequests: true });
  try {
    const start = await storage.currentRevision();
    const seen: number[] = [];
    const handle = storage.watch('/quiet/', start, { onEvents: () => undefined, onProgress: (r) => seen.push(r), onError: () => undefined });
    const written = await storage.create('/busy/a', Buffer.from('{}'));
    const answered = () => {
      if (seen.some((r) => r >= written)) return true;
      handle.requestProgress?.();
      return false;
    };
    await until('progress at or past the write', answered, { timeoutMs: 5000, intervalMs: 100, onTimeout: () => `seen ${seen.join(', ')}` });
    handle.cancel();
    expect(Math.max(...seen)).toBeGreaterThanOrEqual(written);
  } finally {
    await storage.close();
  }
});

test('by default, progress is requested only when every member reports a version that answers soundly', async () => {
  const storage = new EtcdStorage({ endpoints: [etcd.endpoint], prefix: '/progress-auto' });
  try {
    const res = await fetch(`${etcd.endpoint}/version`);
    const version = ((await res.json()) as { etcdserver: string }).etcdserver;
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    // The version the check reads (Maintenance Status) is the one etcd reports over HTTP.
    const grpc = new GrpcClient([etcd.endpoint]);
    try {
      await expect(memberVersion(grpc, 5000)).resolves.toBe(version);
    } finally {
      grpc.close();
    }
    await expect(storage.progressSupport!.settled).resolves.toBe(progressRequestsSound(version));
    expect(storage.progressSupport!.supported).toBe(progressRequestsSound(version));
  } finally {
    await storage.close();
  }
});

describe('a consistent LIST of a quiet kind after another kind changed', () => {
  let storage: EtcdStorage;
  let s: CacheServer;
  let ranges = 0;
  beforeAll(async () => {
    storage = new EtcdStorage({ endpoints: [etcd.endpoint], prefix: '/progress-list', progressRequests: true });
    // Counts the reads that a list served from etcd (the fallback after the freshness timeout) makes.
    const counting: StoragePort = Object.create(storage);
    counting.range = (prefix, options) => {
      ranges++;
      return storage.range(prefix, options);
    };
    s = await startCacheServer('etcd', { storage: counting, watchCache: { freshnessTimeoutMs: 3000 } });
  }, 30_000);
  afterAll(async () => {
    await s?.close();
    await storage?.close();
  });

  test('is served from the cache, not from etcd after the wait', async () => {
    const base = '/api/v1/namespaces/progress/configmaps';
    expect((await call(s.url, 'POST', base, cm('quiet'))).status).toBe(201);
    // The cache holds 'quiet' before the other kind is written. The etcd this suite runs (3.4.23) may answer a progress
    // request ahead of an event still queued for the watcher (fixed in 3.4.25 and 3.5.8; why the server does not ask
    // such an etcd by default): then the list missed 'quiet', about once in 20 runs. A GET at resourceVersion=0 never
    // waits, so it asks for no progress.
    await until('the cache to have the created ConfigMap', async () => (await call(s.url, 'GET', `${base}/quiet?resourceVersion=0`)).status === 200, { timeoutMs: 5000, intervalMs: 10 });
    const other = await call(s.url, 'POST', '/api/v1/namespaces/progress/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'busy' } });
    expect(other.status).toBe(201);
    ranges = 0;
    const list = await call(s.url, 'GET', base);
    expect(list.status).toBe(200);
    expect(list.json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['quiet']);
    // At least as new as the other kind's write: the revision etcd reported progress to.
    expect(Number(list.json.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(other.json.metadata.resourceVersion));
    expect(ranges).toBe(0);
  });
});
