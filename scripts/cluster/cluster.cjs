// The local cluster behind scripts/cluster-up and scripts/cluster-down: etcd members (TLS with client
// certificates, between members too), API server replicas sharing one PKI, and the TCP balancer (balancer.cjs)
// in front, all on 127.0.0.1, each a detached process with its log in the cluster directory. The layout (ports,
// paths, process ids) is kept in <dir>/cluster.json, so `cluster-up` run again starts only what is not running,
// on the same ports; every port it needs is checked before anything starts, and a first start that fails
// stops what it started.
'use strict';
const { spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const parts = require('./parts.cjs');

const { alive, distMain, root, freePort, launch, waitFor } = parts;
/** What replicas of one etcd prefix must share (the server refuses to start with another CA). */
const SHARED_PKI_FILES = ['ca.crt', 'ca.key', 'sa.key', 'sa.pub'];
const STOP_TIMEOUT_MS = 15_000;

const statePath = (dir) => path.join(dir, 'cluster.json');

function readState(dir) {
  let state;
  try {
    state = JSON.parse(fs.readFileSync(statePath(dir), 'utf8'));
  } catch (e) {
    if (e.code === 'ENOENT') return undefined;
    throw new Error(`cannot read ${statePath(dir)}: ${e.message}`);
  }
  if (!state.etcdTls) throw new Error(`${dir} holds a cluster from an older cluster-up (etcd without TLS): scripts/cluster-down --dir ${dir} --purge, then up again`);
  return state;
}

function writeState(state) {
  const tmp = `${statePath(state.dir)}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`);
  fs.renameSync(tmp, statePath(state.dir));
}

async function plan(dir, opts) {
  const members = [];
  for (let i = 0; i < opts.members; i++) {
    members.push({
      name: `etcd-${i}`,
      clientUrl: `https://127.0.0.1:${await freePort()}`,
      peerUrl: `https://127.0.0.1:${await freePort()}`,
      dataDir: path.join(dir, `etcd-${i}`),
      pid: 0,
    });
  }
  const replicas = [];
  for (let i = 0; i < opts.replicas; i++) {
    const dataDir = path.join(dir, `replica-${i}`);
    replicas.push({ name: `replica-${i}`, securePort: await freePort(), dataDir, certDir: path.join(dataDir, 'pki'), pid: 0 });
  }
  const etcdPki = path.join(dir, 'etcd-pki');
  return {
    dir,
    token: `svc-apiserver-${crypto.randomBytes(6).toString('hex')}`,
    etcdPrefix: '/registry',
    serverArgs: opts.serverArgs,
    pkiDir: path.join(dir, 'pki'),
    kubeconfig: path.join(dir, 'admin.kubeconfig'),
    etcdTls: {
      caFile: path.join(etcdPki, 'ca.crt'),
      memberCertFile: path.join(etcdPki, 'server.crt'),
      memberKeyFile: path.join(etcdPki, 'server.key'),
      certFile: path.join(etcdPki, 'apiserver-etcd-client.crt'),
      keyFile: path.join(etcdPki, 'apiserver-etcd-client.key'),
    },
    members,
    replicas,
    balancer: { port: opts.port === 0 ? await freePort() : opts.port, pid: 0 },
  };
}

/** The port of every part that is not running, checked before any starts: a taken one is named at once. */
async function checkPorts(state) {
  const wanted = [
    ...state.members.filter((m) => !alive(m.pid, state.dir)).flatMap((m) => [[new URL(m.clientUrl).port, `${m.name}'s client port`], [new URL(m.peerUrl).port, `${m.name}'s peer port`]]),
    ...state.replicas.filter((r) => !alive(r.pid, state.dir)).map((r) => [r.securePort, `${r.name}'s port`]),
    ...(alive(state.balancer.pid, state.dir) ? [] : [[state.balancer.port, "the balancer's port (--port)"]]),
  ];
  for (const [port, what] of wanted) {
    const problem = await parts.portProblem(Number(port));
    if (problem) throw Object.assign(new Error(`cannot use 127.0.0.1:${port}, ${what}: ${problem}`), { port: Number(port), what });
  }
}

/** The cluster CA and service-account keys every replica copies, the admin kubeconfig, and etcd's certificates. */
async function ensurePki(state) {
  const pki = require(path.join(root, 'dist', 'adapters', 'pki'));
  const ensured = await pki.ensurePki(state.pkiDir, '127.0.0.1', new Date());
  await pki.ensureAdminKubeconfig(state.kubeconfig, `https://127.0.0.1:${state.balancer.port}`, ensured.ca, new Date());
  for (const r of state.replicas) {
    fs.mkdirSync(r.certDir, { recursive: true, mode: 0o700 });
    for (const f of SHARED_PKI_FILES) fs.copyFileSync(path.join(state.pkiDir, f), path.join(r.certDir, f));
  }
  await pki.ensureEtcdPki(path.dirname(state.etcdTls.caFile), [], new Date());
}

