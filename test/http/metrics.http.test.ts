/** /metrics: request counters by verb/resource/code, latency histogram, in-flight and long-running gauges. */
import { startTestServer, TestServer } from '../support/test-server';
import { until } from '../support/until';

describe('request metrics', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer('lmdb');
  });
  afterAll(() => s.close());

  it('counts requests per verb, resource and code, and shows running watches', async () => {
    const post = (name: string) =>
      fetch(`${s.url}/api/v1/namespaces/m/configmaps`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ metadata: { name } }) });
    await post('a');
    await post('b');
    await post('a'); // 409
    await fetch(`${s.url}/api/v1/namespaces/m/configmaps/a`);
    const watch = new AbortController();
    const w = await fetch(`${s.url}/api/v1/namespaces/m/configmaps?watch=true`, { signal: watch.signal });
    const text = await (await fetch(`${s.url}/metrics`)).text();
    watch.abort();
    await w.body?.cancel().catch(() => undefined);
    const line = (re: RegExp) => text.split('\n').find((l) => re.test(l));
    expect(line(/^apiserver_request_total\{.*verb="POST".*resource="configmaps".*code="201".*\} 2$/)).toBeDefined();
    expect(line(/^apiserver_request_total\{.*verb="POST".*resource="configmaps".*code="409".*\} 1$/)).toBeDefined();
    expect(line(/^apiserver_request_total\{.*verb="GET".*resource="configmaps".*scope="resource".*code="200".*\} 1$/)).toBeDefined();
    expect(line(/^apiserver_request_duration_seconds_count\{.*verb="POST".*resource="configmaps".*\} 3$/)).toBeDefined();
    expect(line(/^apiserver_longrunning_requests\{.*verb="WATCH".*resource="configmaps".*\} 1$/)).toBeDefined();
    // The /metrics request itself is in flight while it renders.
    expect(line(/^apiserver_current_inflight_requests\{request_kind="readOnly"\} 1$/)).toBeDefined();
  });
});

describe('heap trim', () => {
  let s: TestServer;
  beforeAll(async () => {
    // A small threshold: two bodies of 600 KB make a burst.
    s = await startTestServer('lmdb', {}, { heapTrim: { afterBytes: 1024 * 1024, quietMs: 200, settleMs: 600 } });
  });
  afterAll(() => s.close());

  it('runs a full collection in the quiet moment after a burst of large bodies, a second once it stays quiet, and counts them', async () => {
    const trims = async () => {
      const text = await (await fetch(`${s.url}/metrics`)).text();
      return Number(/^svc_heap_trims_total (\d+)$/m.exec(text)?.[1]);
    };
    expect(await trims()).toBe(0);
    for (const name of ['big-a', 'big-b']) {
      const r = await fetch(`${s.url}/api/v1/namespaces/m/configmaps`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ metadata: { name }, data: { v: 'x'.repeat(600_000) } }) });
      expect(r.status).toBe(201);
    }
    await until('the collection after the burst', async () => (await trims()) === 1, { intervalMs: 100 });
    await until('the settling collection', async () => (await trims()) === 2, { intervalMs: 100 });
    const text = await (await fetch(`${s.url}/metrics`)).text();
    expect(Number(/^svc_heap_trim_seconds_total (\S+)$/m.exec(text)?.[1])).toBeGreaterThan(0);
  });
});
