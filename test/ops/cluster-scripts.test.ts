/**
 * scripts/cluster-up and scripts/cluster-down as an operator runs them: a port already taken stops cluster-up at
 * once, naming it, with nothing started or written; a cluster comes up with etcd over TLS and client certificates
 * and cluster-down leaves none of its processes running.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { removeTempDirs, repo, tempDir } from './support/ops';

jest.setTimeout(180_000);

let held: Server;
let heldPort: number;
beforeAll(async () => {
  held = createServer();
  heldPort = await new Promise<number>((r) => held.listen(0, '127.0.0.1', () => r((held.address() as { port: number }).port)));
});
afterAll(() => {
  held.close();
  removeTempDirs();
});

const script = (name: string, args: string[]) => spawnSync(process.execPath, [join(repo, 'scripts', name), ...args], { encoding: 'utf8', timeout: 150_000 });

/** Live processes whose command line names `dir`. */
function processesIn(dir: string): string[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .flatMap((p) => {
      try {
        const cmd = readFileSync(`/proc/${p}/cmdline`, 'utf8');
        return cmd.includes(dir) && !/\) Z /.test(readFileSync(`/proc/${p}/stat`, 'utf8')) ? [cmd.replace(/\0/g, ' ')] : [];
      } catch {
        return [];
      }
    });
}

test('a --port another process holds: cluster-up fails at once naming it, and starts or writes nothing', () => {
  const dir = join(tempDir('cluster'), 'c');
  const started = Date.now();
  const r = script('cluster-up', ['--dir', dir, '--port', String(heldPort)]);
  expect(r.status).toBe(1);
  expect(r.stderr.trim()).toBe(
    `cluster-up: cannot use 127.0.0.1:${heldPort} for the balancer (--port): another process already uses it; choose another with --port N, or --port 0 for any free port`,
  );
  expect(Date.now() - started).toBeLessThan(10_000); // not after starting etcd and the replicas
  expect(existsSync(dir)).toBe(false);
  expect(processesIn(dir)).toEqual([]);
});

test('cluster-up runs etcd with TLS and client certificates; cluster-down stops all it started', () => {
  const dir = join(tempDir('cluster'), 'c');
  try {
    const up = script('cluster-up', ['--dir', dir, '--port', '0', '--replicas', '1', '--members', '1']);
    expect(up.stderr).toBe('');
    expect(up.status).toBe(0);
    const state = JSON.parse(readFileSync(join(dir, 'cluster.json'), 'utf8'));
    expect(state.members[0].clientUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const etcd = readFileSync(`/proc/${state.members[0].pid}/cmdline`, 'utf8').split('\0');
    expect(etcd).toEqual(expect.arrayContaining(['--client-cert-auth', '--peer-client-cert-auth', '--trusted-ca-file', '--cert-file']));
    const replica = readFileSync(`/proc/${state.replicas[0].pid}/cmdline`, 'utf8').split('\0');
    expect(replica).toEqual(expect.arrayContaining(['--etcd-cafile', '--etcd-certfile', '--etcd-keyfile']));
    expect(processesIn(dir)).toHaveLength(3); // etcd, the replica, the balancer

    const down = script('cluster-down', ['--dir', dir]);
    expect(down.status).toBe(0);
    expect(processesIn(dir)).toEqual([]);
  } finally {
    script('cluster-down', ['--dir', dir, '--purge']);
  }
});
