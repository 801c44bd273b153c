/**
 * One place for the PKI and the admin kubeconfig whatever the store: <data-dir>/pki/ and
 * <data-dir>/admin.kubeconfig on the embedded store and on etcd alike (switching stores keeps the one CA),
 * --cert-dir moves the PKI only, the log says where the kubeconfig is, nothing is written in the working
 * directory, and migrate writes no kubeconfig.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testEtcdEndpoints } from '../support/etcd-harness';
import { adminHttpsStatus, distMain, freePort } from '../support/server-process';
import { call, removeTempDirs, startServer, stopAll, tempDir, until } from './support/ops';

jest.setTimeout(120_000);

afterAll(async () => {
  await stopAll();
  removeTempDirs();
});

/** Starts the built server from `cwd`, waits until it serves, stops it; its output and secure URL. */
async function runOnce(cwd: string, args: string[], check?: (secureUrl: string) => Promise<void>): Promise<string> {
  const port = await freePort();
  const securePort = await freePort();
  const server = startServer([...args, '--port', String(port), '--secure-port', String(securePort)], { cwd });
  await until('the server to be ready', async () => (await call(`http://127.0.0.1:${port}/readyz`)).status === 200, { proc: server });
  await check?.(`https://127.0.0.1:${securePort}`);
  expect(await server.stop()).toBe(0);
  return server.output();
}

const files = (dir: string) => readdirSync(dir).sort();

test('the embedded store and etcd use <data-dir>/pki and <data-dir>/admin.kubeconfig; switching keeps the CA', async () => {
  const cwd = tempDir('cwd');
  const data = join(tempDir('home'), 'data');
  const first = await runOnce(cwd, ['--data-dir', data]);
  expect(files(data)).toEqual(['admin.kubeconfig', 'data.mdb', 'lock.mdb', 'pki']);
  expect(files(join(data, 'pki'))).toEqual(['apiserver.crt', 'apiserver.key', 'ca.crt', 'ca.key', 'sa.key', 'sa.pub']);
  expect(first).toContain(`"msg":"export KUBECONFIG=${join(data, 'admin.kubeconfig')}"`);
  const ca = readFileSync(join(data, 'pki', 'ca.crt'), 'utf8');

  const onEtcd = await runOnce(cwd, ['--data-dir', data, '--etcd-servers', testEtcdEndpoints().join(','), '--etcd-prefix', `/pki-${Date.now()}`], async (url) => {
    expect(await adminHttpsStatus(join(data, 'admin.kubeconfig'), `${url}/api/v1/namespaces/default/configmaps`)).toBe(200);
  });
  expect(onEtcd).not.toContain('generated cluster PKI');
  expect(onEtcd).toContain(`"msg":"export KUBECONFIG=${join(data, 'admin.kubeconfig')}"`);
  expect(readFileSync(join(data, 'pki', 'ca.crt'), 'utf8')).toBe(ca);
  expect(files(data)).toEqual(['admin.kubeconfig', 'data.mdb', 'lock.mdb', 'pki']);
  expect(files(cwd)).toEqual([]); // no ./pki, no ./data beside where it was started

  // migrate reads the embedded store and writes only to etcd: no kubeconfig anywhere.
  const migrated = spawnSync(process.execPath, [distMain, 'migrate', '--data-dir', data, '--etcd-servers', testEtcdEndpoints()[0], '--etcd-prefix', `/pki-migrate-${Date.now()}`], { cwd, encoding: 'utf8', timeout: 60_000 });
  expect(migrated.stderr).toBe('');
  expect(migrated.status).toBe(0);
  expect(files(data)).toEqual(['admin.kubeconfig', 'data.mdb', 'lock.mdb', 'pki']);
  expect(files(cwd)).toEqual([]);
});

test('--cert-dir moves the PKI; the kubeconfig stays in the data directory and the log says where', async () => {
  const cwd = tempDir('cwd');
  const data = join(tempDir('home'), 'etcd-data');
  const certs = join(tempDir('certs'), 'pki');
  const out = await runOnce(cwd, ['--data-dir', data, '--cert-dir', certs, '--etcd-servers', testEtcdEndpoints().join(','), '--etcd-prefix', `/pki-certdir-${Date.now()}`]);
  expect(files(data)).toEqual(['admin.kubeconfig']);
  expect(files(certs)).toEqual(['apiserver.crt', 'apiserver.key', 'ca.crt', 'ca.key', 'sa.key', 'sa.pub']);
  expect(out).toContain(`"msg":"export KUBECONFIG=${join(data, 'admin.kubeconfig')}"`);
  expect(out).toContain(`"pki":"${certs}"`);
  expect(files(cwd)).toEqual([]);
});
