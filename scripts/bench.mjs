// `npm run bench`: the server (dist/) on its own etcd and on its embedded lmdb
// store, side by side with raw etcd, raw lmdb and a bare node:http server, all
// on 127.0.0.1. Prints a markdown table and writes the same figures to
// bench/results/latest.json (`npm run bench:readme` puts that table into
// docs/benchmark.md). Bounded: about 5 minutes on 2 cores with BENCH_SECONDS=3;
// everything it starts is stopped at the end.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { scratchDir, startBareServer, startEtcd, startServer, startThinProxy, stopAll, sleep } from './bench/procs.mjs';
import { agent, closedLoop, inTurns, pool, request, requestsInTurns, sequential } from './bench/load.mjs';
import { leanReader, sameList } from './bench/lean-reader.mjs';
import { watchFanOut } from './bench/fanout.mjs';
import { cmBody, fmt, measured, serverCpuSeconds, table } from './bench/report.mjs';
import { updates } from './bench/updates.mjs';
import { embeddedCreates } from './bench/embedded.mjs';
import { memory } from './bench/memory.mjs';
import { largeReplace } from './bench/large-replace.mjs';
import { customResources } from './bench/custom-resources.mjs';
import { generatorCells } from './bench/generator.mjs';
import { admissionPolicy } from './bench/admission-policy.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { Etcd3 } = createRequire(import.meta.url)('etcd3');
const seconds = Number(process.env.BENCH_SECONDS ?? 3); // per throughput cell
// BENCH_ONLY=gets,lists (say): only those phases (creates gets secure events lists updates crds admission wrk watch embedded memory large-replace).
const only = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',')) : undefined;
const wanted = (phase) => !only || only.has(phase);
const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);
const rows = [];
const results = { startedAt: new Date().toISOString(), node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model, memoryBytes: totalmem() };
const row = (section, what, server, baseline, unit, note = '', cpuUs) => rows.push({ section, what, server, baseline, unit, note, cpuUs });

async function creates(server, etcd, etcdEndpoint) {
  results.creates = [];
  const small = { k: 'v'.repeat(100) };
  // Every side warm before the first measured cell, under both shapes of load: the server's JIT (a few seconds of
  // load: after 2 s the server still spent a third more CPU per create than after 8) and both clients' connections.
  // Warmed at 16 clients only, the first cell (one client) ran at 55-60% of the rate of the same cell repeated.
  const warm = async (url, ms, name) => {
    for (const [c, share] of [[16, 0.6], [1, 0.4]]) {
      const w = agent(c);
      await closedLoop(c, ms * share, (i) => request(url, { method: 'POST', body: cmBody(`${name}-${c}-${i}`, small), agent: w }));
      w.destroy();
    }
  };
  await warm(`${server.url}/api/v1/namespaces/warm-up/configmaps`, 10_000, 'cm');
  await closedLoop(16, 1000, (i) => etcd.put(`/bench-raw/warm-up/${i}`).value('x'));
  await closedLoop(1, 1000, (i) => etcd.put(`/bench-raw/warm-up-1/${i}`).value('x'));
  // What a server of this shape could reach at most (node:http and the same etcd transport, doing nothing else).
  const proxy = await startThinProxy(root, etcdEndpoint);
  await warm(`${proxy.url}/warm-up`, 4000, 'cm');
  for (const c of [1, 16, 64]) {
    const a = agent(c);
    const t = agent(c);
    const value = Buffer.from(cmBody('x', small));
    // The three loads take turns (six rounds of `seconds`/3 each, every order once): at one client, back-to-back
    // runs of 3 s gave the server 40-62% of raw etcd with the same build as the machine's load moved between them.
    const { api, raw, thin } = await inTurns({
      api: { concurrency: c, cpuSeconds: () => serverCpuSeconds(server), fn: async (i) => {
        const r = await request(`${server.url}/api/v1/namespaces/create-${c}/configmaps`, { method: 'POST', body: cmBody(`cm-${i}`, small), agent: a });
        if (r.status !== 201) throw new Error(`create: ${r.status}`);
      } },
      raw: { concurrency: c, fn: async (i) => {
        const key = `/bench-raw/${c}/${i}`;
        const res = await etcd.if(key, 'Create', '==', 0).then(etcd.put(key).value(value)).commit();
        if (!res.succeeded) throw new Error('exists');
      } },
      thin: { concurrency: c, cpuSeconds: () => serverCpuSeconds(proxy), fn: async (i) => {
        const r = await request(`${proxy.url}/api/v1/namespaces/create-${c}/configmaps`, { method: 'POST', body: cmBody(`cm-${i}`, small), agent: t });
        if (r.status !== 201) throw new Error(`thin proxy: ${r.status}`);
      } },
    }, 6, (seconds * 1000) / 3);
    a.destroy();
    t.destroy();
    results.creates.push({ concurrency: c, api, etcd: raw, thinProxy: thin });
    const clients = `${c} client${c > 1 ? 's' : ''}`;
    row('creates', `creates/s, ${clients}`, api.opsPerSec, raw.opsPerSec, 'ops/s', `API p50 ${fmt(api.p50)} ms, etcd txn p50 ${fmt(raw.p50)} ms`, api.cpuUsPerRequest);
    row('creates', `creates/s, ${clients}, thinnest node:http → etcd proxy (ceiling)`, thin.opsPerSec, raw.opsPerSec, 'ops/s', `the same POSTs stored as they come, nothing else (scripts/bench/thin-proxy.cjs); p50 ${fmt(thin.p50)} ms; the server reaches ${fmt((100 * api.opsPerSec) / thin.opsPerSec, 0)}% of it`, thin.cpuUsPerRequest);
    log(`creates c=${c}: api ${fmt(api.opsPerSec, 0)}/s, etcd ${fmt(raw.opsPerSec, 0)}/s, thin proxy ${fmt(thin.opsPerSec, 0)}/s`);
  }
  await proxy.stop();
}

