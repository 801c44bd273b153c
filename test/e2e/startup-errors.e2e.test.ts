/**
 * Fatal start errors: one plain sentence on stderr naming the flag or path
 * at fault, a non-zero exit, nothing else (no JSON, no stack trace).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { distMain, freePort, startServerProcess } from '../support/server-process';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'svc-startup-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Starts the server with free ports unless the test names them; returns once it exited. */
async function start(args: string[]): Promise<{ status: number | null; stderr: string }> {
  const ports = args.includes('--secure-port') ? [] : ['--secure-port', String(await freePort())];
  const r = spawnSync(process.execPath, [distMain, ...ports, ...args], { encoding: 'utf8', timeout: 15_000 });
  return { status: r.status, stderr: r.stderr };
}

function expectOneSentence(r: { status: number | null; stderr: string }, ...mentions: string[]): void {
  expect(r.status).not.toBe(0);
  expect(r.status).not.toBeNull();
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^svc-apiserver: /);
  expect(lines[0]).not.toMatch(/[{}]|\bat \S+:\d+/);
  for (const m of mentions) expect(lines[0]).toContain(m);
}

test('a --data-dir that is a file', async () => {
  const file = join(root, 'store.d');
  writeFileSync(file, 'not a store');
  expectOneSentence(await start(['--data-dir', file]), '--data-dir', file, 'not a directory');
});

test('a --data-dir under a file', async () => {
  const file = join(root, 'plain');
  writeFileSync(file, 'x');
  expectOneSentence(await start(['--data-dir', join(file, 'data')]), '--data-dir', join(file, 'data'));
});

test('ports already in use', async () => {
  const server = await startServerProcess();
  try {
    expectOneSentence(await start(['--secure-port', String(server.securePort), '--data-dir', join(root, 'second')]), '--secure-port', String(server.securePort), 'already');
    expectOneSentence(await start(['--port', String(server.port), '--data-dir', join(root, 'third')]), '--port', String(server.port), 'already');
  } finally {
    await server.stop();
  }
});

test.each([
  [['--no-such-flag', '1'], '--no-such-flag'],
  [['--port', 'eighty'], '--port'],
  [['--etcd-servers', 'localhost'], '--etcd-servers'],
  [['--bind-address', 'example'], '--bind-address'],
  [['--min-request-timeout', 'soon'], '--min-request-timeout'],
])('a bad flag: %j', async (args, flag) => {
  expectOneSentence(await start(['--data-dir', join(root, 'flags'), ...args]), flag);
});

test('a --data-dir whose name has a dot serves', async () => {
  const server = await startServerProcess([], { dataDir: mkdtempSync(join(tmpdir(), 'svc.data.')) });
  try {
    const res = await fetch(`${server.url}/api/v1/namespaces/default/configmaps`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ metadata: { name: 'dot' } }),
    });
    expect(res.status).toBe(201);
  } finally {
    await server.stop();
    rmSync(server.dataDir, { recursive: true, force: true });
  }
});
