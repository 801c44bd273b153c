// The cells that decide the secure path's cost, driven by wrk in its own process (wrk.mjs) rather than Node clients
// in the bench's process: cached GETs (32 connections), creates (16) and a LIST of 100 ConfigMaps (8), each on the
// plain port and over HTTPS with a bearer token and RBAC, taking turns so both meet the same machine. Bare node:http
// (two processes) serving the same GET bytes shows what the generator can drive: when it reaches twice the server's
// rate, the generator is not what bounds the server's cell. Server CPU µs per request is the figure that decides.
import { rmSync } from 'node:fs';
import { request } from './load.mjs';
import { startBareServer } from './procs.mjs';
import { cmBody, fmt, serverCpuSeconds } from './report.mjs';
import { haveWrk, postScript, runWrk } from './wrk.mjs';

const namespace = 'wrk';

async function setup(server) {
  const rbac = `${server.url}/apis/rbac.authorization.svc.io/v1`;
  const post = async (url, body) => {
    const r = await request(url, { method: 'POST', body: JSON.stringify(body) });
    if (r.status !== 201 && r.status !== 409) throw new Error(`setup ${url}: ${r.status} ${r.body}`);
  };
  await post(`${rbac}/clusterroles`, { metadata: { name: 'bench-wrk' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'create'] }] });
  // In both namespaces the cells read: without the second, every secure LIST was a 403 (runs before 2026-11-28).
  for (const ns of [namespace, `${namespace}-list`]) {
    await post(`${rbac}/namespaces/${ns}/rolebindings`, {
      metadata: { name: 'bench-wrk' },
      roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: 'bench-wrk' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.svc.io', name: 'bench-user' }],
    });
  }
  const base = `${server.url}/api/v1/namespaces/${namespace}/configmaps`;
  await post(base, JSON.parse(cmBody('target', { a: 'b', c: 'd' })));
  // Created in order, so the LIST's page is the same every time.
  for (let i = 0; i < 100; i++) await post(`${server.url}/api/v1/namespaces/${namespace}-list/configmaps`, JSON.parse(cmBody(`item-${i}`, { k: 'v'.repeat(100) })));
}

/** Runs each side `rounds` times in turn; per side the summed requests, the server CPU per request and wrk's. */
async function inTurns(sides, rounds, seconds) {
  const totals = Object.fromEntries(Object.keys(sides).map((k) => [k, { count: 0, seconds: 0, cpu: 0, generatorCpu: 0, errors: 0, p50: [], p99: [] }]));
  for (let r = 0; r < rounds; r++) {
    const order = Object.keys(sides);
    if (r % 2) order.reverse();
    for (const name of order) {
      const { url, connections, script, headers, cpuOf } = sides[name];
      const before = await cpuOf();
      const res = await runWrk(url, { connections, seconds, script, headers });
      const t = totals[name];
      t.cpu += (await cpuOf()) - before;
      t.count += res.count;
      t.seconds += seconds;
      t.generatorCpu += res.generatorCpuSeconds;
      t.errors += res.errors;
      t.p50.push(res.p50);
      t.p99.push(res.p99);
    }
  }
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return Object.fromEntries(
    Object.entries(totals).map(([k, t]) => [
      k,
      { opsPerSec: t.count / t.seconds, count: t.count, errors: t.errors, cpuUsPerRequest: (t.cpu * 1e6) / t.count, generatorCpuUsPerRequest: (t.generatorCpu * 1e6) / t.count, p50: median(t.p50), p99: median(t.p99) },
    ]),
  );
}