async function gets(server) {
  const base = `${server.url}/api/v1/namespaces/get/configmaps`;
  await request(base, { method: 'POST', body: cmBody('target', { a: 'b', c: 'd' }) });
  const url = `${base}/target?resourceVersion=0`;
  const bytes = (await request(url)).body;
  const bare = await startBareServer(bytes);
  const c = 32;
  const run = async (u, ms = seconds * 1000) => {
    const a = agent(c);
    const r = await closedLoop(c, ms, async () => {
      const res = await request(u, { agent: a });
      if (res.status !== 200) throw new Error(`get: ${res.status}`);
    });
    a.destroy();
    return r;
  };
  await run(url, 2000); // warm-up (the bare server has next to nothing to warm)
  const cached = await measured(server, () => run(url));
  const quorum = await measured(server, () => run(`${base}/target`));
  const raw = await run(bare.url);
  await bare.stop();
  results.gets = { concurrency: c, objectBytes: bytes.length, cache: cached, etcdRead: quorum, bareNodeHttp: raw };
  row('get', `GETs/s, ${c} clients (RV=0, from cache)`, cached.opsPerSec, raw.opsPerSec, 'ops/s', `vs bare node:http with the same ${bytes.length} bytes; p50 ${fmt(cached.p50, 2)} vs ${fmt(raw.p50, 2)} ms`, cached.cpuUsPerRequest);
  row('get', `GETs/s, ${c} clients (RV unset, quorum read from etcd)`, quorum.opsPerSec, raw.opsPerSec, 'ops/s', `p50 ${fmt(quorum.p50, 2)} ms`, quorum.cpuUsPerRequest);
  log(`gets: cache ${fmt(cached.opsPerSec, 0)}/s, etcd ${fmt(quorum.opsPerSec, 0)}/s, bare ${fmt(raw.opsPerSec, 0)}/s`);
}

/**
 * The same create and GET loads over HTTPS as a user authenticated by a bearer token and authorized by an RBAC
 * binding (not system:masters), beside the plain-port figures: what authentication and authorization cost.
 */
