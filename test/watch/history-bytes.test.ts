/**
 * The watch-cache history is bounded by bytes across kinds and by age even
 * when no more events come; what fell out is 410 for a watch from there.
 */
import { backends, call, CacheServer, cm, startCacheServer, until, WatchClient } from './harness';

const rv = (o: any) => Number(o.metadata.resourceVersion);
const path = '/api/v1/namespaces/big/configmaps';
const budget = 3 * 1024 * 1024;

describe.each(backends)('watch-cache history (%s)', (backend) => {
  let s: CacheServer;
  const configMaps = () => s.cache.kind(s.registry.definitions.find((d) => d.plural === 'configmaps')!);

  afterEach(() => s?.close());

  test('replacing a large object keeps history within the byte budget; older watches get 410', async () => {
    s = await startCacheServer(backend, { watchCache: { historyMaxBytes: budget } });
    const value = (i: number) => String(i % 10).repeat(400_000);
    const reader = await WatchClient.open(s.url, `${path}?watch=1&resourceVersion=0`); // encodes every frame
    let obj = (await call(s.url, 'POST', path, cm('big', { data: { v: value(0) } }))).json;
    const first = rv(obj);
    const replaces = 20;
    for (let i = 1; i <= replaces; i++) {
      obj = (await call(s.url, 'PUT', `${path}/big`, { ...obj, data: { v: value(i) } })).json;
      expect(rv(obj)).toBeGreaterThan(first);
    }
    await reader.waitFor(replaces + 1, 15_000);
    reader.close();
    await until('the cache to apply the last replace', () => configMaps().revision >= rv(obj));
    const log = configMaps().log;
    // Each event holds ~400 kB of object and ~400 kB of frame: far fewer than 21 fit in 3 MiB.
    expect(log.length).toBeLessThan(replaces / 2);
    expect(s.cache.history.bytes).toBeLessThanOrEqual(budget);

    const old = await WatchClient.open(s.url, `${path}?watch=1&resourceVersion=${first}`);
    await old.waitEnd();
    expect(old.events).toHaveLength(1);
    expect(old.events[0].object).toMatchObject({ kind: 'Status', reason: 'Expired', code: 410 });

    const recent = await WatchClient.open(s.url, `${path}?watch=1&resourceVersion=${log.startRev}`);
    const [ev] = await recent.waitFor(1);
    expect(ev.type).toBe('MODIFIED');
    recent.close();
  });

  test('events older than the window leave even when no new event arrives', async () => {
    s = await startCacheServer(backend, { watchCache: { historyWindowMs: 300, historyTrimIntervalMs: 50 } });
    let last = 0;
    for (let i = 0; i < 3; i++) last = rv((await call(s.url, 'POST', path, cm(`quiet-${i}`))).json);
    await until('the cache to apply the creates', () => configMaps().revision >= last);
    expect(configMaps().log.length).toBeGreaterThan(0);
    await until('age to empty the history', () => configMaps().log.length === 0, { timeoutMs: 3000 });
    expect(configMaps().log.bytes).toBe(0);
    // Resuming from the newest revision needs nothing that fell out.
    const w = await WatchClient.open(s.url, `${path}?watch=1&resourceVersion=${last}`);
    await call(s.url, 'POST', path, cm('after'));
    const [ev] = await w.waitFor(1);
    expect(ev.type).toBe('ADDED');
    w.close();
  });

  test('the history ages by the clock the cache is given, not by the wall clock', async () => {
    let ahead = 0;
    s = await startCacheServer(backend, { watchCache: { historyWindowMs: 60_000, historyTrimIntervalMs: 50, now: () => Date.now() + ahead } });
    let last = 0;
    for (let i = 0; i < 3; i++) last = rv((await call(s.url, 'POST', path, cm(`clocked-${i}`))).json);
    await until('the cache to apply the creates', () => configMaps().revision >= last);
    expect(configMaps().log.length).toBeGreaterThan(0);
    ahead = 61_000; // a minute later, by the cache's clock
    await until('the clock to age the history', () => configMaps().log.length === 0, { timeoutMs: 3000 });
  });
});
