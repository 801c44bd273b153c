// Benchmark-only preload (`node --require`), nothing in the product: times each POST of a one-client load in the
// process it is loaded into (the server or the thin proxy), from the request event to the etcd transaction, the
// transaction itself, from its answer to the response's end(), and from end() to the next request, with how long
// the event loop was busy in that last stretch and how much of it went to etcd watch events. On SIGUSR2 it prints
// `[segments] {json}` on stderr (numbered; means and medians in µs) and starts over. SEGMENTS_DIST names the dist/ to hook.
const http = require('node:http');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');

const now = () => performance.now() * 1000;
const records = [];
let current; // the POST in flight (one client: one at a time)
let lastEnd = 0;
let loopAtEnd;
let watchUs = 0;
let reports = 0;

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, req) {
  if (event === 'request' && req.method === 'POST') {
    const t = now();
    const busy = loopAtEnd ? performance.eventLoopUtilization(loopAtEnd).active * 1000 : 0;
    current = { request: t, between: lastEnd ? t - lastEnd : undefined, busyBetween: busy, watchBetween: watchUs };
    watchUs = 0;
  }
  return emit.apply(this, arguments);
};

const end = http.ServerResponse.prototype.end;
http.ServerResponse.prototype.end = function () {
  if (current && this.req?.method === 'POST') {
    current.end = now();
    if (current.txnStart && current.txnEnd) records.push(current);
    lastEnd = current.end;
    loopAtEnd = performance.eventLoopUtilization();
    current = undefined;
  }
  return end.apply(this, arguments);
};

// After the main module has loaded its own copies (same paths, same module instances).
setImmediate(() => {
  const dist = process.env.SEGMENTS_DIST;
  const { EtcdKv } = require(join(dist, 'adapters/etcd/etcd-kv.js'));
  const txn = EtcdKv.prototype.txn;
  EtcdKv.prototype.txn = async function () {
    const r = current;
    if (r) r.txnStart = now();
    try {
      return await txn.apply(this, arguments);
    } finally {
      if (r) r.txnEnd = now();
    }
  };
  const { EtcdWatch } = require(join(dist, 'adapters/etcd/etcd-watch.js'));
  const onResponse = EtcdWatch.prototype.onResponseSafely;
  EtcdWatch.prototype.onResponseSafely = function () {
    const t = now();
    try {
      return onResponse.apply(this, arguments);
    } finally {
      watchUs += now() - t;
    }
  };
});

const stats = (values) => {
  const v = values.filter((x) => x !== undefined).sort((a, b) => a - b);
  return { mean: Math.round(v.reduce((s, x) => s + x, 0) / (v.length || 1)), p50: Math.round(v[v.length >> 1] ?? 0) };
};

process.on('SIGUSR2', () => {
  const r = records.splice(0);
  process.stderr.write(`[segments] ${JSON.stringify({
    report: ++reports,
    requests: r.length,
    beforeEtcd: stats(r.map((x) => x.txnStart - x.request)),
    etcd: stats(r.map((x) => x.txnEnd - x.txnStart)),
    afterEtcd: stats(r.map((x) => x.end - x.txnEnd)),
    between: stats(r.slice(1).map((x) => x.between)),
    busyBetween: stats(r.slice(1).map((x) => x.busyBetween)),
    watchBetween: stats(r.slice(1).map((x) => x.watchBetween)),
  })}\n`);
});