async function secure(server) {
  const rbac = `${server.url}/apis/rbac.authorization.svc.io/v1`;
  const post = async (url, body) => {
    const r = await request(url, { method: 'POST', body: JSON.stringify(body) });
    if (r.status !== 201) throw new Error(`setup ${url}: ${r.status} ${r.body}`);
  };
  await post(`${rbac}/clusterroles`, { metadata: { name: 'bench-configmaps' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'create'] }] });
  await post(`${rbac}/namespaces/secure/rolebindings`, {
    metadata: { name: 'bench-user' },
    roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: 'bench-configmaps' },
    subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.svc.io', name: 'bench-user' }],
  });
  const tls = { ca: readFileSync(join(server.certDir, 'ca.crt')) };
  const headers = { authorization: `Bearer ${benchToken}` };
  const base = `${server.secureUrl}/api/v1/namespaces/secure/configmaps`;
  const plainBase = `${server.url}/api/v1/namespaces/secure-plain/configmaps`;
  for (const u of [plainBase, `${server.url}/api/v1/namespaces/secure/configmaps`]) await request(u, { method: 'POST', body: cmBody('target', { a: 'b', c: 'd' }) });
  const cpuSeconds = () => serverCpuSeconds(server);
  // Secure and plain take turns (as the create cells do): run one after the other, the two met different moments
  // of a shared machine, and the ratio between them is the figure that decides.
  const c = 16;
  let a = agent(c, tls);
  let p = agent(c);
  const create = (url, ag, h) => async (i) => {
    const r = await request(url, { method: 'POST', body: cmBody(`cm-${i}`, { k: 'v'.repeat(100) }), agent: ag, headers: h });
    if (r.status !== 201) throw new Error(`create: ${r.status}`);
  };
  const createSides = {
    secure: { concurrency: c, cpuSeconds, fn: create(base, a, headers) },
    plain: { concurrency: c, cpuSeconds, fn: create(plainBase, p, {}) },
  };
  await closedLoop(c, 2000, (i) => createSides.secure.fn(`warm-${i}`)); // the secure path's JIT and connections
  const creates = await inTurns(createSides, 6, (seconds * 1000) / 3);
  a.destroy();
  p.destroy();
  const g = 32;
  a = agent(g, tls);
  p = agent(g);
  const get = (url, ag, h) => async () => {
    const r = await request(`${url}/target?resourceVersion=0`, { agent: ag, headers: h });
    if (r.status !== 200) throw new Error(`get: ${r.status}`);
  };
  // Node's own TLS in the same turns: bare node:http and node:https sending the GET's bytes, with the server's key and
  // certificate. What HTTPS costs per request before anything authenticates or authorizes.
  const bare = await startBareServer((await request(`${plainBase}/target?resourceVersion=0`)).body, server.certDir);
  const [bs, bp] = [agent(g, tls), agent(g)];
  const bareGet = (url, ag) => async () => {
    if ((await request(url, { agent: ag })).status !== 200) throw new Error('bare get');
  };
  const bareCpu = () => serverCpuSeconds(bare);
  const getSides = {
    secure: { concurrency: g, cpuSeconds, fn: get(base, a, headers) },
    plain: { concurrency: g, cpuSeconds, fn: get(plainBase, p, {}) },
    bareHttps: { concurrency: g, cpuSeconds: bareCpu, fn: bareGet(bare.secureUrl, bs) },
    bareHttp: { concurrency: g, cpuSeconds: bareCpu, fn: bareGet(bare.url, bp) },
  };
  await closedLoop(g, 1000, getSides.secure.fn);
  await closedLoop(g, 1000, getSides.bareHttps.fn);
  const gets = await inTurns(getSides, 6, (seconds * 1000) / 3);
  for (const ag of [a, p, bs, bp]) ag.destroy();
  await bare.stop();
  const [created, got, plainCreates, plainGets] = [creates.secure, gets.secure, creates.plain, gets.plain];
  const ratio = (s, b) => `server CPU ${fmt(s.cpuUsPerRequest / b.cpuUsPerRequest, 2)}× the plain port's`;
  const nodeTls = { https: gets.bareHttps, http: gets.bareHttp, addedUs: gets.bareHttps.cpuUsPerRequest - gets.bareHttp.cpuUsPerRequest };
  results.secure = { creates: created, gets: got, plainCreates, plainGets, nodeTls, createCpuRatio: created.cpuUsPerRequest / plainCreates.cpuUsPerRequest, getCpuRatio: got.cpuUsPerRequest / plainGets.cpuUsPerRequest };
  row('secure', `creates/s, ${c} clients, HTTPS + bearer token + RBAC`, created.opsPerSec, plainCreates.opsPerSec, 'ops/s', `vs the plain port (system:admin) in turns with it; ${ratio(created, plainCreates)} (${fmt(plainCreates.cpuUsPerRequest, 0)} µs); p50 ${fmt(created.p50)} vs ${fmt(plainCreates.p50)} ms; ${created.errors} errors`, created.cpuUsPerRequest);
  row('secure', `GETs/s, ${g} clients (RV=0), HTTPS + bearer token + RBAC`, got.opsPerSec, plainGets.opsPerSec, 'ops/s', `vs the plain port in turns with it; ${ratio(got, plainGets)} (${fmt(plainGets.cpuUsPerRequest, 0)} µs); p50 ${fmt(got.p50, 2)} vs ${fmt(plainGets.p50, 2)} ms; ${got.errors} errors`, got.cpuUsPerRequest);
  const added = got.cpuUsPerRequest - plainGets.cpuUsPerRequest;
  row('secure', `GETs/s, ${g} clients, bare node:https vs bare node:http (node's TLS alone)`, nodeTls.https.opsPerSec, nodeTls.http.opsPerSec, 'ops/s', `the same bytes, in turns with the server's GETs; node's TLS adds ${fmt(nodeTls.addedUs, 0)} µs per request (${fmt(nodeTls.https.cpuUsPerRequest / nodeTls.http.cpuUsPerRequest, 2)}× bare http's ${fmt(nodeTls.http.cpuUsPerRequest, 0)} µs); the server's HTTPS + token + RBAC add ${fmt(added, 0)} µs`, nodeTls.https.cpuUsPerRequest);
  log(`secure: creates ${fmt(created.opsPerSec, 0)}/s (${fmt(results.secure.createCpuRatio, 2)}× plain CPU), gets ${fmt(got.opsPerSec, 0)}/s (${fmt(results.secure.getCpuRatio, 2)}× plain CPU)`);
}

