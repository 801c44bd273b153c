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
  const latencies = [];
  const r = await loadFor(concurrency, durationMs, fn, latencies);
  return summary(latencies, r.seconds, r.errors);
}

/** The closed loop itself: each call's latency pushed to `latencies`; the time it took and the errors. */
async function loadFor(concurrency, durationMs, fn, latencies, first = 0) {
  let next = first;
  let errors = 0;
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
  return { seconds: (performance.now() - start) / 1000, errors, next };
}

function summary(latencies, seconds, errors) {
  latencies.sort((a, b) => a - b);
  return { opsPerSec: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors, count: latencies.length };
}

/** The order of round r: forwards and backwards in turn, starting one further along every two rounds. */
function turnOrder(names, r) {
  const order = r % 2 ? [...names].reverse() : [...names];
  const turn = Math.floor(r / 2) % names.length;
  return [...order.slice(turn), ...order.slice(0, turn)];
}

/**
 * Loads that are compared with each other, run in turns: `rounds` rounds of `sliceMs` each, every round in another
 * order (ABC, CBA, BCA, BAC, CAB, ACB for three). On a shared machine whose speed drifts from one second to the next, back-to-back
 * runs of a few seconds each compare the machine's moments as much as the loads; taking turns spreads the drift over
 * every side alike. sides: { name: { concurrency, fn, cpuSeconds? } }, fn as in closedLoop (i counts across the
 * turns); cpuSeconds() reads the process's CPU seconds for cpuUsPerRequest; setup(), untimed, puts in force what
 * the side needs before each of its slices (e.g. an admission policy bound). Each side's result as closedLoop's.
 */
export async function inTurns(sides, rounds, sliceMs) {
  const names = Object.keys(sides);
  const acc = Object.fromEntries(names.map((n) => [n, { latencies: [], seconds: 0, errors: 0, next: 0, cpu: 0, slices: [] }]));
  for (let r = 0; r < rounds; r++) {
    for (const name of turnOrder(names, r)) {
      const { concurrency, fn, cpuSeconds, setup } = sides[name];
      const a = acc[name];
      if (setup) await setup();
      const before = cpuSeconds ? await cpuSeconds() : 0;
      const count = a.latencies.length;
      const done = await loadFor(concurrency, sliceMs, fn, a.latencies, a.next);
      if (cpuSeconds) {
        const used = (await cpuSeconds()) - before;
        a.cpu += used;
        a.slices.push((used * 1e6) / Math.max(1, a.latencies.length - count));
      }
      a.seconds += done.seconds;
      a.errors += done.errors;
      a.next = done.next;
    }
  }
  return Object.fromEntries(names.map((n) => {
    const a = acc[n];
    const s = summary(a.latencies, a.seconds, a.errors);
    return [n, sides[n].cpuSeconds ? { ...s, cpuUsPerRequest: s.count ? (a.cpu * 1e6) / s.count : NaN, sliceCpuUs: a.slices } : s];
  }));
}

/**
 * The median over rounds of side a's CPU per request over side b's in the same round (inTurns with cpuSeconds):
 * a slice the machine slowed, or that a major collection fell into, moves one ratio of many, not the sum.
 */
export function medianRoundRatio(a, b) {
  const ratios = a.sliceCpuUs.map((x, i) => x / b.sliceCpuUs[i]).sort((x, y) => x - y);
  const mid = ratios.length >> 1;
  return ratios.length % 2 ? ratios[mid] : (ratios[mid - 1] + ratios[mid]) / 2;
}

/**
 * Single requests compared with each other, taken in turns: `rounds` rounds of one call of each side, every round in
 * another order (as inTurns), so that each side meets the machine's moments alike and none always runs after the
 * garbage another left. sides: { name: { fn, cpuSeconds? } }; each side's latency percentiles (ms), count and, with
 * cpuSeconds, cpuUsPerRequest.
 */
export async function requestsInTurns(sides, rounds) {
  const names = Object.keys(sides);
  const acc = Object.fromEntries(names.map((n) => [n, { latencies: [], cpu: 0 }]));
  for (let r = 0; r < rounds; r++) {
    for (const name of turnOrder(names, r)) {
      const { fn, cpuSeconds } = sides[name];
      const before = cpuSeconds ? await cpuSeconds() : 0;
      const t = performance.now();
      await fn();
      acc[name].latencies.push(performance.now() - t);
      if (cpuSeconds) acc[name].cpu += (await cpuSeconds()) - before;
    }
  }
  return Object.fromEntries(names.map((n) => {
    const l = acc[n].latencies.sort((a, b) => a - b);
    const s = { p50: percentile(l, 50), p99: percentile(l, 99), count: l.length };
    return [n, sides[n].cpuSeconds ? { ...s, cpuUsPerRequest: (acc[n].cpu * 1e6) / l.length } : s];
  }));
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
