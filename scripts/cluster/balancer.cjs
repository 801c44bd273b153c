#!/usr/bin/env node
// A small TCP load balancer for the local cluster (scripts/cluster-up): it passes TLS through untouched, so
// clients see the replicas' own serving certificates and present their client certificates to them.
// New connections go round-robin to the backends whose /readyz answered 200 at the last check (every
// second, over HTTPS with --ca); a backend that refuses a connection is skipped at once. A connection lives
// on one backend: when that backend goes away the connection is closed and the others are untouched.
//
// Usage: node balancer.cjs --listen 127.0.0.1:6443 --backend 127.0.0.1:7001 --backend 127.0.0.1:7002 [--ca ca.crt]
//        [--server-name NAME]   the name the backends' certificates are checked against (default: each backend's host)
'use strict';
const fs = require('node:fs');
const https = require('node:https');
const net = require('node:net');

const CHECK_INTERVAL_MS = 1000;
const CHECK_TIMEOUT_MS = 2000;

function parseArgs(argv) {
  const opts = { backends: [] };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--listen') opts.listen = hostPort(value);
    else if (flag === '--backend') opts.backends.push(hostPort(value));
    else if (flag === '--ca') opts.ca = fs.readFileSync(value);
    else if (flag === '--server-name') opts.serverName = value;
    else throw new Error(`unknown flag ${flag}`);
  }
  if (!opts.listen || !opts.backends.length) throw new Error('need --listen HOST:PORT and at least one --backend HOST:PORT');
  return opts;
}

function hostPort(text) {
  const i = text.lastIndexOf(':');
  const port = Number(text.slice(i + 1));
  if (i <= 0 || !Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`want HOST:PORT, got "${text}"`);
  return { host: text.slice(0, i), port };
}

const log = (msg, extra = {}) => process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), msg, ...extra })}\n`);

function main() {
  const opts = parseArgs(process.argv.slice(2));
  // Not ready until a first check says so; until then a connection still tries every backend.
  const backends = opts.backends.map((b) => ({ ...b, name: `${b.host}:${b.port}`, ready: undefined }));
  let next = 0;

  const setReady = (b, ready, why) => {
    if (b.ready !== ready) log(ready ? 'backend ready' : 'backend not ready', { backend: b.name, why });
    b.ready = ready;
  };

  // Active checks: /readyz over HTTPS (anonymous may read it); without a CA, a TCP connect.
  const check = (b) =>
    new Promise((resolve) => {
      const done = (ok, why) => {
        setReady(b, ok, why);
        resolve();
      };
      if (!opts.ca) {
        const s = net.connect(b.port, b.host, () => (s.destroy(), done(true)));
        s.setTimeout(CHECK_TIMEOUT_MS, () => (s.destroy(), done(false, 'timeout')));
        s.on('error', (e) => done(false, e.code));
        return;
      }
      const tls = { ca: opts.ca, ...(opts.serverName ? { servername: opts.serverName } : {}) };
      const req = https.get({ host: b.host, port: b.port, path: '/readyz', ...tls, agent: false, timeout: CHECK_TIMEOUT_MS }, (res) => {
        res.resume();
        done(res.statusCode === 200, `readyz ${res.statusCode}`);
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', (e) => done(false, e.code ?? e.message));
    });
  const checkAll = () => Promise.all(backends.map(check)).finally(() => setTimeout(checkAll, CHECK_INTERVAL_MS).unref());

  /** Ready backends first in round-robin order, then the others: a connection is tried everywhere before giving up. */
  const candidates = () => {
    const order = backends.map((_, i) => backends[(next + i) % backends.length]);
    next = (next + 1) % backends.length;
    return [...order.filter((b) => b.ready), ...order.filter((b) => !b.ready)];
  };

  const server = net.createServer({ pauseOnConnect: true }, (client) => {
    client.on('error', () => undefined);
    const tryConnect = (queue) => {
      const b = queue.shift();
      if (!b) return client.destroy();
      const upstream = net.connect(b.port, b.host);
      let connected = false;
      upstream.once('connect', () => {
        connected = true;
        upstream.setNoDelay(true);
        client.setNoDelay(true);
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
      upstream.on('error', (e) => {
        if (connected) return;
        setReady(b, false, e.code ?? e.message);
        tryConnect(queue);
      });
      upstream.on('close', () => {
        if (connected) client.destroy();
      });
      client.on('close', () => upstream.destroy());
    };
    tryConnect(candidates());
  });
  server.on('error', (e) => {
    log('cannot listen', { error: e.message });
    process.exit(1);
  });
  server.listen(opts.listen.port, opts.listen.host, () => {
    const { port } = server.address();
    log('listening', { address: `${opts.listen.host}:${port}`, backends: backends.map((b) => b.name) });
    checkAll();
  });
  const stop = () => {
    // Open connections are not waited for long: their clients reconnect elsewhere.
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

try {
  main();
} catch (e) {
  process.stderr.write(`balancer: ${e.message}\n`);
  process.exit(2);
}
