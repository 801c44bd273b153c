/**
 * A @kubernetes/client-node informer against the real server process: it
 * lists once, then follows changes by watch from the list's resourceVersion.
 * The server ends watches every 1-2 s here (--min-request-timeout 1), so the
 * informer reconnects many times; it must resume from its last RV each time
 * without relisting.
 */
import { spawn, ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { startServerProcess, ServerProcess } from '../support/server-process';
import { until } from '../support/until';

const ns = 'informed';
const base = `/api/v1/namespaces/${ns}/configmaps`;

async function call(url: string, method: string, path: string, body?: unknown) {
  const res = await fetch(url + path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return res.json() as Promise<any>;
}

describe('client-node informer against the server process', () => {
  let server: ServerProcess;
  let informer: ChildProcess | undefined;
  const lines: any[] = [];
  let stderr = '';
  beforeAll(async () => {
    server = await startServerProcess(['--min-request-timeout', '1']);
  });
  afterAll(async () => {
    informer?.kill('SIGKILL');
    await server.stop();
  });

  test('lists once, then sees every change across reconnects', async () => {
    const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { v: '1' } });
    await call(server.url, 'POST', base, cm('a'));
    await call(server.url, 'POST', base, cm('b'));
    informer = spawn(process.execPath, [join(__dirname, 'informer-configmaps.mjs'), server.url, ns], { stdio: ['ignore', 'pipe', 'pipe'] });
    let buffered = '';
    informer.stdout!.on('data', (d: Buffer) => {
      buffered += d.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      for (const p of parts) lines.push(JSON.parse(p));
    });
    informer.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const events = () => lines.filter((l) => ['add', 'update', 'delete'].includes(l.event)).map((l) => `${l.event} ${l.name}`);
    const shown = { timeoutMs: 15_000, onTimeout: () => `${JSON.stringify(lines)} ${stderr}` };
    await until('the initial adds', () => events().length >= 2, shown);
    expect(events()).toEqual(['add a', 'add b']);

    const c = await call(server.url, 'POST', base, cm('c'));
    await until('add c', () => events().length >= 3, shown);
    // The server ends the watch (every 1-2 s here) and the informer watches again, twice, before the next changes.
    const connects = () => lines.filter((l) => l.event === 'connect').length;
    const reconnected = (after: number) => until('the informer reconnected twice', () => connects() >= after + 2, shown);
    await reconnected(connects());
    const a = await call(server.url, 'GET', `${base}/a`);
    const a2 = await call(server.url, 'PUT', `${base}/a`, { ...a, data: { v: '2' } });
    await call(server.url, 'DELETE', `${base}/b`);
    await until('update a, delete b', () => events().length >= 5, shown);
    await reconnected(connects());
    await call(server.url, 'PUT', `${base}/c`, { ...c, data: { v: '3' } });
    await until('update c', () => events().length >= 6, shown);

    expect(events()).toEqual(['add a', 'add b', 'add c', 'update a', 'delete b', 'update c']);
    expect(lines.find((l) => l.event === 'update' && l.name === 'a')).toMatchObject({ rv: a2.metadata.resourceVersion, data: { v: '2' } });
    expect(lines.filter((l) => l.event === 'list')).toHaveLength(1);
    expect(connects()).toBeGreaterThanOrEqual(5);
    expect(lines.filter((l) => l.event === 'error')).toEqual([]);
  }, 60_000);
});