const benchToken = 'bench-token-0123456789';
const benchEventsToken = 'bench-events-token-0123456789';

/**
 * Event storm: 1,000 Events/s (client-go recorder shape, paced open loop) into one namespace from an event
 * recorder's identity while 16 clients of another user create ConfigMaps, both over HTTPS as non-admin users
 * (system:masters is exempt from fair queuing, as upstream). The ConfigMap figures beside the quiet HTTPS ones
 * show whether events starve other kinds.
 */
async function eventStorm(server) {
  const rate = 1000;
  const rbac = `${server.url}/apis/rbac.authorization.svc.io/v1`;
  const r = await request(`${rbac}/namespaces/storm/rolebindings`, {
    method: 'POST',
    body: JSON.stringify({
      metadata: { name: 'bench-events' },
      roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: 'bench-events' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.svc.io', name: 'bench-events' }],
    }),
  });
  const role = await request(`${rbac}/clusterroles`, { method: 'POST', body: JSON.stringify({ metadata: { name: 'bench-events' }, rules: [{ apiGroups: [''], resources: ['events'], verbs: ['create'] }] }) });
  if (r.status !== 201 || role.status !== 201) throw new Error(`storm setup: ${r.status} ${role.status}`);
  const tls = { ca: readFileSync(join(server.certDir, 'ca.crt')) };
  const eventsUrl = `${server.secureUrl}/api/v1/namespaces/storm/events`;
  const ev = (i) => JSON.stringify({
    apiVersion: 'v1', kind: 'Event', metadata: { name: `storm.${i}`, namespace: 'storm' },
    involvedObject: { kind: 'ConfigMap', namespace: 'storm', name: `cm-${i % 100}`, apiVersion: 'v1' },
    reason: 'Synced', message: `synced ${i}`, source: { component: 'bench' }, type: 'Normal', count: 1,
    firstTimestamp: '2026-01-01T00:00:00Z', lastTimestamp: '2026-01-01T00:00:00Z',
  });
  const ea = agent(64, tls);
  const eventHeaders = { authorization: `Bearer ${benchEventsToken}` };
  let sent = 0;
  let ok = 0;
  let refused = 0;
  let stop = false;
  const started = performance.now();
  const inflight = new Set();
  const pacer = (async () => {
    while (!stop) {
      const due = Math.floor(((performance.now() - started) / 1000) * rate);
      while (sent < due && inflight.size < 256) {
        const p = request(eventsUrl, { method: 'POST', body: ev(sent++), agent: ea, headers: eventHeaders }).then((res) => {
          if (res.status === 201) ok++;
          else if (res.status === 429) refused++;
        }, () => {});
        inflight.add(p);
        void p.finally(() => inflight.delete(p));
      }
      await sleep(5);
    }
  })();
  await sleep(500);
  const c = 16;
  const a = agent(c, tls);
  const t0 = performance.now();
  const [ok0, refused0] = [ok, refused];
  const api = await closedLoop(c, seconds * 1000, async (i) => {
    const res = await request(`${server.secureUrl}/api/v1/namespaces/secure/configmaps`, { method: 'POST', body: cmBody(`storm-cm-${i}`, { k: 'v'.repeat(100) }), agent: a, headers: { authorization: `Bearer ${benchToken}` } });
    if (res.status !== 201) throw new Error(`create: ${res.status}`);
  });
  const elapsed = (performance.now() - t0) / 1000;
  const eventsPerSec = (ok - ok0) / elapsed;
  const refusedPerSec = (refused - refused0) / elapsed;
  stop = true;
  await pacer;
  await Promise.all(inflight);
  a.destroy();
  ea.destroy();
  const quiet = results.secure?.creates;
  results.eventStorm = { targetEventsPerSec: rate, eventsPerSec, refusedPerSec, creates: api, quietCreates: quiet };
  row('events', `creates/s, ${c} clients, HTTPS, beside ${rate} Events/s from another user`, api.opsPerSec, quiet?.opsPerSec, 'ops/s', `vs the same HTTPS load without events; events stored ${fmt(eventsPerSec, 0)}/s, refused (429) ${fmt(refusedPerSec, 0)}/s; create p50 ${fmt(api.p50)} vs ${fmt(quiet?.p50)} ms`);
  log(`event storm: ${fmt(eventsPerSec, 0)} events/s (${fmt(refusedPerSec, 0)}/s refused), creates ${fmt(api.opsPerSec, 0)}/s`);
}

