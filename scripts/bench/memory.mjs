// Memory with 100,000 small ConfigMaps, net of garbage: the server is started with the benchmark's gc preload
// (procs.mjs) and its memory is read right after a forced full GC, when idle, after the objects were written
// straight into etcd while it ran (its cache grew by watch events), and after a restart on the same data (its cache
// loaded by the initial list). The restarted server then serves LISTs of all 100,000 objects from its cache.
import { leanReader, sameList } from './lean-reader.mjs';
import { pool, request, sequential } from './load.mjs';
import { sleep, startServer } from './procs.mjs';
import { fmt, measured, mib } from './report.mjs';

const n = 100_000;
const prefix = '/rss';
const namespace = 'rss';

/**
 * Writes the objects straight into etcd, one put (one revision) each as the server itself writes, so a running
 * server's cache takes them in event by event as it would its own writes; returns their JSON size as the server
 * stores them (with a resourceVersion).
 */
async function load(etcd) {
  let jsonBytes = 0;
  await pool(n, 128, async (i) => {
    const name = `cm-${i}`;
    const obj = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name, namespace, uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, creationTimestamp: '2026-01-01T00:00:00Z' }, data: { key: `value-${i}` } };
    const value = JSON.stringify(obj);
    jsonBytes += value.length + `,"resourceVersion":"${100000 + i}"`.length;
    await etcd.put(`${prefix}/configmaps/${namespace}/${name}`).value(value);
  });
  return jsonBytes;
}

/** Items in the namespace's LIST (every namespace may also hold the server's kube-root-ca.crt). */
async function listed(server, query = '') {
  const r = await request(`${server.url}/api/v1/namespaces/${namespace}/configmaps${query}`);
  if (r.status !== 200) throw new Error(`list: ${r.status}`);
  return JSON.parse(r.body).items.filter((i) => i.metadata.name !== 'kube-root-ca.crt').length;
}

export async function memory(root, etcdEndpoint, etcd, { row, log }) {
  let server = await startServer(root, etcdEndpoint, ['--etcd-prefix', prefix], { gc: true });
  await sleep(500);
  const idle = await server.gcMemory();
  const jsonBytes = await load(etcd);
  // The cache takes the events in at its own pace; a consistent LIST that found it still behind after 3 s would be
  // answered from etcd instead, and the memory read after it would count that answer's buffers not yet freed.
  for (let deadline = Date.now() + 120_000; (await listed(server, '?resourceVersion=0')) < n && Date.now() < deadline;) await sleep(200);
  // A consistent LIST waits until the cache has caught up with etcd's current revision.
  const grownCount = await listed(server);
  const grown = { ...(await server.gcMemory()), peak: server.memory().peak };
  await server.stop();
  if (grownCount !== n) throw new Error(`the running server's cache holds ${grownCount} of ${n} objects`);

  const started = performance.now();
  server = await startServer(root, etcdEndpoint, ['--etcd-prefix', prefix], { gc: true, certDir: server.certDir });
  const startSeconds = (performance.now() - started) / 1000;
  const peak = server.memory().peak;
  await sleep(500);
  const restarted = await server.gcMemory();
  const count = await listed(server, '?resourceVersion=0');
  if (count !== n) throw new Error(`the restarted server's cache holds ${count} of ${n} objects`);

  const url = `${server.url}/api/v1/namespaces/${namespace}/configmaps`;
  const responseBytes = (await request(url)).body.length;
  // Timed to the last byte, as the 10k rows are (lean-reader.mjs).
  const timed = async (path) => {
    const reader = leanReader(`${url}${path}`);
    try {
      return await measured(server, () => sequential(5, async () => {
        const r = await reader.get();
        if (r.status !== 200 || !sameList(r.bytes, responseBytes)) throw new Error(`list: ${r.status}, ${r.bytes} bytes`);
      }));
    } finally {
      reader.close();
    }
  };
  const consistent = await timed('');
  const any = await timed('?resourceVersion=0');
  const raw = await sequential(5, () => etcd.getAll().prefix(`${prefix}/configmaps/${namespace}/`).exec());
  await server.stop();

  const growth = (m) => (m.rss - idle.rss) / jsonBytes;
  // What the live objects take, without the pages the allocators keep after a peak (RSS includes those).
  const live = (m) => (m.heapUsed + m.external - idle.heapUsed - idle.external) / jsonBytes;
  const heap = (m) => `V8 heap used ${fmt(mib(m.heapUsed))} MiB (idle ${fmt(mib(idle.heapUsed))}), external ${fmt(mib(m.external))} MiB (idle ${fmt(mib(idle.external))}): live growth ${fmt(live(m), 2)}× the JSON`;
  row('memory', `RSS after GC, ${n / 1000}k small ConfigMaps, after a restart`, mib(restarted.rss), mib(jsonBytes), 'MiB',
    `vs their JSON size; idle server after GC ${fmt(mib(idle.rss))} MiB; peak while loading ${fmt(mib(peak))} MiB; ready in ${fmt(startSeconds)} s`);
  row('memory', `RSS growth per byte of JSON, after GC, after a restart`, growth(restarted), 1, '×', `(RSS − idle RSS) / JSON size; ${heap(restarted)}`);
  row('memory', `RSS after GC, ${n / 1000}k small ConfigMaps written while running (cache fed by watch)`, mib(grown.rss), mib(jsonBytes), 'MiB',
    `vs their JSON size; peak ${fmt(mib(grown.peak))} MiB; the cache's watch history (5 min) still holds their events`);
  row('memory', `RSS growth per byte of JSON, after GC, written while running`, growth(grown), 1, '×', `(RSS − idle RSS) / JSON size; ${heap(grown)}`);
  const size = `${(responseBytes / 1e6).toFixed(1)} MB`;
  row('list', `LIST ${n} small ConfigMaps (~${Math.round(jsonBytes / n)} B), consistent (RV unset), from cache`, consistent.p50, raw.p50, 'ms p50',
    `vs etcd range of the same keys; to the last byte; 5 runs, p99 ${fmt(consistent.p99)} ms; ${size}`, consistent.cpuUsPerRequest);
  row('list', `LIST ${n} small ConfigMaps, RV=0, from cache`, any.p50, raw.p50, 'ms p50', `5 runs, p99 ${fmt(any.p99)} ms`, any.cpuUsPerRequest);
  log(`memory: after GC idle ${fmt(mib(idle.rss))} MiB, grown ${fmt(mib(grown.rss))} MiB, restarted ${fmt(mib(restarted.rss))} MiB for ${fmt(mib(jsonBytes))} MiB of JSON`);
  log(`list ${n}: consistent ${fmt(consistent.p50)} ms, RV=0 ${fmt(any.p50)} ms, etcd ${fmt(raw.p50)} ms`);
  return {
    memory: { objects: n, jsonBytes, idle, grown, restarted, restartedPeakRss: peak, startToReadySeconds: startSeconds,
      growthPerJsonByte: { restarted: growth(restarted), grown: growth(grown) }, liveGrowthPerJsonByte: { restarted: live(restarted), grown: live(grown) } },
    list100k: { objects: n, responseBytes, cacheConsistent: consistent, cacheAny: any, etcdRange: raw },
  };
}
