/**
 * TLS to etcd: a real etcd with --client-cert-auth, its certificates generated here with the project's PKI
 * adapter, and the built server started with --etcd-cafile, --etcd-certfile and --etcd-keyfile. Both of the
 * server's etcd connections are exercised: its own transport (CRUD, watch, consistent list) and the etcd3 client
 * (compaction, leases for Events). A client certificate from another CA is refused by etcd and reported by
 * /readyz while the server keeps running; a member certificate that does not name the URL's host is refused here.
 */
import { createSecureServer } from 'node:http2';
import { join } from 'node:path';
import { ensureEtcdPki, issueLeaf, selfSignedCa } from '../../src/adapters/pki';
import { writeFileSync } from 'node:fs';
import { EtcdStorage } from '../../src/adapters/etcd';
import { startEtcd, type EtcdInstance, type EtcdTlsFiles } from '../support/etcd-harness';
import { spawnSync } from 'node:child_process';
import { distMain, freePort } from '../support/server-process';
import { call, readyz, removeTempDirs, startServer, stopAll, tempDir, until } from './support/ops';

jest.setTimeout(120_000);

let etcd: EtcdInstance;
let files: EtcdTlsFiles;

beforeAll(async () => {
  const pki = await ensureEtcdPki(join(tempDir('etcd-pki'), 'etcd'), [], new Date());
  files = { ca: pki.caCert, serverCert: pki.serverCert, serverKey: pki.serverKey, clientCert: pki.clientCert, clientKey: pki.clientKey };
  etcd = await startEtcd({ tls: files });
});

afterAll(async () => {
  await stopAll();
  await etcd?.cleanup();
  removeTempDirs();
});

async function serve(extra: string[]) {
  const port = await freePort();
  const server = startServer([
    '--etcd-servers', etcd.endpoint, '--etcd-prefix', `/tls-${port}`, '--data-dir', tempDir('data'),
    '--port', String(port), '--secure-port', String(await freePort()), ...extra,
  ]);
  return { server, base: `http://127.0.0.1:${port}` };
}