async function lists(server, etcd, prefix) {
  const ns = 'list';
  const n = 10_000;
  const data = { payload: 'x'.repeat(1024 - 100) }; // ~1 KiB objects
  const a = agent(64);
  const started = performance.now();
  await pool(n, 64, async (i) => {
    const r = await request(`${server.url}/api/v1/namespaces/${ns}/configmaps`, { method: 'POST', body: cmBody(`cm-${String(i).padStart(5, '0')}`, data), agent: a });
    if (r.status !== 201) throw new Error(`create: ${r.status} ${r.body}`);
  });
  const loadSeconds = (performance.now() - started) / 1000;
  const url = `${server.url}/api/v1/namespaces/${ns}/configmaps`;
  const first = await request(url, { agent: a });
  // Every namespace also holds the server's kube-root-ca.crt.
  const items = JSON.parse(first.body).items.filter((i) => i.metadata.name !== 'kube-root-ca.crt').length;
  if (items !== n) throw new Error(`list returned ${items} items`);
  const rv = JSON.parse(first.body).metadata.resourceVersion;
  // The floor on this machine: bare node:http sending the same bytes from one buffer. The two cached LISTs and the
  // floor take turns: as batches one after another, each met another moment of the machine (in one run 22 ms for
  // the consistent batch, then 34 for RV=0 and 37 for the floor). Each is read twice, by the lean reader (the time
  // to the last byte, which the rows give) and by node:http joining the chunks (what a Node client pays, in the notes).
  const bare = await startBareServer(first.body);
  const b = agent(1);
  const cpuSeconds = () => serverCpuSeconds(server);
  const lean = { consistent: leanReader(url), any: leanReader(`${url}?resourceVersion=0`), floor: leanReader(bare.url) };
  const read = (reader) => async () => {
    const r = await reader.get();
    if (r.status !== 200 || !sameList(r.bytes, first.body.length)) throw new Error(`list: ${r.status}, ${r.bytes} bytes`);
  };
  const sides = {
    consistent: { fn: read(lean.consistent), cpuSeconds },
    any: { fn: read(lean.any), cpuSeconds },
    floor: { fn: read(lean.floor) },
    consistentNode: { fn: () => request(url, { agent: a }) },
    anyNode: { fn: () => request(`${url}?resourceVersion=0`, { agent: a }) },
    floorNode: { fn: () => request(bare.url, { agent: b }) },
  };
  await requestsInTurns(sides, 3); // warm-up, not counted
  const { consistent, any, floor, consistentNode, anyNode, floorNode } = await requestsInTurns(sides, 24);
  for (const r of Object.values(lean)) r.close();
  b.destroy();
  await bare.stop();
  const exact = await measured(server, () => sequential(10, () => request(`${url}?resourceVersion=${rv}&resourceVersionMatch=Exact`, { agent: a })));
  const raw = await sequential(20, () => etcd.getAll().prefix(`${prefix}/configmaps/${ns}/`).exec());
  a.destroy();
  results.list = { objects: n, responseBytes: first.body.length, loadCreatesPerSec: n / loadSeconds, cacheConsistent: consistent, cacheAny: any, apiFromEtcdExact: exact, etcdRange: raw, bareNodeHttp: floor, readByNodeHttp: { cacheConsistent: consistentNode, cacheAny: anyNode, bareNodeHttp: floorNode } };
  row('list', `LIST ${n} × 1 KiB, consistent (RV unset), from cache`, consistent.p50, raw.p50, 'ms p50', `vs etcd range of the same keys; to the last byte; p99 ${fmt(consistent.p99)} ms; ${(first.body.length / 1e6).toFixed(1)} MB; read by node:http and joined ${fmt(consistentNode.p50)} ms`, consistent.cpuUsPerRequest);
  row('list', `LIST ${n} × 1 KiB, RV=0, from cache`, any.p50, raw.p50, 'ms p50', `p99 ${fmt(any.p99)} ms; read by node:http and joined ${fmt(anyNode.p50)} ms`, any.cpuUsPerRequest);
  row('list', `LIST ${n} × 1 KiB, Exact RV (server reads etcd)`, exact.p50, raw.p50, 'ms p50', `decode + encode in the server`, exact.cpuUsPerRequest);
  row('list', `the same ${(first.body.length / 1e6).toFixed(1)} MB from bare node:http (floor)`, floor.p50, raw.p50, 'ms p50', `one buffer written as it is, read as the LISTs are, in turns with them; what delivering these bytes costs on this machine; read by node:http and joined ${fmt(floorNode.p50)} ms`);
  log(`list: cache ${fmt(consistent.p50)} ms, etcd ${fmt(raw.p50)} ms (loaded at ${fmt(n / loadSeconds, 0)}/s)`);
}

