/**
 * Start failures as an operator meets them: one sentence on stderr naming the flag or path, exit code 2 for a bad
 * flag and 1 otherwise, nothing on stdout (no JSON log line before it), no stack trace, and nothing written: the
 * data directory the start would have used does not exist afterwards.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { ensureEtcdPki, issueLeaf, selfSignedCa } from '../../src/adapters/pki';
import { distMain, freePort } from '../support/server-process';
import { removeTempDirs, tempDir } from './support/ops';

jest.setTimeout(60_000);

let root: string;
let etcdPki: Awaited<ReturnType<typeof ensureEtcdPki>>;
let otherKey: string;
let held: Server;
let heldPort: number;
const file = (name: string, text: string) => {
  const path = join(root, name);
  writeFileSync(path, text);
  return path;
};

beforeAll(async () => {
  root = tempDir('start');
  etcdPki = await ensureEtcdPki(join(root, 'etcd-pki'), [], new Date());
  otherKey = file('other.key', (await issueLeaf(await selfSignedCa('x', new Date()), { commonName: 'x', usage: 'client', days: 1 }, new Date())).keyPem);
  held = createServer();
  heldPort = await new Promise<number>((r) => held.listen(0, '127.0.0.1', () => r((held.address() as { port: number }).port)));
});
afterAll(() => {
  held.close();
  removeTempDirs();
});

/** Starts the built server in a fresh data dir (which must not exist after the failure). */
async function start(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string; dataDir: string }> {
  const dataDir = join(root, `data-${Math.random().toString(36).slice(2)}`);
  const ports = args.includes('--secure-port') ? [] : ['--secure-port', String(await freePort())];
  const r = spawnSync(process.execPath, [distMain, '--data-dir', dataDir, ...ports, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, dataDir };
}

function expectRefused(r: Awaited<ReturnType<typeof start>>, code: number, ...mentions: string[]): void {
  expect({ status: r.status, stdout: r.stdout }).toEqual({ status: code, stdout: '' });
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^svc-apiserver: \S/);
  expect(lines[0]).not.toMatch(/[{}]|\bat \S+:\d+/);
  for (const m of mentions) expect(lines[0]).toContain(m);
  expect(existsSync(r.dataDir)).toBe(false);
}

describe('bad flags: exit 2', () => {
  test.each([
    [['--etcd-servers', 'https://127.0.0.1:2379'], ['--etcd-servers', 'https://', '--etcd-cafile']],
    [['--etcd-servers', 'http://127.0.0.1:2379', '--etcd-cafile', 'ca.crt'], ['--etcd-cafile', 'https://']],
    [['--etcd-servers', 'https://127.0.0.1:2379', '--etcd-cafile', 'ca.crt', '--etcd-certfile', 'c.crt'], ['--etcd-certfile', '--etcd-keyfile']],
    [['--etcd-servers', 'https://a:2379,http://b:2379', '--etcd-cafile', 'ca.crt'], ['--etcd-servers', 'https://']],
    [['--controllers', 'no-such-controller'], ['--controllers', 'no-such-controller']],
    [['--leader-elect-renew-deadline', '20s'], ['leader election']],
    [['--no-such-flag', '1'], ['--no-such-flag']],
  ])('%j', async (args, mentions) => {
    expectRefused(await start(args), 2, ...mentions);
  });
});

describe('files and directories: exit 1, nothing written', () => {
  const cases: Array<[string, () => string[], string[]]> = [
    ['a --client-ca-file that holds no PEM certificate', () => ['--client-ca-file', file('not-a-ca.txt', 'hello\n')], ['--client-ca-file', 'no PEM certificate']],
    ['a --client-ca-file that does not exist', () => ['--client-ca-file', join(root, 'nope.crt')], ['--client-ca-file', 'no such file']],
    ['an --audit-log-path whose directory does not exist', () => ['--audit-log-path', join(root, 'no-dir', 'audit.log')], ['--audit-log-path', 'does not exist']],
    ['a --tls-private-key-file that is not the certificate’s key', () => ['--tls-cert-file', etcdPki.serverCert, '--tls-private-key-file', otherKey], ['--tls-private-key-file', 'is not the key of the certificate']],
    ['a --token-auth-file that does not exist', () => ['--token-auth-file', join(root, 'tokens.csv')], ['--token-auth-file', 'no such file']],
    ['a --cert-dir under a file', () => ['--cert-dir', join(file('plain', 'x'), 'pki')], ['--cert-dir', 'is a file, not a directory']],
    [
      'an --etcd-cafile that does not exist',
      () => ['--etcd-servers', 'https://127.0.0.1:2379', '--etcd-cafile', join(root, 'missing-ca.crt')],
      ['--etcd-cafile', 'no such file'],
    ],
    [
      'an --etcd-keyfile that is not the key of --etcd-certfile',
      () => ['--etcd-servers', 'https://127.0.0.1:2379', '--etcd-cafile', etcdPki.caCert, '--etcd-certfile', etcdPki.clientCert, '--etcd-keyfile', otherKey],
      ['--etcd-keyfile', 'is not the key of the certificate in --etcd-certfile'],
    ],
    [
      'an --etcd-certfile that cannot be read (a directory)',
      () => ['--etcd-servers', 'https://127.0.0.1:2379', '--etcd-cafile', etcdPki.caCert, '--etcd-certfile', root, '--etcd-keyfile', etcdPki.clientKey],
      ['--etcd-certfile', 'is a directory'],
    ],
  ];
  test.each(cases)('%s', async (_name, args, mentions) => {
    expectRefused(await start(args()), 1, ...mentions);
  });

  test('a --secure-port another process holds: refused before a PKI is generated', async () => {
    expectRefused(await start(['--secure-port', String(heldPort)]), 1, '--secure-port', String(heldPort), 'another process already uses');
  });

  test('a --port another process holds', async () => {
    expectRefused(await start(['--port', String(heldPort)]), 1, '--port', String(heldPort));
  });

  test('a --data-dir that is a file', async () => {
    const dataFile = file('data-file', 'x');
    const r = spawnSync(process.execPath, [distMain, '--data-dir', dataFile, '--secure-port', String(await freePort())], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim()).toBe(`svc-apiserver: cannot use --data-dir ${dataFile}: is a file, not a directory`);
  });
});
