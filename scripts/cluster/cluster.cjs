// The local cluster behind scripts/cluster-up and scripts/cluster-down: etcd members, API server replicas
// sharing one PKI, and the TCP balancer (balancer.cjs) in front, all on 127.0.0.1, each a detached process
// with its log in the cluster directory. The layout (ports, paths, process ids) is kept in
// <dir>/cluster.json, so `cluster-up` run again starts only what is not running, on the same ports.
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const https = require('node:https');
const net = require('node:net');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const distMain = path.join(root, 'dist', 'main.js');
/** What replicas of one etcd prefix must share (the server refuses to start with another CA). */
const SHARED_PKI_FILES = ['ca.crt', 'ca.key', 'sa.key', 'sa.pub'];
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function findOnPath(name) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  throw new Error(`${name} is not installed (Debian: apt-get install etcd-server)`);
}

const statePath = (dir) => path.join(dir, 'cluster.json');

function readState(dir) {
  try {
    return JSON.parse(fs.readFileSync(statePath(dir), 'utf8'));
  } catch (e) {
    if (e.code === 'ENOENT') return undefined;
    throw new Error(`cannot read ${statePath(dir)}: ${e.message}`);
  }
}

function writeState(state) {
  const tmp = `${statePath(state.dir)}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`);
  fs.renameSync(tmp, statePath(state.dir));
}

/** True when `pid` runs and its command line names this cluster's directory (a reused pid does not). */
function alive(pid, dir) {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    const state = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return cmdline.includes(dir) && !/\) Z /.test(state);
  } catch {
    return true; // no /proc: trust kill(0)
  }
}

function logTail(file, bytes = 3000) {
  try {
    const text = fs.readFileSync(file, 'utf8');
    return text.slice(-bytes);
  } catch {
    return '';
  }
}

/** Starts `cmd args` detached, output appended to `log`; returns the pid. */
function launch(cmd, args, log, cwd) {
  const fd = fs.openSync(log, 'a');
  try {
    const child = spawn(cmd, args, { cwd, detached: true, stdio: ['ignore', fd, fd] });
    child.unref();
    return child.pid;
  } finally {
    fs.closeSync(fd);
  }
}

async function waitFor(what, probe, pid, dir, log) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (await probe()) return;
    if (!alive(pid, dir)) throw new Error(`${what} exited during start; the end of ${log}:\n${logTail(log)}`);
    if (Date.now() > deadline) throw new Error(`${what} not ready after ${START_TIMEOUT_MS / 1000} s; see ${log}`);
    await sleep(200);
  }
}

async function etcdHealthy(clientUrl) {
  try {
    const res = await fetch(`${clientUrl}/health`, { signal: AbortSignal.timeout(1000) });
    return res.ok && (await res.json()).health === 'true';
  } catch {
    return false;
  }
}

