// Watch fan-out: many concurrent watchers on one collection, each on its own
// HTTP/1.1 connection; for each update, the time from sending it until every
// watcher has received its event (so the watchers' reading, in this process on
// the same cores, is part of the figure).
import http from 'node:http';
import https from 'node:https';
import { percentile, pool, request } from './load.mjs';
import { serverCpuSeconds } from './report.mjs';

/**
 * Opens n watches, at most `opening` connecting at a time (the server's listen backlog is 511); resolves once
 * every one has its response headers (the watch is established).
 */
async function openWatchers(url, n, opening = 200, secure) {
  const received = new Int32Array(n);
  const reached = []; // reached[k] = watchers that have seen k events
  const waiters = new Map();
  const requests = [];
  // One socket per watcher, as clients do; over HTTPS with the bearer token of a user RBAC lets watch.
  const keepAlive = secure ? new https.Agent({ keepAlive: true, maxSockets: Infinity, ca: secure.ca }) : new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const client = secure ? https : http;
  const headers = { accept: 'application/json', ...(secure ? { authorization: `Bearer ${secure.token}` } : {}) };
  const onEvent = (i) => {
    const k = ++received[i];
    reached[k] = (reached[k] ?? 0) + 1;
    if (reached[k] === n) waiters.get(k)?.();
  };
  await pool(n, opening, (i) => new Promise((resolve, reject) => {
    const req = client.get(url, { agent: keepAlive, headers }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`watch answered ${res.statusCode}`));
      res.on('data', (chunk) => {
        // Events are newline-terminated; counting newlines is enough and keeps the client cheap.
        for (let p = chunk.indexOf(10); p !== -1; p = chunk.indexOf(10, p + 1)) onEvent(i);
      });
      res.on('error', () => undefined);
      resolve();
    });
    req.on('error', reject);
    requests.push(req);
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
    close: () => {
      requests.forEach((r) => r.destroy());
      keepAlive.destroy();
    },
  };
}

/** `secure` ({ ca, token }): the watches over HTTPS as that token's user; the updates stay on the plain port. */
export async function watchFanOut(server, { watchers, updates, namespace, secure }) {
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
    const serverBefore = await serverCpuSeconds(server);
    const here = process.cpuUsage();
    for (let k = 1; k <= updates; k++) {
      const t = performance.now();
      const patch = request(`${base}/hot`, { method: 'PATCH', body: JSON.stringify({ data: { n: String(k) } }), headers: { 'content-type': 'application/merge-patch+json' } });
      await Promise.all([patch, w.allReached(k, 30_000)]);
      latencies.push(performance.now() - t);
    }
    const used = process.cpuUsage(here);
    cpu = { server: (((await serverCpuSeconds(server)) - serverBefore) * 1e6) / updates, client: (used.user + used.system) / updates };
  } finally {
    w.close();
  }
  latencies.sort((a, b) => a - b);
  return { watchers, updates, openSeconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), cpuUsPerUpdate: cpu.server, clientCpuUsPerUpdate: cpu.client };
}
