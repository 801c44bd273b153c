// HTTP and etcd load helpers: keep-alive clients, closed-loop load at a fixed
// concurrency for a fixed time, percentiles.
import http from 'node:http';
import https from 'node:https';

/** A keep-alive agent; with `tls` ({ ca }) an HTTPS one. */
export function agent(maxSockets, tls) {
  return tls ? new https.Agent({ keepAlive: true, maxSockets, ...tls }) : new http.Agent({ keepAlive: true, maxSockets });
}

/** One request; resolves with status and body length (the body is read to the last byte). */
export function request(url, { method = 'GET', body, agent: a, headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const client = url.startsWith('https:') ? https : http;
    const req = client.request(url, { method, agent: a, headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}), ...headers } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * Runs fn(i, loop) from `concurrency` loops until durationMs has passed (i counts calls across loops, loop is the
 * caller's index 0..concurrency-1); ops/s and latency percentiles (ms).
 */
export async function closedLoop(concurrency, durationMs, fn) {
  let next = 0;
  let errors = 0;
  const latencies = [];
  const start = performance.now();
  const end = start + durationMs;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, loop) => {
      while (performance.now() < end) {
        const t = performance.now();
        try {
          await fn(next++, loop);
          latencies.push(performance.now() - t);
        } catch {
          errors++;
        }
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return { opsPerSec: latencies.length / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors, count: latencies.length };
}

/** fn repeated n times, one at a time: latency percentiles (ms) and the count. */
export async function sequential(n, fn) {
  const latencies = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    latencies.push(performance.now() - t);
  }
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), count: n };
}

/** Runs tasks with at most `concurrency` in flight. */
export async function pool(count, concurrency, fn) {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, async () => {
    while (next < count) await fn(next++);
  }));
}
