// A custom resource kind (a CRD with a structural schema, one CEL-free version) beside ConfigMaps of the same size:
// creates at 16 clients and cached GETs at 32, the two kinds taking turns, server CPU per request deciding.
import { agent, inTurns, request } from './load.mjs';
import { cmBody, fmt, serverCpuSeconds } from './report.mjs';

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'benchwidgets.bench.example.com' },
  spec: {
    group: 'bench.example.com',
    scope: 'Namespaced',
    names: { plural: 'benchwidgets', singular: 'benchwidget', kind: 'BenchWidget' },
    versions: [{
      name: 'v1',
      served: true,
      storage: true,
      schema: { openAPIV3Schema: { type: 'object', properties: { data: { type: 'object', additionalProperties: { type: 'string' } } } } },
    }],
  },
};
const crBody = (name, data) => JSON.stringify({ apiVersion: 'bench.example.com/v1', kind: 'BenchWidget', metadata: { name }, data });

export async function customResources(server, { seconds, row, log }) {
  const created = await request(`${server.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, { method: 'POST', body: JSON.stringify(crd) });
  if (created.status !== 201) throw new Error(`CRD: ${created.status} ${created.body}`);
  const crs = `${server.url}/apis/bench.example.com/v1/namespaces`;
  // Served once the CRD is established and every part of the server follows (a few hundred ms).
  for (let i = 0; (await request(`${crs}/bench/benchwidgets`)).status !== 200; i++) {
    if (i > 200) throw new Error('the bench CRD was not served within 20 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  const data = { k: 'v'.repeat(100) };
  const cm = agent(16);
  const cr = agent(16);
  // Both paths warm before the measured turns (the custom resource's schema walk is new code to the JIT here).
  const warm = async (url, body, a) => {
    const end = Date.now() + 2000;
    await Promise.all(Array.from({ length: 16 }, async (_, l) => {
      for (let i = 0; Date.now() < end; i++) await request(url, { method: 'POST', body: body(`warm-${l}-${i}`, data), agent: a });
    }));
  };
  await warm(`${server.url}/api/v1/namespaces/cr-bench/configmaps`, cmBody, cm);
  await warm(`${crs}/cr-bench/benchwidgets`, crBody, cr);
  const creates = await inTurns({
    configMap: { concurrency: 16, cpuSeconds: () => serverCpuSeconds(server), fn: async (i) => {
      const r = await request(`${server.url}/api/v1/namespaces/cr-bench/configmaps`, { method: 'POST', body: cmBody(`cm-${i}`, data), agent: cm });
      if (r.status !== 201) throw new Error(`ConfigMap create: ${r.status}`);
    } },
    customResource: { concurrency: 16, cpuSeconds: () => serverCpuSeconds(server), fn: async (i) => {
      const r = await request(`${crs}/cr-bench/benchwidgets`, { method: 'POST', body: crBody(`cr-${i}`, data), agent: cr });
      if (r.status !== 201) throw new Error(`custom resource create: ${r.status} ${r.body}`);
    } },
  }, 6, (seconds * 1000) / 3);
  cm.destroy();
  cr.destroy();
  const cmGet = agent(32);
  const crGet = agent(32);
  const gets = await inTurns({
    configMap: { concurrency: 32, cpuSeconds: () => serverCpuSeconds(server), fn: async () => {
      const r = await request(`${server.url}/api/v1/namespaces/cr-bench/configmaps/cm-0?resourceVersion=0`, { agent: cmGet });
      if (r.status !== 200) throw new Error(`ConfigMap get: ${r.status}`);
    } },
    customResource: { concurrency: 32, cpuSeconds: () => serverCpuSeconds(server), fn: async () => {
      const r = await request(`${crs}/cr-bench/benchwidgets/cr-0?resourceVersion=0`, { agent: crGet });
      if (r.status !== 200) throw new Error(`custom resource get: ${r.status}`);
    } },
  }, 6, (seconds * 1000) / 3);
  cmGet.destroy();
  crGet.destroy();
  const ratio = (a, b) => fmt(a.cpuUsPerRequest / b.cpuUsPerRequest, 2);
  row('custom resources', 'creates/s of a custom resource, 16 clients (vs ConfigMaps)', creates.customResource.opsPerSec, creates.configMap.opsPerSec, 'ops/s',
    `server CPU per create ${ratio(creates.customResource, creates.configMap)}× a ConfigMap's (${fmt(creates.configMap.cpuUsPerRequest, 0)} µs); same data, taking turns`, creates.customResource.cpuUsPerRequest);
  row('custom resources', 'cached GETs/s of a custom resource, 32 clients (vs ConfigMaps)', gets.customResource.opsPerSec, gets.configMap.opsPerSec, 'ops/s',
    `server CPU per GET ${ratio(gets.customResource, gets.configMap)}× a ConfigMap's (${fmt(gets.configMap.cpuUsPerRequest, 0)} µs)`, gets.customResource.cpuUsPerRequest);
  log(`custom resources: creates ${ratio(creates.customResource, creates.configMap)}×, GETs ${ratio(gets.customResource, gets.configMap)}× a ConfigMap's CPU`);
  return { creates, gets };
}