function httpsStatus(port, requestPath, ca) {
  return new Promise((resolve) => {
    const req = https.get({ host: '127.0.0.1', port, path: requestPath, ca, agent: false, timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

function memberArgs(state, m) {
  return [
    '--name', m.name,
    '--data-dir', m.dataDir,
    '--listen-client-urls', m.clientUrl,
    '--advertise-client-urls', m.clientUrl,
    '--listen-peer-urls', m.peerUrl,
    '--initial-advertise-peer-urls', m.peerUrl,
    '--initial-cluster', state.members.map((x) => `${x.name}=${x.peerUrl}`).join(','),
    '--initial-cluster-state', 'new',
    '--initial-cluster-token', state.token,
    // Consistent reads are answered from the watch caches once etcd says they are current (see the README).
    '--experimental-watch-progress-notify-interval', '1s',
    '--logger', 'zap',
    '--log-level', 'warn',
  ];
}

function replicaArgs(state, r) {
  return [
    distMain,
    ...state.serverArgs,
    '--etcd-servers', state.members.map((m) => m.clientUrl).join(','),
    '--etcd-prefix', state.etcdPrefix,
    '--cert-dir', r.certDir,
    '--bind-address', '127.0.0.1',
    '--secure-port', String(r.securePort),
  ];
}

function balancerArgs(state) {
  return [
    path.join(__dirname, 'balancer.cjs'),
    '--listen', `127.0.0.1:${state.balancer.port}`,
    ...state.replicas.flatMap((r) => ['--backend', `127.0.0.1:${r.securePort}`]),
    '--ca', path.join(state.pkiDir, 'ca.crt'),
  ];
}

async function plan(dir, opts) {
  const members = [];
  for (let i = 0; i < opts.members; i++) {
    members.push({
      name: `etcd-${i}`,
      clientUrl: `http://127.0.0.1:${await freePort()}`,
      peerUrl: `http://127.0.0.1:${await freePort()}`,
      dataDir: path.join(dir, `etcd-${i}`),
      pid: 0,
    });
  }
  const replicas = [];
  for (let i = 0; i < opts.replicas; i++) {
    replicas.push({ name: `replica-${i}`, securePort: await freePort(), certDir: path.join(dir, `replica-${i}`, 'pki'), pid: 0 });
  }
  return {
    dir,
    token: `svc-apiserver-${crypto.randomBytes(6).toString('hex')}`,
    etcdPrefix: '/registry',
    serverArgs: opts.serverArgs,
    pkiDir: path.join(dir, 'pki'),
    kubeconfig: path.join(dir, 'admin.kubeconfig'),
    members,
    replicas,
    balancer: { port: opts.port || (await freePort()), pid: 0 },
  };
}

/** The cluster CA and service-account keys every replica copies, and the admin kubeconfig for the balancer. */
async function ensureSharedPki(state) {
  const pki = require(path.join(root, 'dist', 'adapters', 'pki'));
  const ensured = await pki.ensurePki(state.pkiDir, '127.0.0.1', new Date());
  await pki.ensureAdminKubeconfig(state.kubeconfig, `https://127.0.0.1:${state.balancer.port}`, ensured.ca, new Date());
  for (const r of state.replicas) {
    fs.mkdirSync(r.certDir, { recursive: true, mode: 0o700 });
    for (const f of SHARED_PKI_FILES) fs.copyFileSync(path.join(state.pkiDir, f), path.join(r.certDir, f));
  }
}

async function startMissingMembers(state, log) {
  const etcd = findOnPath('etcd');
  const started = [];
  for (const m of state.members) {
    if (alive(m.pid, state.dir)) continue;
    fs.mkdirSync(m.dataDir, { recursive: true, mode: 0o700 });
    m.pid = launch(etcd, memberArgs(state, m), path.join(state.dir, `${m.name}.log`), state.dir);
    started.push(m);
    writeState(state);
    log(`started ${m.name} (pid ${m.pid}) on ${m.clientUrl}`);
  }
  // A fresh member is healthy only once the cluster has a leader, so all start before any is waited for.
  for (const m of started) await waitFor(m.name, () => etcdHealthy(m.clientUrl), m.pid, state.dir, path.join(state.dir, `${m.name}.log`));
}

async function startMissingReplicas(state, log) {
  const ca = fs.readFileSync(path.join(state.pkiDir, 'ca.crt'));
  for (const r of state.replicas) {
    if (alive(r.pid, state.dir)) continue;
    const logFile = path.join(state.dir, `${r.name}.log`);
    r.pid = launch(process.execPath, replicaArgs(state, r), logFile, path.dirname(r.certDir));
    writeState(state);
    await waitFor(r.name, async () => (await httpsStatus(r.securePort, '/readyz', ca)) === 200, r.pid, state.dir, logFile);
    log(`started ${r.name} (pid ${r.pid}) on https://127.0.0.1:${r.securePort}`);
  }
}

async function startMissingBalancer(state, log) {
  const b = state.balancer;
  if (alive(b.pid, state.dir)) return;
  const logFile = path.join(state.dir, 'balancer.log');
  b.pid = launch(process.execPath, balancerArgs(state), logFile, state.dir);
  writeState(state);
  const ca = fs.readFileSync(path.join(state.pkiDir, 'ca.crt'));
  await waitFor('balancer', async () => (await httpsStatus(b.port, '/readyz', ca)) === 200, b.pid, state.dir, logFile);
  log(`started the balancer (pid ${b.pid}) on https://127.0.0.1:${b.port}`);
}

/**
 * Starts whatever of the cluster in `dir` is not running (all of it the first time) and waits until each
 * part is ready. Options apply to a new cluster only; an existing one keeps its recorded layout.
 */
async function up(dirArg, options = {}, log = () => undefined) {
  const opts = { members: 3, replicas: 2, port: 6443, serverArgs: [], ...options };
  if (!fs.existsSync(distMain)) {
    log('building dist/ (npm run build)');
    const built = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('npm run build failed');
  }
  const dir = path.resolve(dirArg);
  fs.mkdirSync(dir, { recursive: true });
  let state = readState(dir);
  const fresh = !state;
  for (let attempt = 1; ; attempt++) {
    if (!state) {
      state = await plan(dir, opts);
      writeState(state);
    }
    try {
      await ensureSharedPki(state);
      await startMissingMembers(state, log);
      await startMissingReplicas(state, log);
      await startMissingBalancer(state, log);
      return state;
    } catch (e) {
      // Free ports are picked before they are bound: another program may take one in between.
      if (!fresh || attempt >= 3 || !/address already in use|EADDRINUSE/.test(e.message)) throw e;
      log('a port was taken meanwhile; starting over on other ports');
      await stopAll(state);
      for (const m of state.members) fs.rmSync(m.dataDir, { recursive: true, force: true });
      state = undefined;
    }
  }
}

async function stopPid(pid, dir) {
  if (!alive(pid, dir)) return;
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (alive(pid, dir)) {
    if (Date.now() > deadline) {
      process.kill(pid, 'SIGKILL');
      break;
    }
    await sleep(100);
  }
}

async function stopAll(state) {
  await Promise.all(state.replicas.map((r) => stopPid(r.pid, state.dir)));
  await stopPid(state.balancer.pid, state.dir);
  await Promise.all(state.members.map((m) => stopPid(m.pid, state.dir)));
}

/** Stops every process of the cluster in `dir` (replicas, balancer, then etcd); `purge` also removes the directory. */
async function down(dirArg, { purge = false } = {}, log = () => undefined) {
  const dir = path.resolve(dirArg);
  const state = readState(dir);
  if (!state) {
    log(`no cluster in ${dir}`);
    return;
  }
  await stopAll(state);
  log(`stopped the cluster in ${dir}`);
  if (purge) {
    fs.rmSync(dir, { recursive: true, force: true });
    log(`removed ${dir}`);
  }
}

module.exports = { up, down, readState, alive, SHARED_PKI_FILES };
