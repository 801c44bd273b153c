// The parts of the local cluster (scripts/cluster-up): how each is started (etcd members with TLS and client
// certificates, API server replicas, the balancer), how its readiness is asked, and the process helpers.
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const https = require('node:https');
const net = require('node:net');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const distMain = path.join(root, 'dist', 'main.js');
const START_TIMEOUT_MS = 60_000;

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

/** Resolves with undefined when 127.0.0.1:port can be bound now, else with why not (EADDRINUSE, EACCES...). */
function portProblem(port) {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', (e) => resolve(e.code === 'EADDRINUSE' ? 'another process already uses it' : e.message));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(undefined)));
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
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return cmdline.includes(dir) && !/\) Z /.test(stat);
  } catch {
    return true; // no /proc: trust kill(0)
  }
}

function logTail(file, bytes = 3000) {
  try {
    return fs.readFileSync(file, 'utf8').slice(-bytes);
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

/** GET over HTTPS: the status code, 0 when nothing answered. `tls` holds ca, and cert and key when needed. */
function httpsStatus(url, tls) {
  return new Promise((resolve) => {
    const req = https.get(url, { ...tls, agent: false, timeout: 2000 }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve({ status: 0, body: '' }));
  });
}

/** The etcd certificates a state names, read: ca, and the API server's client pair (also used for health checks). */
function etcdClientTls(state) {
  const t = state.etcdTls;
  return { ca: fs.readFileSync(t.caFile), cert: fs.readFileSync(t.certFile), key: fs.readFileSync(t.keyFile) };
}

async function etcdHealthy(state, member) {
  const r = await httpsStatus(`${member.clientUrl}/health`, etcdClientTls(state));
  return r.status === 200 && /"health":\s*"true"/.test(r.body);
}

function memberArgs(state, m) {
  const t = state.etcdTls;
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
    // Clients and peers over TLS, each with a certificate the etcd CA signed.
    '--cert-file', t.memberCertFile, '--key-file', t.memberKeyFile, '--trusted-ca-file', t.caFile, '--client-cert-auth',
    '--peer-cert-file', t.memberCertFile, '--peer-key-file', t.memberKeyFile, '--peer-trusted-ca-file', t.caFile, '--peer-client-cert-auth',
    // Consistent reads are answered from the watch caches once etcd says they are current (see the README).
    '--experimental-watch-progress-notify-interval', '1s',
    '--logger', 'zap',
    '--log-level', 'warn',
  ];
}

function replicaArgs(state, r) {
  const t = state.etcdTls;
  return [
    distMain,
    ...state.serverArgs,
    '--etcd-servers', state.members.map((m) => m.clientUrl).join(','),
    '--etcd-cafile', t.caFile, '--etcd-certfile', t.certFile, '--etcd-keyfile', t.keyFile,
    '--etcd-prefix', state.etcdPrefix,
    '--data-dir', r.dataDir,
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

module.exports = { distMain, root, freePort, portProblem, findOnPath, alive, launch, waitFor, httpsStatus, etcdHealthy, memberArgs, replicaArgs, balancerArgs, sleep };
