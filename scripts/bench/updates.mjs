// Updates of existing ConfigMaps at 16 clients, each client on its own object (so none conflict): PUT with the
// resourceVersion from its previous answer, merge PATCH, and server-side apply (force). The baseline is what the
// server does against etcd for each: read the key, then a transaction that writes only if its mod_revision is
// still the one read (compare-and-swap), each loop on its own key.
import { agent, closedLoop, request } from './load.mjs';
import { cmBody, fmt, measured } from './report.mjs';

const clients = 16;
const data = (i) => ({ k: 'v'.repeat(100), n: String(i) });

export async function updates(server, etcd, { seconds, row, log }) {
  const base = `${server.url}/api/v1/namespaces/update/configmaps`;
  const rvs = [];
  for (let l = 0; l < clients; l++) {
    const r = await request(base, { method: 'POST', body: cmBody(`cm-${l}`, data(0)) });
    if (r.status !== 201) throw new Error(`setup: ${r.status} ${r.body}`);
    rvs[l] = JSON.parse(r.body).metadata.resourceVersion;
  }
  const a = agent(clients);
  const kinds = {
    PUTs: async (i, l) => {
      const r = await request(`${base}/cm-${l}`, { method: 'PUT', body: cmBody(`cm-${l}`, data(i), { resourceVersion: rvs[l] }), agent: a });
      if (r.status === 200) rvs[l] = JSON.parse(r.body).metadata.resourceVersion;
      return r;
    },
    'merge PATCHes': (i, l) => request(`${base}/cm-${l}`, {
      method: 'PATCH', body: JSON.stringify({ data: { n: String(i) } }), agent: a, headers: { 'content-type': 'application/merge-patch+json' },
    }),
    // kubectl and client-go send the applied configuration as JSON, which is YAML too.
    'server-side applies': (i, l) => request(`${base}/cm-${l}?fieldManager=bench&force=true`, {
      method: 'PATCH', body: cmBody(`cm-${l}`, data(i)), agent: a, headers: { 'content-type': 'application/apply-patch+yaml' },
    }),
  };
  // Each kind warmed first, unmeasured: run alone (BENCH_ONLY=updates), the first kind met a cold JIT. The PUTs last,
  // with the resourceVersions the patches left.
  await closedLoop(clients, 1500, (i, l) => kinds['merge PATCHes'](i, l));
  await closedLoop(clients, 1500, (i, l) => kinds['server-side applies'](i, l));
  for (let l = 0; l < clients; l++) rvs[l] = JSON.parse((await request(`${base}/cm-${l}`)).body).metadata.resourceVersion;
  await closedLoop(clients, 1500, (i, l) => kinds.PUTs(i, l));
  const api = {};
  for (const [kind, send] of Object.entries(kinds)) {
    let conflicts = 0;
    api[kind] = await measured(server, () => closedLoop(clients, seconds * 1000, async (i, l) => {
      const r = await send(i, l);
      if (r.status === 409) conflicts++;
      if (r.status !== 200) throw new Error(`${kind}: ${r.status} ${r.body}`);
    }));
    api[kind].conflicts = conflicts;
  }
  a.destroy();

  for (let l = 0; l < clients; l++) await etcd.put(`/bench-cas/${l}`).value(cmBody(`cm-${l}`, data(0)));
  let casFailed = 0;
  const raw = await closedLoop(clients, seconds * 1000, async (i, l) => {
    const key = `/bench-cas/${l}`;
    const [kv] = (await etcd.get(key).exec()).kvs;
    const res = await etcd.if(key, 'Mod', '==', kv.mod_revision).then(etcd.put(key).value(cmBody(`cm-${l}`, data(i)))).commit();
    if (!res.succeeded) {
      casFailed++;
      throw new Error('compare-and-swap failed');
    }
  });
  for (const [kind, r] of Object.entries(api)) {
    row('update', `${kind}/s, ${clients} clients, each on its own ConfigMap`, r.opsPerSec, raw.opsPerSec, 'ops/s',
      `vs etcd read + compare-and-swap txn per update, own key each; p50 ${fmt(r.p50)} vs ${fmt(raw.p50)} ms; ${r.conflicts} conflicts (409), ${r.errors - r.conflicts} other errors`, r.cpuUsPerRequest);
    log(`${kind}: api ${fmt(r.opsPerSec, 0)}/s (${fmt(r.cpuUsPerRequest, 0)} µs CPU), etcd CAS ${fmt(raw.opsPerSec, 0)}/s`);
  }
  return { clients, api, etcdCas: { ...raw, failed: casFailed } };
}