/**
 * Each watcher holds a socket here and one in the server, so the open-file limit that both processes inherit
 * (`ulimit -n`) bounds the number: 10,000 unless the limit leaves less (the row then names the number used).
 */
function watchersThatFit(wanted) {
  const limit = Number(execFileSync('sh', ['-c', 'ulimit -n']).toString().trim());
  const fit = Number.isFinite(limit) ? Math.min(wanted, limit - 1000) : wanted;
  if (fit < wanted) log(`ulimit -n is ${limit}: ${fit} watchers instead of ${wanted}`);
  return Math.max(fit, 100);
}

async function fanOut(server) {
  results.watchFanOut = [];
  // 300 updates at 10,000 watchers, so that the p99 is the third slowest rather than the slowest (about a minute).
  for (const [watchers, updates] of [[1000, 100], [watchersThatFit(10_000), 300]]) {
    const r = await watchFanOut(server, { watchers, updates, namespace: `fanout-${watchers}` });
    results.watchFanOut.push(r);
    const cpu = `server CPU per update, delivered to all ${r.watchers}; the watchers' own reading (this process) ${fmt(r.clientCpuUsPerUpdate / 1000)} ms CPU per update`;
    row('watch', `fan-out: ${r.watchers} watchers, ${r.updates} updates, p50`, r.p50, '—', 'ms', `from sending the update until every watcher has it (after ${r.warmup} untimed); ${cpu}; opened in ${fmt(r.openSeconds)} s`, r.cpuUsPerUpdate);
    row('watch', `fan-out: ${r.watchers} watchers, ${r.updates} updates, p99`, r.p99, '—', 'ms', '');
    log(`fan-out ${watchers}: p50 ${fmt(r.p50)} ms, p99 ${fmt(r.p99)} ms, ${fmt(r.cpuUsPerUpdate, 0)} µs CPU per update`);
  }
  // The same over HTTPS as a bearer-token user whom RBAC lets watch ConfigMaps (TLS records per watcher and event).
  const rbac = `${server.url}/apis/rbac.authorization.svc.io/v1`;
  for (const [path, body] of [
    ['clusterroles', { metadata: { name: 'bench-watch' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['list', 'watch'] }] }],
    ['clusterrolebindings', { metadata: { name: 'bench-watch' }, roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: 'bench-watch' }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.svc.io', name: 'bench-user' }] }],
  ]) {
    const r = await request(`${rbac}/${path}`, { method: 'POST', body: JSON.stringify(body) });
    if (r.status !== 201 && r.status !== 409) throw new Error(`fan-out RBAC: ${r.status} ${r.body}`);
  }
  const secure = { ca: readFileSync(join(server.certDir, 'ca.crt')), token: benchToken };
  const r = await watchFanOut(server, { watchers: 1000, updates: 100, namespace: 'fanout-https', secure });
  results.watchFanOutHttps = r;
  row('watch', `fan-out over HTTPS + token + RBAC: ${r.watchers} watchers, ${r.updates} updates, p50`, r.p50, results.watchFanOut[0]?.p50, 'ms', `vs the same over plain HTTP; server CPU per update, delivered to all ${r.watchers}; the watchers' own reading ${fmt(r.clientCpuUsPerUpdate / 1000)} ms CPU per update`, r.cpuUsPerUpdate);
  row('watch', `fan-out over HTTPS + token + RBAC: ${r.watchers} watchers, ${r.updates} updates, p99`, r.p99, results.watchFanOut[0]?.p99, 'ms', '');
  log(`fan-out https ${r.watchers}: p50 ${fmt(r.p50)} ms, p99 ${fmt(r.p99)} ms, ${fmt(r.cpuUsPerUpdate, 0)} µs CPU per update`);
}

