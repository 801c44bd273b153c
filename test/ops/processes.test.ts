/**
 * The server as a process a user runs: `npm start` in a copy of the checkout (built once, not at every start; a
 * SIGTERM or SIGINT to the npm process stops the server, none is left running), --help and --version, and the
 * build's commit and date in /version.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { distMain, freePort } from '../support/server-process';
import { call, removeTempDirs, repo, startServer, stopAll, tempDir, until } from './support/ops';

jest.setTimeout(180_000);

afterAll(async () => {
  await stopAll();
  removeTempDirs();
});

/** A copy of the checkout as `npm ci` leaves it: sources, scripts, the built dist/ (newer than src/), node_modules. */
function checkoutCopy(): string {
  const dir = tempDir('checkout');
  for (const f of ['package.json', 'tsconfig.json', 'tsconfig.build.json']) cpSync(join(repo, f), join(dir, f));
  for (const d of ['scripts', 'src']) cpSync(join(repo, d), join(dir, d), { recursive: true });
  cpSync(join(repo, 'dist'), join(dir, 'dist'), { recursive: true }); // after src/: newer
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/** Processes whose command line names `text` (the copy's path, or its data directory). */
function processesNaming(text: string): string[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid)
    .flatMap((p) => {
      try {
        const cmdline = readFileSync(`/proc/${p}/cmdline`, 'utf8').replace(/\0/g, ' ');
        return cmdline.includes(text) ? [`${p}: ${cmdline}`] : [];
      } catch {
        return [];
      }
    });
}

describe('npm start', () => {
  let checkout: string;
  beforeAll(() => {
    checkout = checkoutCopy();
  });

  test.each(['SIGTERM', 'SIGINT'] as const)('serves without compiling, and %s to the npm process stops the server', async (signal) => {
    const data = join(checkout, `data-${signal}`);
    const port = await freePort();
    const started = performance.now();
    const npm = spawn('npm', ['start', '--', '--data-dir', data, '--port', String(port), '--secure-port', String(await freePort())], { cwd: checkout, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    npm.stdout!.on('data', (d) => (output += d));
    npm.stderr!.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((r) => npm.once('exit', (code, sig) => r(code ?? (sig ? 128 : null))));
    try {
      await until('npm start to serve', async () => (await call(`http://127.0.0.1:${port}/readyz`)).status === 200, { timeoutMs: 60_000 });
      process.stdout.write(`npm start to ready: ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
      expect(output).not.toContain('building dist/');
      expect(processesNaming(data).length).toBeGreaterThan(0);

      npm.kill(signal);
      expect(await exited).not.toBeNull();
      // Nothing answers on the port and no process of this start is left.
      expect((await call(`http://127.0.0.1:${port}/readyz`)).status).toBe(0);
      await until('no process left', () => processesNaming(data).length === 0, { timeoutMs: 15_000 });
    } finally {
      npm.kill('SIGKILL');
      for (const p of processesNaming(data)) process.kill(Number(p.split(':')[0]), 'SIGKILL');
    }
  });

  test('a source newer than dist/ is built first, once', () => {
    // The decision is what is tested: the copy's build is a stand-in that records its runs (tsc takes 15 s of CPU).
    const pkg = JSON.parse(readFileSync(join(checkout, 'package.json'), 'utf8'));
    pkg.scripts.build = `node -e "require('fs').appendFileSync('builds.txt', 'built\\n'); require('fs').writeFileSync('dist/build-info.json', '{}')"`;
    writeFileSync(join(checkout, 'package.json'), JSON.stringify(pkg));
    const stale = () => spawnSync(process.execPath, ['scripts/build-if-stale.cjs'], { cwd: checkout, encoding: 'utf8', timeout: 60_000 });
    const builds = () => (existsSync(join(checkout, 'builds.txt')) ? readFileSync(join(checkout, 'builds.txt'), 'utf8').split('\n').filter(Boolean).length : 0);
    // package.json was just written: newer than the build, so the next start builds, once.
    expect(stale().stderr).toContain('the sources changed since the last build: building dist/');
    expect(builds()).toBe(1);
    const again = stale();
    expect({ status: again.status, stderr: again.stderr }).toEqual({ status: 0, stderr: '' });
    expect(builds()).toBe(1);
    const later = new Date(Date.now() + 2000);
    utimesSync(join(checkout, 'src', 'version.ts'), later, later);
    expect(stale().status).toBe(0);
    expect(builds()).toBe(2);
  });
});

describe('the program says what it is', () => {
  test('--help names the program, its subcommands and where to read more, and every path it names exists', () => {
    const r = spawnSync(process.execPath, [distMain, '--help'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^svc-apiserver: /);
    for (const s of ['svc-apiserver migrate', 'svc-apiserver snapshot', '--etcd-cafile', 'README.md']) expect(r.stdout).toContain(s);
    for (const path of r.stdout.match(/\b(?:README\.md|docs\/[\w./-]*|scripts\/[\w./-]+|deploy\/[\w./-]*|examples\/[\w./-]*)/g) ?? []) {
      expect(existsSync(join(repo, path))).toBe(true);
    }
    for (const sub of ['migrate', 'snapshot']) {
      const help = spawnSync(process.execPath, [distMain, sub, '--help'], { encoding: 'utf8' });
      expect(help.status).toBe(0);
      expect(help.stdout).toContain(`svc-apiserver ${sub}`);
    }
  });

  test('--version and /version give the version, the commit the build came from and its date', async () => {
    const v = spawnSync(process.execPath, [distMain, '--version'], { encoding: 'utf8' });
    expect(v.status).toBe(0);
    const m = /^svc-apiserver v1\.37\.0-svc\.0\.1\.0 \(commit (\S+), built (\S+), node20/.exec(v.stdout);
    expect(m).not.toBeNull();
    const commit = m![1];
    // dist/ was built from this checkout: its commit is HEAD or one before it (a build, then a commit), or unknown outside git.
    const inGit = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: repo }).status === 0;
    if (inGit) expect(spawnSync('git', ['merge-base', '--is-ancestor', commit, 'HEAD'], { cwd: repo }).status).toBe(0);
    else expect(commit).toBe('unknown');

    const port = await freePort();
    const server = startServer(['--data-dir', tempDir('version'), '--port', String(port), '--secure-port', String(await freePort())]);
    await until('the server to serve', async () => (await call(`http://127.0.0.1:${port}/version`)).status === 200, { proc: server });
    const info = JSON.parse((await call(`http://127.0.0.1:${port}/version`)).text);
    expect(info.gitCommit).toBe(commit);
    expect(Date.parse(info.buildDate)).toBeGreaterThan(Date.parse('2025-01-01T00:00:00Z'));
    expect(info.buildDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(['clean', 'dirty']).toContain(info.gitTreeState);
    expect(await server.stop()).toBe(0);
  });
});
