// Processes the benchmark starts (etcd, server processes, a bare HTTP server),
// all on 127.0.0.1, all stopped by stopAll().
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const children = new Set();
const dirs = new Set();

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function track(child) {
  let output = '';
  const keep = (d) => (output = (output + d).slice(-4000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  children.add(child);
  child.once('exit', () => children.delete(child));
  return {
    pid: child.pid,
    output: () => output,
    alive: () => child.exitCode === null && child.signalCode === null,
    stop: () => stop(child),
  };
}

function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

async function waitHttp(url, proc, what, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!proc.alive()) throw new Error(`${what} exited: ${proc.output()}`);
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (r.ok) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`${what} not ready after ${timeoutMs} ms: ${proc.output()}`);
    await sleep(50);
  }
}

/** etcd on loopback with its data on tmpfs when there is one (as test/support/etcd-harness.ts does). */
export async function startEtcd() {
  const binary = (process.env.PATH ?? '').split(delimiter).map((d) => join(d, 'etcd')).find((p) => existsSync(p));
  if (!binary) throw new Error('etcd is not installed: apt-get install etcd-server');
  const dataDir = scratchDir('bench-etcd-');
  const [client, peer] = [await freePort(), await freePort()];
  const endpoint = `http://127.0.0.1:${client}`;
  const peerUrl = `http://127.0.0.1:${peer}`;
  const child = spawn(binary, [
    '--name', 'bench', '--data-dir', dataDir,
    '--listen-client-urls', endpoint, '--advertise-client-urls', endpoint,
    '--listen-peer-urls', peerUrl, '--initial-advertise-peer-urls', peerUrl, '--initial-cluster', `bench=${peerUrl}`,
    // Progress notifications keep each cache's revision current when other keys change (consistent reads wait for
    // it, and ask for one when they do); every second, as deploy/ and scripts/cluster-up run etcd. At 100 ms, an idle server
    // and etcd each spent about 50 ms of CPU per second on them, during every measured cell.
    '--experimental-watch-progress-notify-interval', '1s',
    '--quota-backend-bytes', String(4 * 1024 ** 3),
    '--logger', 'zap', '--log-level', 'error',
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  const proc = track(child);
  await waitHttp(`${endpoint}/health`, proc, 'etcd');
  return { ...proc, endpoint };
}

/** A fresh directory for data, on tmpfs when there is one (as etcd's), removed by stopAll(). */
export function scratchDir(prefix) {
  const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), prefix));
  dirs.add(dir);
  return dir;
}

const gcPreload = join(dirname(fileURLToPath(import.meta.url)), 'gc-on-signal.cjs');

/** The allocator settings the image runs the server with (the Dockerfile's `ENV MALLOC_…`): measured as deployed. */
function imageEnv(root) {
  const env = {};
  for (const m of readFileSync(join(root, 'Dockerfile'), 'utf8').matchAll(/^ENV (MALLOC_\w+)=(\S+)$/gm)) env[m[1]] = m[2];
  return { ...process.env, ...env };
}

/**
 * `node dist/main.js` on etcd (storage = the endpoint) or on the embedded store (storage = { dataDir }); resolves
 * once /readyz answers ok (so the watch cache is loaded). With { gc: true } the process also gets `--expose-gc` and
 * the benchmark's gc-on-signal preload, and gcMemory() collects garbage in it and resolves with its
 * process.memoryUsage() (rss, heapUsed, external, arrayBuffers…) taken right after. A restart on the same storage
 * passes the first server's certDir (the servers on one store share their CA).
 */
export async function startServer(root, storage, extraArgs = [], { gc = false, certDir = mkdtempSync(join(tmpdir(), 'bench-pki-')), plainEnv = false } = {}) {
  const port = await freePort();
  const securePort = await freePort();
  dirs.add(certDir);
  // BENCH_SERVER_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", to look inside the server.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  if (gc) nodeArgs.push('--expose-gc', '--require', gcPreload);
  const storageArgs = typeof storage === 'string' ? ['--etcd-servers', storage, '--etcd-compaction-interval', '0', '--data-dir', certDir] : ['--data-dir', storage.dataDir];
  const child = spawn(process.execPath, [...nodeArgs, join(root, 'dist/main.js'), ...storageArgs, '--port', String(port),
    '--secure-port', String(securePort), '--cert-dir', certDir, '--log-level', 'warn', ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'], env: plainEnv ? process.env : imageEnv(root) });
  const proc = track(child);
  const gcReports = gc ? reportsOf(child.stderr) : undefined;
  const url = `http://127.0.0.1:${port}`;
  await waitHttp(`${url}/readyz`, proc, 'server', 120_000);
  const gcMemory = async () => {
    if (!gcReports) throw new Error('server started without { gc: true }');
    const report = gcReports.next();
    child.kill('SIGUSR2');
    return report;
  };
  return { ...proc, url, port, secureUrl: `https://127.0.0.1:${securePort}`, certDir, memory: () => memoryOf(child.pid), gcMemory };
}

/** The gc-on-signal preload's reports, one per signal, in order. */
function reportsOf(stream) {
  let text = '';
  const waiting = [];
  stream.on('data', (d) => {
    text += d;
    for (let m = /\[bench-gc\] (\{.*\})\n/.exec(text); m; m = /\[bench-gc\] (\{.*\})\n/.exec(text)) {
      text = text.slice(m.index + m[0].length);
      waiting.shift()?.resolve(JSON.parse(m[1]));
    }
    if (text.length > 65536) text = text.slice(-4096);
  });
  return {
    next: () => new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no gc report from the server within 30 s')), 30_000);
      waiting.push({ resolve: (v) => (clearTimeout(timer), resolve(v)) });
    }),
  };
}

