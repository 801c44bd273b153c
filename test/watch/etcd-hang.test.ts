/**
 * etcd hanging (frozen by SIGSTOP: connections open, nothing answers) and
 * etcd down: every storage call has a deadline (--request-timeout), so
 * requests answer 504 saying storage did not answer in time; health checks
 * are bounded by their own timeouts; an unreachable etcd is a 503 with
 * Retry-After. Nothing is a 500 with a gRPC string. After etcd comes back,
 * requests succeed again.
 */
import { EtcdStorage } from '../../src/adapters/etcd';
import { startEtcd, type EtcdInstance } from '../support/etcd-harness';
import { call, CacheServer, cm, startCacheServer, until } from './harness';

const base = '/api/v1/namespaces/hang/configmaps';
const requestTimeoutMs = 1500;
const checkTimeoutMs = 400;

describe('etcd hanging or down', () => {
  let etcd: EtcdInstance;
  let storage: EtcdStorage;
  let s: CacheServer;
  beforeAll(async () => {
    etcd = await startEtcd();
    storage = new EtcdStorage({ endpoints: [etcd.endpoint], requestTimeoutMs });
    s = await startCacheServer('etcd', { storage, requestTimeoutMs, healthcheckTimeoutMs: checkTimeoutMs, readycheckTimeoutMs: checkTimeoutMs });
  }, 30_000);
  afterAll(async () => {
    etcd?.resume();
    await s?.close();
    await storage?.close();
    await etcd?.cleanup();
  });

  test('a frozen etcd: writes and consistent reads are 504 Timeout, health checks fail within their bound', async () => {
    const before = (await call(s.url, 'POST', base, cm('before'))).json;
    // The cache has it before etcd freezes (reads from memory are checked below).
    await until('the cache to see it', async () => (await call(s.url, 'GET', `${base}/before?resourceVersion=${before.metadata.resourceVersion}`)).status === 200);
    etcd.pause();
    try {
      const answers = await Promise.all([
        call(s.url, 'POST', base, cm('during')),
        call(s.url, 'PUT', `${base}/before`, { ...before, data: { v: '2' } }),
        call(s.url, 'DELETE', `${base}/before`),
        call(s.url, 'GET', `${base}/before`),
        call(s.url, 'GET', base),
      ]);
      for (const a of answers) {
        expect(a.status).toBe(504);
        expect(a.json).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Timeout', code: 504 });
        expect(a.json.message).toBe('Timeout: request did not complete within requested timeout - etcd did not answer within 1.5s');
      }
      // Served from memory, as before.
      expect((await call(s.url, 'GET', `${base}/before?resourceVersion=0`)).status).toBe(200);
      // Bounded by the configured check timeout: answered well before the client gives up.
      for (const path of ['/readyz?verbose', '/livez?verbose']) {
        const res = await fetch(s.url + path, { signal: AbortSignal.timeout(5 * checkTimeoutMs) });
        expect(res.status).toBe(500);
        expect(await res.text()).toContain('[-]etcd failed');
      }
    } finally {
      etcd.resume();
    }
    await until('a write after etcd thawed', async () => (await call(s.url, 'POST', base, cm('after'))).status === 201, { timeoutMs: 20_000 });
    expect((await call(s.url, 'GET', `${base}/after`)).status).toBe(200);
  }, 60_000);

  test('etcd down: 503 ServiceUnavailable with Retry-After, no gRPC text', async () => {
    await etcd.stop();
    try {
      for (const [method, path, body] of [['POST', base, cm('down')], ['GET', `${base}/after`, undefined]] as const) {
        const res = await call(s.url, method, path, body);
        expect([method, res.status]).toEqual([method, 503]);
        expect(res.headers.get('retry-after')).toBe('1');
        expect(res.json).toMatchObject({ reason: 'ServiceUnavailable', code: 503, details: { retryAfterSeconds: 1 } });
        expect(res.json.message).not.toMatch(/UNAVAILABLE:|[Gg][Rr][Pp][Cc]|\b14 /);
      }
    } finally {
      await etcd.restart();
    }
    await until('readyz after the restart', async () => (await call(s.url, 'GET', '/readyz')).status === 200, { timeoutMs: 20_000 });
  }, 60_000);
});