test('CRUD, watch, consistent list, compaction and Event leases over TLS with a client certificate', async () => {
  const { server, base } = await serve([
    '--etcd-cafile', files.ca, '--etcd-certfile', files.clientCert, '--etcd-keyfile', files.clientKey,
    '--etcd-compaction-interval', '2s', '--event-ttl', '3s',
  ]);
  await until('the server to be ready', async () => (await readyz(base)).status === 200, { proc: server });
  const cms = `${base}/api/v1/namespaces/default/configmaps`;

  const created = await call(cms, { method: 'POST', body: { metadata: { name: 'tls' }, data: { a: '1' } } });
  expect(created.status).toBe(201);
  const firstRv = JSON.parse(created.text).metadata.resourceVersion as string;

  // A watch from that revision sees the next change (the watch cache is fed by the etcd watch over TLS).
  const watch = await fetch(`${cms}?watch=1&resourceVersion=${firstRv}&timeoutSeconds=20`);
  const patched = await call(`${cms}/tls`, { method: 'PATCH', body: { data: { a: '2' } } });
  expect(patched.status).toBe(200);
  const reader = watch.body!.getReader();
  let events = '';
  while (!events.includes('"MODIFIED"')) {
    const { value, done } = await reader.read();
    if (done) break;
    events += Buffer.from(value).toString();
  }
  await reader.cancel();
  expect(events).toContain('"MODIFIED"');

  // A consistent list (no resourceVersion) has the write; a GET reads it back.
  const list = JSON.parse((await call(cms)).text);
  expect(list.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toContain('tls');
  expect(JSON.parse((await call(`${cms}/tls`)).text).data).toEqual({ a: '2' });

  // Compaction through the etcd3 client: the first revision becomes unreadable (410 Gone) within a few intervals.
  await until('the first revision to be compacted', async () => {
    const old = await call(`${cms}?resourceVersion=${firstRv}&resourceVersionMatch=Exact`);
    return old.status === 410;
  }, { proc: server });

  // An Event is written with an etcd lease (granted through the etcd3 client over TLS) and expires with it.
  const events2 = `${base}/api/v1/namespaces/default/events`;
  const event = await call(events2, { method: 'POST', body: { metadata: { name: 'short' }, involvedObject: { kind: 'ConfigMap', name: 'tls', namespace: 'default' }, reason: 'Test', message: 'expires' } });
  expect(event.status).toBe(201);
  await until('the Event to expire with its lease', async () => (await call(`${events2}/short`)).status === 404, { proc: server, timeoutMs: 30_000 });

  expect((await call(`${cms}/tls`, { method: 'DELETE' })).status).toBe(200);
  expect((await call(`${cms}/tls`)).status).toBe(404);
  expect(await server.stop()).toBe(0);
});

test('a client certificate from another CA: etcd refuses it, /readyz says so, the server keeps running', async () => {
  const dir = tempDir('other-ca');
  const otherCa = await selfSignedCa('another-ca', new Date());
  const stranger = await issueLeaf(otherCa, { commonName: 'stranger', usage: 'client', days: 1 }, new Date());
  writeFileSync(join(dir, 'client.crt'), stranger.certPem);
  writeFileSync(join(dir, 'client.key'), stranger.keyPem);
  const { server, base } = await serve(['--etcd-cafile', files.ca, '--etcd-certfile', join(dir, 'client.crt'), '--etcd-keyfile', join(dir, 'client.key')]);
  let why = '';
  await until('/readyz to report the refused certificate', async () => {
    const r = await readyz(base);
    why = r.text;
    return r.status === 500 && r.text.includes('[-]etcd failed:');
  }, { proc: server });
  // etcd's TLS alert, or (TLS 1.3) the reset that can overtake it: either way the sentence names the flag.
  expect(why).toMatch(new RegExp(`\\[-\\]etcd failed: etcd at ${etcd.endpoint} .*refused this server's client certificate \\(--etcd-certfile\\)`));
  expect(server.child.exitCode).toBeNull();
  const write = await call(`${base}/api/v1/namespaces/default/configmaps`, { method: 'POST', body: { metadata: { name: 'x' } } });
  expect(write.status).toBe(503);
  expect(server.output()).not.toMatch(/\n\s+at \S+:\d+/); // no stack trace
  expect(await server.stop()).toBe(0);
});

test('migrate copies the embedded store into etcd over TLS with the same flags', async () => {
  const data = tempDir('embedded');
  const port = await freePort();
  const source = startServer(['--data-dir', data, '--port', String(port), '--secure-port', String(await freePort())]);
  await until('the embedded store to serve', async () => (await readyz(`http://127.0.0.1:${port}`)).status === 200, { proc: source });
  expect((await call(`http://127.0.0.1:${port}/api/v1/namespaces/default/configmaps`, { method: 'POST', body: { metadata: { name: 'moved' } } })).status).toBe(201);
  expect(await source.stop()).toBe(0);
  const tls = ['--etcd-cafile', files.ca, '--etcd-certfile', files.clientCert, '--etcd-keyfile', files.clientKey];
  const migrate = spawnSync(process.execPath, [distMain, 'migrate', '--data-dir', data, '--etcd-servers', etcd.endpoint, '--etcd-prefix', '/tls-migrated', ...tls], { encoding: 'utf8', timeout: 60_000 });
  expect(migrate.stderr).toBe('');
  expect(migrate.status).toBe(0);
  expect(migrate.stdout).toMatch(/configmaps: \d+ in the embedded store, \d+ in etcd/);
  expect(migrate.stdout).toContain('to etcd prefix /tls-migrated; counts agree');
  // Without the client pair etcd refuses it: one sentence, exit 1.
  const refused = spawnSync(process.execPath, [distMain, 'migrate', '--data-dir', data, '--etcd-servers', etcd.endpoint, '--etcd-prefix', '/tls-refused', '--etcd-cafile', files.ca], { encoding: 'utf8', timeout: 60_000 });
  expect(refused.status).toBe(1);
  expect(refused.stderr.trim().split('\n')).toHaveLength(1);
  expect(refused.stderr).toMatch(/^svc-apiserver: migrate failed: .*etcd at https:\/\/127\.0\.0\.1:\d+ .*client certificate/);
});

test("etcd's certificate must name the URL's host", async () => {
  // A TLS HTTP/2 server standing in for etcd, with a certificate for another name than 127.0.0.1.
  const ca = await selfSignedCa('impostor-ca', new Date());
  const leaf = await issueLeaf(ca, { commonName: 'etcd.example', dnsNames: ['etcd.example'], usage: 'server', days: 1 }, new Date());
  const impostor = createSecureServer({ cert: leaf.certPem, key: leaf.keyPem, allowHTTP1: false });
  impostor.on('stream', (s) => s.respond({ ':status': 200 }, { endStream: true }));
  const port = await new Promise<number>((r) => impostor.listen(0, '127.0.0.1', () => r((impostor.address() as { port: number }).port)));
  const storage = new EtcdStorage({ endpoints: [`https://127.0.0.1:${port}`], tls: { ca: Buffer.from(ca.certPem) }, progressRequests: false });
  try {
    expect(await storage.ping(2000)).toBe(false);
    expect(storage.lastPingFailure()).toContain(`etcd at https://127.0.0.1:${port} presented a certificate that does not name that host`);
  } finally {
    await storage.close();
    impostor.close();
  }
});
