import { startEtcd, startServer, stopAll } from '/work/main/scripts/bench/procs.mjs';
import { agent, closedLoop, request } from '/work/main/scripts/bench/load.mjs';
const etcd = await startEtcd();
const server = await startServer('/work/main', etcd.endpoint, process.argv.slice(2));
const a = agent(16);
const small = JSON.stringify({ k: 'v'.repeat(100) });
let r = await closedLoop(16, 4000, async (i) => {
  const res = await request(`${server.url}/api/v1/namespaces/p/configmaps`, { method: 'POST', body: JSON.stringify({ metadata: { name: `cm-${i}` }, data: { k: 'v'.repeat(100) } }), agent: a });
  if (res.status !== 201) throw new Error(String(res.status));
});
console.log('creates', r);
r = await closedLoop(32, 4000, async () => { const res = await request(`${server.url}/api/v1/namespaces/p/configmaps/cm-1?resourceVersion=0`, { agent: a }); if (res.status !== 200) throw new Error(); });
console.log('gets', r);
await server.stop();
await stopAll();