export async function generatorCells(server, { seconds, row, log, token }) {
  if (!haveWrk()) {
    log('wrk is not installed (apt-get install -y wrk): the wrk cells are skipped');
    return undefined;
  }
  await setup(server);
  const auth = { Authorization: `Bearer ${token}` };
  const cpu = () => serverCpuSeconds(server);
  const getPath = `/api/v1/namespaces/${namespace}/configmaps/target?resourceVersion=0`;
  const bytes = (await request(`${server.url}${getPath}`)).body;
  // Two processes: one alone spends all of its core (51-57 µs a GET here, about 19,000/s), and then it, not wrk, is
  // what bounds the cell that shows what wrk can drive.
  const bare = await startBareServer(bytes, undefined, { processes: 2 });
  const bareCpu = async () => bare.cpuSeconds();
  const turn = Math.max(1, Math.round(seconds / 2));
  // Four rounds rather than two: one slow moment of a shared machine weighs half as much on a ratio (with two, runs
  // of one day gave a secure GET 0.92x the plain one and a secure create 1.39x). The turns keep their length: each
  // wrk run opens its connections anew, and a shorter turn would charge their TLS handshakes to fewer requests.
  const rounds = 4;
  const results = {};
  try {
    await runWrk(`${server.url}${getPath}`, { connections: 32, seconds: 2 }); // warm-up
    await runWrk(`${server.secureUrl}${getPath}`, { connections: 32, seconds: 2, headers: auth });
    results.gets = await inTurns(
      {
        bare: { url: `${bare.url}/`, connections: 32, cpuOf: bareCpu },
        plain: { url: `${server.url}${getPath}`, connections: 32, cpuOf: cpu },
        secure: { url: `${server.secureUrl}${getPath}`, connections: 32, headers: auth, cpuOf: cpu },
      },
      rounds,
      turn,
    );
    const creates = `/api/v1/namespaces/${namespace}/configmaps`;
    const body = cmBody('NAME', { k: 'v'.repeat(100) });
    const scripts = [postScript(body), postScript(body, auth)];
    try {
      results.creates = await inTurns(
        {
          plain: { url: `${server.url}${creates}`, connections: 16, script: scripts[0], cpuOf: cpu },
          secure: { url: `${server.secureUrl}${creates}`, connections: 16, script: scripts[1], cpuOf: cpu },
        },
        rounds,
        turn,
      );
    } finally {
      for (const f of scripts) rmSync(f, { force: true });
    }
    const listPath = `/api/v1/namespaces/${namespace}-list/configmaps?resourceVersion=0`;
    results.lists = await inTurns(
      {
        plain: { url: `${server.url}${listPath}`, connections: 8, cpuOf: cpu },
        secure: { url: `${server.secureUrl}${listPath}`, connections: 8, headers: auth, cpuOf: cpu },
      },
      rounds,
      turn,
    );
  } finally {
    await bare.stop();
  }
  const { gets, creates, lists } = results;
  const headroom = gets.bare.opsPerSec / gets.plain.opsPerSec;
  // Every row names its errors (non-2xx answers and socket errors): a cell of refusals measures the refusal.
  const gen = (r) => `wrk ${fmt(r.generatorCpuUsPerRequest, 0)} µs/req; ${r.errors} errors`;
  row('wrk', 'cached GETs/s, 32 connections, plain port', gets.plain.opsPerSec, gets.bare.opsPerSec, 'ops/s', `vs bare node:http in two processes with the same ${bytes.length} bytes (${fmt(gets.bare.cpuUsPerRequest, 0)} µs/req); bare reaches ${fmt(headroom, 2)}× the server's rate; wrk ${fmt(gets.plain.generatorCpuUsPerRequest, 0)} µs/req, a fraction of the server's: the generator is not the limit; ${gets.plain.errors} errors; p99 ${fmt(gets.plain.p99, 2)} ms`, gets.plain.cpuUsPerRequest);
  row('wrk', 'cached GETs/s, 32 connections, HTTPS + token + RBAC', gets.secure.opsPerSec, gets.plain.opsPerSec, 'ops/s', `CPU ${fmt(gets.secure.cpuUsPerRequest / gets.plain.cpuUsPerRequest, 2)}× the plain GET (target ≤ 1.3×); ${gen(gets.secure)}; p99 ${fmt(gets.secure.p99, 2)} ms`, gets.secure.cpuUsPerRequest);
  row('wrk', 'creates/s, 16 connections, plain port', creates.plain.opsPerSec, '—', 'ops/s', `${gen(creates.plain)}; p99 ${fmt(creates.plain.p99, 1)} ms`, creates.plain.cpuUsPerRequest);
  row('wrk', 'creates/s, 16 connections, HTTPS + token + RBAC', creates.secure.opsPerSec, creates.plain.opsPerSec, 'ops/s', `CPU ${fmt(creates.secure.cpuUsPerRequest / creates.plain.cpuUsPerRequest, 2)}× the plain create (target ≤ 1.3×); ${gen(creates.secure)}`, creates.secure.cpuUsPerRequest);
  row('wrk', 'LISTs/s of 100 ConfigMaps (RV=0), 8 connections, plain port', lists.plain.opsPerSec, '—', 'ops/s', `${gen(lists.plain)}; p99 ${fmt(lists.plain.p99, 1)} ms`, lists.plain.cpuUsPerRequest);
  row('wrk', 'LISTs/s of 100 ConfigMaps (RV=0), 8 connections, HTTPS + token + RBAC', lists.secure.opsPerSec, lists.plain.opsPerSec, 'ops/s', `CPU ${fmt(lists.secure.cpuUsPerRequest / lists.plain.cpuUsPerRequest, 2)}× the plain LIST; ${gen(lists.secure)}`, lists.secure.cpuUsPerRequest);
  for (const [cell, sides] of Object.entries(results)) {
    for (const [side, r] of Object.entries(sides)) if (r.errors) log(`wrk: ${cell} on the ${side} side answered ${r.errors} of ${r.count} with an error`);
  }
  log(`wrk: GET plain ${fmt(gets.plain.cpuUsPerRequest, 0)} / secure ${fmt(gets.secure.cpuUsPerRequest, 0)} µs, create plain ${fmt(creates.plain.cpuUsPerRequest, 0)} / secure ${fmt(creates.secure.cpuUsPerRequest, 0)} µs, headroom ${fmt(headroom, 2)}×`);
  return { ...results, headroom, getCpuRatio: gets.secure.cpuUsPerRequest / gets.plain.cpuUsPerRequest, createCpuRatio: creates.secure.cpuUsPerRequest / creates.plain.cpuUsPerRequest, listCpuRatio: lists.secure.cpuUsPerRequest / lists.plain.cpuUsPerRequest };
}
