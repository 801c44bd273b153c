/**
 * A watch from a revision the cache has not applied yet (the write's response
 * beat the storage watch) delivers only later changes, never the event at
 * that revision itself.
 */
import { FlakyStorage, startFlakyCacheServer } from './flaky-storage';
import { backends, call, CacheServer, cm, WatchClient } from './harness';

const base = '/api/v1/namespaces/ahead/configmaps';

describe.each(backends)('watch from a revision ahead of the cache (%s)', (backend) => {
  let s: CacheServer;
  let flaky: FlakyStorage;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ server: s, flaky, close } = await startFlakyCacheServer(backend));
  });
  afterAll(() => close());

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