async function startMissingMembers(state, log) {
  const etcd = parts.findOnPath('etcd');
  const started = [];
  for (const m of state.members) {
    if (alive(m.pid, state.dir)) continue;
    fs.mkdirSync(m.dataDir, { recursive: true, mode: 0o700 });
    m.pid = launch(etcd, parts.memberArgs(state, m), path.join(state.dir, `${m.name}.log`), state.dir);
    started.push(m);
    writeState(state);
    log(`started ${m.name} (pid ${m.pid}) on ${m.clientUrl}`);
  }
  // A fresh member is healthy only once the cluster has a leader, so all start before any is waited for.
  for (const m of started) await waitFor(m.name, () => parts.etcdHealthy(state, m), m.pid, state.dir, path.join(state.dir, `${m.name}.log`));
}

async function startMissingReplicas(state, log) {
  const ca = fs.readFileSync(path.join(state.pkiDir, 'ca.crt'));
  for (const r of state.replicas) {
    if (alive(r.pid, state.dir)) continue;
    const logFile = path.join(state.dir, `${r.name}.log`);
    r.pid = launch(process.execPath, parts.replicaArgs(state, r), logFile, r.dataDir);
    writeState(state);
    await waitFor(r.name, async () => (await parts.httpsStatus(`https://127.0.0.1:${r.securePort}/readyz`, { ca })).status === 200, r.pid, state.dir, logFile);
    log(`started ${r.name} (pid ${r.pid}) on https://127.0.0.1:${r.securePort}`);
  }
}

async function startMissingBalancer(state, log) {
  const b = state.balancer;
  if (alive(b.pid, state.dir)) return;
  const logFile = path.join(state.dir, 'balancer.log');
  b.pid = launch(process.execPath, parts.balancerArgs(state), logFile, state.dir);
  writeState(state);
  const ca = fs.readFileSync(path.join(state.pkiDir, 'ca.crt'));
  await waitFor('balancer', async () => (await parts.httpsStatus(`https://127.0.0.1:${b.port}/readyz`, { ca })).status === 200, b.pid, state.dir, logFile);
  log(`started the balancer (pid ${b.pid}) on https://127.0.0.1:${b.port}`);
}

/**
 * Starts whatever of the cluster in `dir` is not running (all of it the first time) and waits until each
 * part is ready. Options apply to a new cluster only; an existing one keeps its recorded layout.
 */
async function up(dirArg, options = {}, log = () => undefined) {
  const opts = { members: 3, replicas: 2, port: 6443, serverArgs: [], ...options };
  const dir = path.resolve(dirArg);
  let state = readState(dir);
  const fresh = !state;
  if (fresh && opts.port !== 0) {
    // The one port the user chose: refused before anything is built, written or started.
    const problem = await parts.portProblem(opts.port);
    if (problem) throw new Error(`cannot use 127.0.0.1:${opts.port} for the balancer (--port): ${problem}; choose another with --port N, or --port 0 for any free port`);
  }
  if (!fs.existsSync(distMain)) {
    log('building dist/ (npm run build)');
    const built = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('npm run build failed');
  }
  const createdDir = !fs.existsSync(dir);
  fs.mkdirSync(dir, { recursive: true });
  for (let attempt = 1; ; attempt++) {
    if (!state) {
      state = await plan(dir, opts);
      writeState(state);
    }
    try {
      await checkPorts(state);
      await ensurePki(state);
      await startMissingMembers(state, log);
      await startMissingReplicas(state, log);
      await startMissingBalancer(state, log);
      return state;
    } catch (e) {
      if (!fresh) throw e; // a cluster that ran before keeps what runs; cluster-down stops it
      // A first start leaves nothing running, and nothing that a next cluster-up would take for a layout.
      await stopAll(state);
      if (createdDir) fs.rmSync(dir, { recursive: true, force: true });
      else for (const f of [statePath(dir), ...state.members.map((m) => m.dataDir)]) fs.rmSync(f, { recursive: true, force: true });
      // Free ports are picked before they are bound: another program may take one of ours in between.
      const ours = e.port !== undefined && e.port !== opts.port;
      if (attempt >= 3 || !(ours || /address already in use|EADDRINUSE/.test(e.message))) throw e;
      log('a port was taken meanwhile; starting over on other ports');
      fs.mkdirSync(dir, { recursive: true });
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
    await parts.sleep(100);
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
  let state;
  try {
    state = JSON.parse(fs.readFileSync(statePath(dir), 'utf8')); // any layout, older ones too
  } catch (e) {
    if (e.code !== 'ENOENT') throw new Error(`cannot read ${statePath(dir)}: ${e.message}`);
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
