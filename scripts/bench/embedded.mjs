// Creates on the embedded store: the server started on its lmdb backend (no --etcd-servers) at 16 clients, beside
// the same lmdb writes done directly in this process. The direct writes mirror src/adapters/lmdb/lmdb-storage.ts
// create(): one async transaction that checks the key, takes the next revision from the meta table and writes the
// state, log and logValues records, then waits for the flush to disk. Both stores live on the same file system.
import { createRequire } from 'node:module';
import { agent, closedLoop, request } from './load.mjs';
import { scratchDir, startServer } from './procs.mjs';
import { cmBody, fmt, measured, measuredHere } from './report.mjs';

const { open } = createRequire(import.meta.url)('lmdb');
const clients = 16;
const small = { k: 'v'.repeat(100) };

export async function embeddedCreates(root, { seconds, row, log }) {
  const server = await startServer(root, { dataDir: scratchDir('bench-lmdb-server-') });
  const a = agent(clients);
  const api = await measured(server, () => closedLoop(clients, seconds * 1000, async (i) => {
    const r = await request(`${server.url}/api/v1/namespaces/embedded/configmaps`, { method: 'POST', body: cmBody(`cm-${i}`, small), agent: a });
    if (r.status !== 201) throw new Error(`create: ${r.status}`);
  }));
  a.destroy();
  await server.stop();

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
  row('embedded', `creates/s, ${clients} clients, embedded lmdb store`, api.opsPerSec, raw.opsPerSec, 'ops/s',
    `vs the same lmdb transactions (${value.length}-byte value) written in-process; p50 ${fmt(api.p50)} vs ${fmt(raw.p50)} ms; lmdb alone ${fmt(raw.cpuUsPerOp, 0)} µs CPU/write; the server's CPU includes its store here`, api.cpuUsPerRequest);
  log(`embedded creates: api ${fmt(api.opsPerSec, 0)}/s (${fmt(api.cpuUsPerRequest, 0)} µs CPU), raw lmdb ${fmt(raw.opsPerSec, 0)}/s (${fmt(raw.cpuUsPerOp, 0)} µs CPU)`);
  return { clients, api, lmdb: raw };
}
