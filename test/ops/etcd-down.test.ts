/**
 * etcd not there: with its process down (the port refuses connections) requests answer 503 with Retry-After at
 * once, not after --request-timeout; with etcd hung (SIGSTOP) they still answer 504 at --request-timeout. A server
 * started while etcd does not answer keeps serving, says why in /readyz (naming the URL), retries with backoff,
 * and becomes ready when etcd comes.
 */
import { startEtcd, type EtcdInstance } from '../support/etcd-harness';
import { freePort } from '../support/server-process';
import { call, readyz, removeTempDirs, startServer, stopAll, tempDir, until } from './support/ops';

jest.setTimeout(120_000);

let etcd: EtcdInstance;
beforeAll(async () => {
  etcd = await startEtcd();
});
afterAll(async () => {
  await stopAll();
  await etcd?.cleanup();
  removeTempDirs();
});

async function serve(extra: string[] = []) {
  const port = await freePort();
  const server = startServer(['--etcd-servers', etcd.endpoint, '--etcd-prefix', `/down-${port}`, '--data-dir', tempDir('data'), '--port', String(port), '--secure-port', String(await freePort()), ...extra]);
  return { server, base: `http://127.0.0.1:${port}` };
}

test('etcd down: 503 with Retry-After within a second or so; etcd hung: 504 at --request-timeout', async () => {
  const { server, base } = await serve(['--request-timeout', '5s']);
  await until('the server to be ready', async () => (await readyz(base)).status === 200, { proc: server });
  const cms = `${base}/api/v1/namespaces/default/configmaps`;
  expect((await call(cms, { method: 'POST', body: { metadata: { name: 'before' } } })).status).toBe(201);

  await etcd.stop();
  const requests = [
    () => call(cms, { method: 'POST', body: { metadata: { name: 'during' } } }),
    () => call(cms), // a consistent list asks etcd for its revision
    () => call(`${cms}/before`),
    () => call(`${cms}/before`, { method: 'PATCH', body: { data: { a: 'b' } } }),
    () => call(`${base}/api/v1/namespaces/default/events`, { method: 'POST', body: { metadata: { name: 'e' }, involvedObject: { name: 'before' } } }),
  ];
  for (let round = 0; round < 2; round++) {
    for (const request of requests) {
      const r = await request();
      expect({ status: r.status, retryAfter: r.headers.get('retry-after') }).toEqual({ status: 503, retryAfter: '1' });
      expect(r.ms).toBeLessThan(3000); // against a --request-timeout of 5 s (10 s by default)
    }
  }
  const notReady = await readyz(base);
  expect(notReady.status).toBe(500);
  expect(notReady.text).toContain(`[-]etcd failed: etcd at ${etcd.endpoint} refused the connection`);

  await etcd.restart();
  await until('the server to be ready again', async () => (await readyz(base)).status === 200, { proc: server });
  etcd.pause();
  try {
    const hung = await call(cms, { method: 'POST', body: { metadata: { name: 'hung' } } });
    expect(hung.status).toBe(504);
    expect(hung.ms).toBeGreaterThanOrEqual(4500);
  } finally {
    etcd.resume();
  }
  expect(await server.stop()).toBe(0);
});

test('started while etcd does not answer: serves, /readyz names the URL, retries, then becomes ready', async () => {
  await etcd.stop();
  const { server, base } = await serve();
  try {
    await until('/readyz to say why', async () => (await readyz(base)).text.includes(`[-]etcd failed: etcd at ${etcd.endpoint} refused the connection`), { proc: server });
    await until('a second attempt in the log', () => (server.output().match(/"waiting for etcd prefix \/down-\d+ at /g) ?? []).length >= 2, { proc: server });
    expect(server.output()).toContain(`"reason":"etcd at ${etcd.endpoint} refused the connection`);
  } finally {
    await etcd.restart();
  }
  await until('the server to be ready once etcd answers', async () => (await readyz(base)).status === 200, { proc: server });
  expect((await call(`${base}/api/v1/namespaces/default/configmaps`, { method: 'POST', body: { metadata: { name: 'late' } } })).status).toBe(201);
  expect(await server.stop()).toBe(0);
});
