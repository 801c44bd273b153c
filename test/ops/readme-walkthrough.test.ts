/**
 * The README as a new user meets it. Its walkthrough blocks run as printed, in order, in one shell, against a
 * fresh server (`node dist/main.js`, its data in ./data of a scratch directory laid out like the checkout), each
 * command's promise (`# → text`, `# ✗ text`) checked; the client-node example runs as printed with the version
 * the README names; what the commands leave behind is covered by .gitignore; every path, link and server flag the
 * README names exists; and it stays a short read.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDebianTool } from '../support/etcd-harness';
import { adminHttpsStatus, distMain, freePort } from '../support/server-process';
import { commandsOf, markedBlocks, readme, type Command } from './support/readme';
import { removeTempDirs, repo, startServer, stopAll, tempDir, until } from './support/ops';

jest.setTimeout(240_000);

afterAll(async () => {
  await stopAll();
  removeTempDirs();
});

/** Runs the commands in one bash (variables and exports carry over), each one's output and status kept apart. */
function runInOneShell(commands: Command[], cwd: string, env: NodeJS.ProcessEnv): Promise<Array<{ code: number; output: string }>> {
  const out = tempDir('walkthrough-out');
  const script = ['set -o pipefail', ...commands.map((c, i) => `{ ${c.text}\n} > ${out}/${i} 2>&1 < /dev/null; echo $? > ${out}/${i}.rc`)].join('\n');
  return new Promise((resolve, reject) => {
    const bash = spawn('bash', ['-c', script], { cwd, env, stdio: ['ignore', 'inherit', 'inherit'] });
    const timer = setTimeout(() => bash.kill('SIGKILL'), 200_000);
    bash.on('error', reject);
    bash.on('exit', () => {
      clearTimeout(timer);
      resolve(commands.map((_, i) => ({ code: Number(readFileSync(`${out}/${i}.rc`, 'utf8')), output: readFileSync(`${out}/${i}`, 'utf8') })));
    });
  });
}

describe('the README', () => {
  const text = readme();
  let work: string;
  let kubeconfig: string;
  const env: NodeJS.ProcessEnv = { ...process.env };
  // What the scratch directory holds before the walkthrough: the checkout's parts the commands use.
  const provided = ['dist', 'examples'];

  beforeAll(async () => {
    ensureDebianTool('openssl', 'openssl');
    work = tempDir('walkthrough');
    for (const d of provided) symlinkSync(join(repo, d), join(work, d));
    delete env.KUBECONFIG;
    env.HOME = tempDir('home'); // kubectl's discovery cache and config of its own
    const securePort = await freePort();
    const server = startServer(['--data-dir', join(work, 'data'), '--secure-port', String(securePort)], { cwd: work });
    kubeconfig = join(work, 'data', 'admin.kubeconfig');
    await until('a fresh server', async () => existsSync(kubeconfig) && (await adminHttpsStatus(kubeconfig, `https://127.0.0.1:${securePort}/readyz`)) === 200, { proc: server, timeoutMs: 60_000 });
  });

  test('every walkthrough command works as printed, and says what its comment promises', async () => {
    const commands = markedBlocks(text, 'walkthrough').flatMap(commandsOf);
    expect(commands.length).toBeGreaterThan(20);
    const results = await runInOneShell(commands, work, env);
    const failures = commands.flatMap((c, i) => {
      const { code, output } = results[i];
      const ok = c.expect?.fails ? code !== 0 : code === 0;
      const said = !c.expect || output.includes(c.expect.output);
      return ok && said ? [] : [`$ ${c.text}\n(exit ${code}) ${output.trim()}`];
    });
    expect(failures).toEqual([]);
  });

  test('the client-node example runs as printed on this Node, with the version the README installs', async () => {
    const install = /npm install @kubernetes\/client-node@(\d+\.\d+)/.exec(text);
    expect(install).not.toBeNull();
    // The project keeps that version beside its own client-node under another name.
    const shipped = JSON.parse(readFileSync(join(repo, 'node_modules/@kubernetes/client-node-1/package.json'), 'utf8')).version as string;
    expect(shipped.startsWith(`${install![1]}.`)).toBe(true);
    const project = tempDir('client-node-project');
    mkdirSync(join(project, 'node_modules', '@kubernetes'), { recursive: true });
    symlinkSync(join(repo, 'node_modules/@kubernetes/client-node-1'), join(project, 'node_modules/@kubernetes/client-node'));
    const [example] = markedBlocks(text, 'client-node');
    writeFileSync(join(project, 'example.mjs'), example);
    const run = spawnSync(process.execPath, ['example.mjs'], { cwd: project, env: { ...env, KUBECONFIG: kubeconfig }, encoding: 'utf8', timeout: 60_000 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('added from-node');
    expect(run.stdout).toContain('deleted from-node');
  });

  test('what the commands leave in the checkout is ignored by git', () => {
    const left = readdirSync(work).filter((f) => !provided.includes(f) || !lstatSync(join(work, f)).isSymbolicLink());
    expect(left).toEqual(expect.arrayContaining(['data', 'backups', 'restored', 'alice.key']));
    // A directory is named with its slash: git matches directory patterns (data/) only then.
    const names = left.map((f) => (lstatSync(join(work, f)).isDirectory() ? `${f}/` : f));
    const check = spawnSync('git', ['check-ignore', '--no-index', '--verbose', '--non-matching', ...names], { cwd: repo, encoding: 'utf8' });
    const notIgnored = check.stdout.split('\n').filter((l) => l.startsWith('::')).map((l) => l.slice(2).trim());
    expect(notIgnored).toEqual([]);
    // So is what the etcd section and cluster-up write.
    for (const path of ['etcd-pki/ca.key', 'etcd-data/member', 'cluster/cluster.json', 'admin.kubeconfig']) {
      expect(spawnSync('git', ['check-ignore', '-q', '--no-index', path], { cwd: repo }).status).toBe(0);
    }
  });

  test('every path and link it names is in the repository', () => {
    const paths = [...text.matchAll(/(?<![\w./-])((?:docs|examples|scripts|deploy|test|src)\/[\w./-]*[\w/]|Dockerfile|\.ci\/run)/g)].map((m) => m[1]);
    const links = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]).filter((l) => !/^https?:/.test(l));
    expect(paths.length + links.length).toBeGreaterThan(15);
    expect([...new Set([...paths, ...links])].filter((p) => !existsSync(join(repo, p)))).toEqual([]);
  });

  test('every server flag it names is one the server takes', () => {
    const help = spawnSync(process.execPath, [distMain, '--help'], { encoding: 'utf8' }).stdout;
    const serverLines = text.split('\n').filter((l) => /npm start --|dist\/main\.js|^\| `--/.test(l) || /^\s+--etcd-(cert|key)file/.test(l));
    const flags = new Set(serverLines.flatMap((l) => [...l.matchAll(/(?<![\w-])--([a-z][a-z-]+)/g)].map((m) => m[1])));
    expect(flags.size).toBeGreaterThan(8);
    expect([...flags].filter((f) => !help.includes(`--${f}`))).toEqual([]);
  });

  test('it is a ten-minute read', () => {
    expect(text.split('\n').length).toBeLessThan(300);
  });
});
