// `npm run segments`: where one client's create spends its time, inside the server and inside the thin proxy
// (scripts/bench/thin-proxy.cjs), both on one etcd, in alternating rounds so that machine load hits both alike.
// Each process is timed by scripts/bench/segments-preload.cjs (see there); the table gives means (medians) in µs.
// SEGMENTS_ROUNDS (default 3) rounds of SEGMENTS_SECONDS (default 3) each.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agent, closedLoop, request } from './bench/load.mjs';
import { cmBody } from './bench/report.mjs';
import { sleep, startEtcd, startServer, startThinProxy, stopAll } from './bench/procs.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const rounds = Number(process.env.SEGMENTS_ROUNDS ?? 3);
const seconds = Number(process.env.SEGMENTS_SECONDS ?? 3);
const preload = join(dirname(fileURLToPath(import.meta.url)), 'bench/segments-preload.cjs');
const small = { k: 'v'.repeat(100) };

try {
  const etcd = await startEtcd();
  process.env.SEGMENTS_DIST = join(root, 'dist');
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --require ${preload}`.trim();
  const server = await startServer(root, etcd.endpoint);
  const proxy = await startThinProxy(root, etcd.endpoint);
  delete process.env.NODE_OPTIONS;
  const sides = [
    { name: 'server', proc: server, url: `${server.url}/api/v1/namespaces/segments/configmaps`, rows: [] },
    { name: 'thin proxy', proc: proxy, url: `${proxy.url}/segments`, rows: [] },
  ];
  let n = 0;
  const post = (side, a) => request(side.url, { method: 'POST', body: cmBody(`s-${n++}`, small), agent: a });
  for (const side of sides) {
    const w = agent(16);
    await closedLoop(16, 5000, () => post(side, w));
    await closedLoop(1, 2000, () => post(side, w));
    w.destroy();
    side.agent = agent(1);
  }
  /** Signals the side and waits for its next numbered report. */
  const report = async (side) => {
    side.reports = (side.reports ?? 0) + 1;
    process.kill(side.proc.pid, 'SIGUSR2');
    for (let i = 0; i < 100; i++) {
      const lines = [...side.proc.output().matchAll(/\[segments\] (\{.*\})\n/g)].map((m) => JSON.parse(m[1]));
      const found = lines.find((l) => l.report === side.reports);
      if (found) return found;
      await sleep(20);
    }
    throw new Error(`${side.name}: no report within 2 s`);
  };
  for (let r = 0; r < rounds; r++) {
    for (const side of r % 2 ? [...sides].reverse() : sides) {
      await closedLoop(1, 300, () => post(side, side.agent)); // settle into the pattern before timing
      await report(side);
      const load = await closedLoop(1, seconds * 1000, () => post(side, side.agent));
      side.rows.push({ perSecond: load.count / seconds, ...(await report(side)) });
    }
  }
  const cell = (rows, key) => {
    const mean = Math.round(rows.reduce((s, x) => s + x[key].mean, 0) / rows.length);
    const p50 = Math.round(rows.reduce((s, x) => s + x[key].p50, 0) / rows.length);
    return `${mean} (${p50})`;
  };
  const lines = [
    ['', ...sides.map((s) => s.name)],
    ['creates/s', ...sides.map((s) => Math.round(s.rows.reduce((t, x) => t + x.perSecond, 0) / s.rows.length))],
    ['request → etcd call', ...sides.map((s) => cell(s.rows, 'beforeEtcd'))],
    ['etcd call', ...sides.map((s) => cell(s.rows, 'etcd'))],
    ['etcd answer → end()', ...sides.map((s) => cell(s.rows, 'afterEtcd'))],
    ['end() → next request', ...sides.map((s) => cell(s.rows, 'between'))],
    ['  of which the loop was busy', ...sides.map((s) => cell(s.rows, 'busyBetween'))],
    ['  of which etcd watch events', ...sides.map((s) => cell(s.rows, 'watchBetween'))],
  ];
  console.log(`one client, ${rounds} rounds of ${seconds} s each; µs per create, mean (median)\n`);
  console.log(`| ${lines[0].join(' | ')} |\n|---|${sides.map(() => '---:').join('|')}|`);
  for (const l of lines.slice(1)) console.log(`| ${l.join(' | ')} |`);
} finally {
  await stopAll();
}
