/**
 * A watch from a revision the cache has not applied yet (the write's response
 * beat the storage watch) delivers only later changes, never the event at
 * that revision itself.
 */
import { openStorage } from '../support/test-server';
import { FlakyStorage } from './flaky-storage';
import { backends, call, CacheServer, cm, startCacheServer, WatchClient } from './harness';

const base = '/api/v1/namespaces/ahead/configmaps';

describe.each(backends)('watch from a revision ahead of the cache (%s)', (backend) => {
  let s: CacheServer;
  let flaky: FlakyStorage;
  let cleanup: () => void;
  beforeAll(async () => {
    const opened = openStorage(backend);
    cleanup = opened.cleanup;
    flaky = new FlakyStorage(opened.storage);
    s = await startCacheServer(backend, { storage: flaky });
  });
  afterAll(async () => {
    await s.close();
    await flaky.close();
    cleanup();
  });

  test('starts strictly after the requested revision', async () => {
    flaky.holding = true;
    const created = (await call(s.url, 'POST', base, cm('x'))).json;
    const w = await WatchClient.open(s.url, `${base}?watch=1&resourceVersion=${created.metadata.resourceVersion}`);
    flaky.release();
    const updated = (await call(s.url, 'PUT', `${base}/x`, { ...created, data: { v: '2' } })).json;
    const events = await w.waitFor(1);
    w.close();
    expect(events.map((e) => `${e.type} ${e.object.metadata.resourceVersion}`)).toEqual([`MODIFIED ${updated.metadata.resourceVersion}`]);
  });
});