async function main() {
  // A guard against a hung phase, not a target: a full run takes 9-10 minutes on 2 cores, and a stop here writes
  // nothing (a run of 9 min 10 s on a busy machine lost its last phase to the 9 minutes this was).
  const deadline = setTimeout(() => {
    log('over the time budget, stopping');
    void stopAll().finally(() => process.exit(2));
  }, 15 * 60_000);
  deadline.unref();
  const began = performance.now();
  results.etcdVersion = /etcd Version: (\S+)/.exec(execFileSync('etcd', ['--version']).toString())?.[1];
  const etcdProc = await startEtcd();
  log(`etcd at ${etcdProc.endpoint}`);
  const etcd = new Etcd3({ hosts: etcdProc.endpoint, grpcOptions: { 'grpc.max_receive_message_length': -1 } });
  try {
    const tokens = join(scratchDir('bench-tokens-'), 'tokens.csv');
    writeFileSync(tokens, `${benchToken},bench-user,bench-uid,bench-group\n${benchEventsToken},bench-events,bench-events-uid,bench-group\n`);
    const server = await startServer(root, etcdProc.endpoint, ['--token-auth-file', tokens]);
    log(`server at ${server.url} (pid ${server.pid})`);
    const phases = { creates: () => creates(server, etcd, etcdProc.endpoint), gets: () => gets(server), secure: () => secure(server), events: () => eventStorm(server), lists: () => lists(server, etcd, '/registry'), updates: async () => { results.updates = await updates(server, etcd, { seconds, row, log }); }, crds: async () => { results.customResources = await customResources(server, { seconds, row, log }); }, admission: async () => { results.admissionPolicy = await admissionPolicy(server, { seconds, row, log }); }, wrk: async () => { results.wrk = await generatorCells(server, { seconds, row, log, token: benchToken }); }, watch: () => fanOut(server) };
    for (const [name, phase] of Object.entries(phases)) if (wanted(name)) await phase();
    results.serverPeakRss = server.memory().peak;
    await server.stop();
    if (wanted('embedded')) results.embeddedCreates = await embeddedCreates(root, etcdProc.endpoint, { seconds, row, log });
    if (wanted('memory')) Object.assign(results, await memory(root, etcdProc.endpoint, etcd, { row, log }));
    if (wanted('large-replace')) results.largeReplace = await largeReplace(root, etcdProc.endpoint, { row, log });
  } finally {
    etcd.close();
    await stopAll();
  }
  results.durationSeconds = (performance.now() - began) / 1000;
  results.rows = rows;
  // A partial run (BENCH_ONLY) never replaces the full results docs/benchmark.md is made from.
  const out = join(root, only ? 'bench/results/partial.json' : 'bench/results/latest.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\n${table(rows)}\n\n(${results.cpus} × ${results.cpuModel}, Node ${results.node}, etcd ${results.etcdVersion}; ${fmt(results.durationSeconds / 60)} min; figures also in ${out.slice(root.length + 1)}${only ? '' : ', `npm run bench:readme` puts them into docs/benchmark.md'})`);
}

process.on('SIGINT', () => void stopAll().finally(() => process.exit(130)));
main().catch(async (e) => {
  console.error(e);
  await stopAll();
  process.exit(1);
});
