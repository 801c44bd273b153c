// Creates on the embedded store: the server started on its lmdb backend (no --etcd-servers) at 16 clients, taking
// turns with the same server on etcd (a prefix of its own, fresh too), so that the ratio of their CPU per create
// (issue 30: at most 1.3×) compares the same moments of the machine; beside it, the same lmdb writes done directly
// in this process. The direct writes mirror src/adapters/lmdb/lmdb-storage.ts create(): one async transaction
// that checks the key, takes the next revision from the meta table and writes the state, log and logValues
// records, then waits for the flush to disk. Both stores live on the same file system.
import { createRequire } from 'node:module';
import { agent, closedLoop, inTurns, medianRoundRatio, request } from './load.mjs';
import { scratchDir, startServer } from './procs.mjs';
import { cmBody, fmt, measuredHere, serverCpuSeconds } from './report.mjs';

const { open } = createRequire(import.meta.url)('lmdb');
const clients = 16;
const small = { k: 'v'.repeat(100) };

export async function embeddedCreates(root, etcdEndpoint, { seconds, row, log }) {
  const servers = {
    embedded: await startServer(root, { dataDir: scratchDir('bench-lmdb-server-') }),
    etcd: await startServer(root, etcdEndpoint, ['--etcd-prefix', '/bench-embedded-peer']),
  };
  const a = agent(clients);
  const side = (server, prefix) => ({
    concurrency: clients,
    cpuSeconds: () => serverCpuSeconds(server),
    fn: async (i) => {
      const r = await request(`${server.url}/api/v1/namespaces/embedded/configmaps`, { method: 'POST', body: cmBody(`${prefix}-${i}`, small), agent: a });
      if (r.status !== 201) throw new Error(`create: ${r.status}`);
    },
  });
  // Warm both (the JIT, the namespace created on first write) before anything is measured.
  for (const [name, server] of Object.entries(servers)) await closedLoop(clients, 2000, side(server, `warm-${name}`).fn);
  const turns = await inTurns({ embedded: side(servers.embedded, 'cm'), etcd: side(servers.etcd, 'cm') }, 8, (seconds * 1000) / 3);
  const api = turns.embedded;
  a.destroy();
  for (const server of Object.values(servers)) await server.stop();
  const cpuRatio = medianRoundRatio(turns.embedded, turns.etcd);
  const sumRatio = turns.embedded.cpuUsPerRequest / turns.etcd.cpuUsPerRequest;
  row('embedded', `creates/s, ${clients} clients, embedded lmdb store vs the same server on etcd`, api.opsPerSec, turns.etcd.opsPerSec, 'ops/s',
    `server CPU per create ${fmt(cpuRatio, 2)}× the etcd path's (${fmt(turns.etcd.cpuUsPerRequest, 0)} µs, etcd's own CPU not counted; target ≤ 1.3×; median of 8 rounds' ratios, all rounds together ${fmt(sumRatio, 2)}×); p50 ${fmt(api.p50)} vs ${fmt(turns.etcd.p50)} ms; taking turns`, api.cpuUsPerRequest);

  const env = open({ path: scratchDir('bench-lmdb-raw-'), noSubdir: false, maxDbs: 8 });
  const state = env.openDB({ name: 'state' });
  const logTable = env.openDB({ name: 'log' });
  const logValues = env.openDB({ name: 'logValues' });
  const meta = env.openDB({ name: 'meta' });
  const value = Buffer.from(cmBody('x', small));
  const raw = await measuredHere(() => closedLoop(clients, seconds * 1000, async (i) => {
    const key = `/registry/configmaps/embedded/cm-${i}`;
    const ok = await env.transaction(() => {
      if (state.get(key)) return false;
      const rev = (meta.get('rev') ?? 0) + 1;
      meta.put('rev', rev);
      state.put(key, { v: value, c: rev, m: rev });
      logTable.put(rev, { k: key, c: rev });
      logValues.put(rev, { v: value });
      return true;
    });
    if (!ok) throw new Error('exists');
    await env.flushed;
  }));
  await env.close();
  row('embedded', `creates/s, ${clients} clients, embedded lmdb store vs its lmdb writes alone`, api.opsPerSec, raw.opsPerSec, 'ops/s',
    `vs the same lmdb transactions (${value.length}-byte value) written in-process; p50 ${fmt(api.p50)} vs ${fmt(raw.p50)} ms; lmdb alone ${fmt(raw.cpuUsPerOp, 0)} µs CPU/write; the server's CPU includes its store here`, api.cpuUsPerRequest);
  log(`embedded creates: api ${fmt(api.opsPerSec, 0)}/s (${fmt(api.cpuUsPerRequest, 0)} µs CPU, ${fmt(cpuRatio, 2)}× the etcd path's ${fmt(turns.etcd.cpuUsPerRequest, 0)} µs), raw lmdb ${fmt(raw.opsPerSec, 0)}/s (${fmt(raw.cpuUsPerOp, 0)} µs CPU)`);
  return { clients, api, etcdPath: turns.etcd, cpuRatio, sumRatio, lmdb: raw };
}