/**
 * A bare node:http server answering every request with the same bytes; with `certDir` (a server's PKI), node:https
 * as well on a second port, with the same key and certificate: what node's own TLS costs per request.
 */
export async function startBareServer(body, certDir, { processes = 1 } = {}) {
  const port = await freePort();
  const securePort = certDir ? await freePort() : 0;
  // The body goes through a file: an argument is limited to 128 KiB.
  const file = join(scratchDir('bench-bare-'), 'body');
  writeFileSync(file, body);
  const serve = [
    `const fs=require('node:fs'),b=fs.readFileSync(process.argv[1]);`,
    `const h=(q,s)=>{s.writeHead(200,{'Content-Type':'application/json','Content-Length':b.length});s.end(b)};`,
    `require('node:http').createServer(h).listen(${port},'127.0.0.1');`,
    certDir ? `require('node:https').createServer({key:fs.readFileSync(process.argv[2]+'/apiserver.key'),cert:fs.readFileSync(process.argv[2]+'/apiserver.crt')},h).listen(${securePort},'127.0.0.1');` : '',
  ].join('');
  // With processes > 1, node:cluster's workers share the port (the primary hands each connection to one of them) and
  // the primary prints their pids: what bare node:http reaches on every core, not on one.
  const code = processes > 1
    ? `const c=require('node:cluster');if(c.isPrimary){const w=[];for(let i=0;i<${processes};i++)w.push(c.fork().process.pid);console.log('workers '+w.join(' '))}else{${serve}}`
    : serve;
  const child = spawn(process.execPath, ['-e', code, file, ...(certDir ? [certDir] : [])], { stdio: ['ignore', 'pipe', 'pipe'] });
  const proc = track(child);
  const url = `http://127.0.0.1:${port}`;
  await waitHttp(url, proc, 'bare server');
  const workers = processes > 1 ? (/workers ([\d ]+)/.exec(proc.output())?.[1] ?? '').split(' ').map(Number) : [];
  if (processes > 1 && workers.length !== processes) throw new Error(`bare server: ${processes} workers expected, got ${workers.length}`);
  // The CPU of all its processes, in seconds.
  const cpuSeconds = () => [child.pid, ...workers].reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);
  return { ...proc, url, cpuSeconds, ...(certDir ? { secureUrl: `https://127.0.0.1:${securePort}` } : {}) };
}

/**
 * The thinnest node:http → etcd create proxy (thin-proxy.cjs) on the build in root/dist: the ceiling rows' server.
 */
export async function startThinProxy(root, endpoint, nodeArgs = []) {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, join(dirname(fileURLToPath(import.meta.url)), 'thin-proxy.cjs'), join(root, 'dist'), endpoint, String(port)], { stdio: ['ignore', 'pipe', 'pipe'], env: imageEnv(root) });
  const proc = track(child);
  const url = `http://127.0.0.1:${port}`;
  await waitHttp(`${url}/cpu`, proc, 'thin proxy');
  return { ...proc, url };
}

/**
 * A process's CPU seconds so far over all its threads, read from outside (Linux /proc): asking the process itself
 * (a /metrics scrape between measured slices) changes what is measured. Nanoseconds from each thread's schedstat;
 * the clock ticks of /proc/<pid>/stat (10 ms, too coarse for a few LISTs) where there is none.
 */
export function cpuSecondsOf(pid) {
  try {
    let ns = 0;
    for (const t of readdirSync(`/proc/${pid}/task`)) ns += Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]);
    return ns / 1e9;
  } catch {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / clockTicks;
  }
}
const clockTicks = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString()) || 100;
  } catch {
    return 100;
  }
})();

/** Current and peak resident memory of a process, in bytes (Linux /proc). */
export function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM'), anon: kb('RssAnon'), file: kb('RssFile') };
}

export async function stopAll() {
  await Promise.all([...children].map((c) => stop(c)));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs.clear();
}
