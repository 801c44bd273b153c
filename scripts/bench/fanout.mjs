// Watch fan-out: many concurrent watchers on one collection, each on its own
// HTTP/1.1 connection; for each update, the time from sending it until every
// watcher has received its event (so the watchers' reading, in this process on
// the same cores, is part of the figure). Each watcher is a bare socket that
// counts event lines: node:http's client spent 14-18 µs of CPU per watcher and
// event (parsing, streams, a 'data' event), as much as the server's sending, and
// on two cores that time is taken from the server.
import net from 'node:net';
import tls from 'node:tls';
import { percentile, pool, request } from './load.mjs';
import { serverCpuSeconds } from './report.mjs';

const CR = 13;
const LF = 10;

/**
 * Opens n watches, at most `opening` connecting at a time (the server's listen backlog is 511); resolves once
 * every one has its response headers (the watch is established).
 */
async function openWatchers(url, n, opening = 200, secure) {
  const u = new URL(url);
  const received = new Int32Array(n);
  const afterCr = new Uint8Array(n); // the last byte read was a CR
  const reached = []; // reached[k] = watchers that have seen k events
  const waiters = new Map();
  const sockets = [];
  const head = `GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nAccept: application/json\r\nUser-Agent: bench-watcher\r\n${secure ? `Authorization: Bearer ${secure.token}\r\n` : ''}\r\n`;
  // One buffer for every plain socket: each read is consumed before the next socket's is taken.
  const into = Buffer.allocUnsafe(64 * 1024);
  // An event is a JSON line: its LF follows JSON text, where the chunk framing and the head end their lines with CR LF.
  const onBytes = (i, buf, len) => {
    let cr = afterCr[i];
    for (let p = 0; p < len; p++) {
      const b = buf[p];
      if (b === LF && !cr) {
        const k = ++received[i];
        reached[k] = (reached[k] ?? 0) + 1;
        if (reached[k] === n) waiters.get(k)?.();
      }
      cr = b === CR ? 1 : 0;
    }
    afterCr[i] = cr;
  };
  await pool(n, opening, (i) => new Promise((resolve, reject) => {
    let started = false;
    const establish = (buf, len) => {
      // The status line arrives first, in the first read.
      if (buf.toString('latin1', 0, Math.min(len, 12)) !== 'HTTP/1.1 200') return reject(new Error(`watch answered ${buf.toString('latin1', 0, Math.min(len, 40))}`));
      started = true;
      resolve();
    };
    const read = (buf, len) => {
      if (!started) establish(buf, len);
      onBytes(i, buf, len);
    };
    const opts = { host: u.hostname, port: Number(u.port) };
    const socket = secure
      ? tls.connect({ ...opts, ca: secure.ca, servername: u.hostname === '127.0.0.1' ? undefined : u.hostname }).on('data', (chunk) => read(chunk, chunk.length))
      : net.connect({ ...opts, onread: { buffer: into, callback: (len, buf) => void read(buf, len) } });
    socket.once(secure ? 'secureConnect' : 'connect', () => socket.write(head));
    socket.on('error', (e) => (started ? undefined : reject(e)));
    if (!secure) socket.setNoDelay(true);
    sockets.push(socket);
  }));
  return {
    /** Resolves when all watchers have seen k events (rejects after timeoutMs). */
    allReached: (k, timeoutMs) => (reached[k] ?? 0) === n ? Promise.resolve() : new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${reached[k] ?? 0}/${n} watchers got event ${k}`)), timeoutMs);
      waiters.set(k, () => {
        clearTimeout(timer);
        resolve();
      });
    }),
    close: () => sockets.forEach((s) => s.destroy()),
  };
}

/**
 * `secure` ({ ca, token }): the watches over HTTPS as that token's user; the updates stay on the plain port.
 * `warmup` updates go first, untimed: the first fan-outs to thousands of sockets run while the JIT still compiles
 * the write path (on a fresh server, to 10,000 watchers, the first five took 226-271 ms and the next 95 took
 * 96-176). The p99 of n updates is the ceil(n/100)-th slowest: of 100, the single slowest.
 */
export async function watchFanOut(server, { watchers, updates, namespace, secure, warmup = 5 }) {
  const base = `${server.url}/api/v1/namespaces/${namespace}/configmaps`;
  // The namespace first, and the root CA ConfigMap the server publishes into it: an object written after the
  // watches start would be one more event each watcher counts, and every update after it would be timed one short.
  await request(`${server.url}/api/v1/namespaces`, { method: 'POST', body: JSON.stringify({ metadata: { name: namespace } }) });
  for (let i = 0; i < 100 && (await request(`${base}/kube-root-ca.crt`)).status !== 200; i++) await new Promise((r) => setTimeout(r, 100));
  const created = await request(base, { method: 'POST', body: JSON.stringify({ metadata: { name: 'hot' }, data: { n: '0' } }) });
  const rv = JSON.parse(created.body).metadata.resourceVersion;
  const opened = performance.now();
  const watchBase = secure ? `${server.secureUrl}/api/v1/namespaces/${namespace}/configmaps` : base;
  const w = await openWatchers(`${watchBase}?watch=1&resourceVersion=${rv}`, watchers, 200, secure);
  const openSeconds = (performance.now() - opened) / 1000;
  const latencies = [];
  let cpu;
  try {
    const update = async (k) => {
      const patch = request(`${base}/hot`, { method: 'PATCH', body: JSON.stringify({ data: { n: String(k) } }), headers: { 'content-type': 'application/merge-patch+json' } });
      await Promise.all([patch, w.allReached(k, 30_000)]);
    };
    for (let k = 1; k <= warmup; k++) await update(k);
    const serverBefore = await serverCpuSeconds(server);
    const here = process.cpuUsage();
    for (let k = warmup + 1; k <= warmup + updates; k++) {
      const t = performance.now();
      await update(k);
      latencies.push(performance.now() - t);
    }
    const used = process.cpuUsage(here);
    cpu = { server: (((await serverCpuSeconds(server)) - serverBefore) * 1e6) / updates, client: (used.user + used.system) / updates };
  } finally {
    w.close();
  }
  latencies.sort((a, b) => a - b);
  return { watchers, updates, warmup, openSeconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), cpuUsPerUpdate: cpu.server, clientCpuUsPerUpdate: cpu.client };
}
