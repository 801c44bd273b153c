// ConfigMap creates at 16 clients with one trivial ValidatingAdmissionPolicy bound to ConfigMaps, against the same
// creates with no binding at all: the two take turns, the binding created before each "with" slice and deleted
// before each "none" slice (untimed, waiting until the watch cache admission reads has the change).
import { agent, closedLoop, inTurns, medianRoundRatio, request } from './load.mjs';
import { cmBody, fmt, serverCpuSeconds } from './report.mjs';

const group = '/apis/admissionregistration.k8s.io/v1';
const namespace = 'adm-bench';
const rules = { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] }] };
const policy = (name, expression) => ({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name }, spec: { failurePolicy: 'Fail', matchConstraints: rules, validations: [{ expression }] } });
const binding = (name) => ({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name }, spec: { policyName: name, validationActions: ['Deny'] } });

async function must(url, options, ...ok) {
  const r = await request(url, options);
  if (!ok.includes(r.status)) throw new Error(`${options?.method ?? 'GET'} ${url}: ${r.status} ${r.body}`);
  return r;
}

/** Waits until the watch cache (where admission reads bindings) holds `count` bindings. */
async function bindingsInCache(server, count) {
  for (let i = 0; ; i++) {
    const list = JSON.parse((await must(`${server.url}${group}/validatingadmissionpolicybindings?resourceVersion=0`, {}, 200)).body.toString());
    if (list.items.length === count) return;
    if (i > 400) throw new Error(`the watch cache did not reach ${count} bindings within 20 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const bind = (server, name) => async () => {
  await must(`${server.url}${group}/validatingadmissionpolicybindings`, { method: 'POST', body: JSON.stringify(binding(name)) }, 201, 409);
  await bindingsInCache(server, 1);
};
const unbind = (server, name) => async () => {
  await must(`${server.url}${group}/validatingadmissionpolicybindings/${name}`, { method: 'DELETE' }, 200, 404);
  await bindingsInCache(server, 0);
};

export async function admissionPolicy(server, { seconds, row, log }) {
  await must(`${server.url}/api/v1/namespaces`, { method: 'POST', body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }) }, 201, 409);
  const configMaps = `${server.url}/api/v1/namespaces/${namespace}/configmaps`;
  // The plugin is on: a policy that refuses one name refuses it, then goes.
  await must(`${server.url}${group}/validatingadmissionpolicies`, { method: 'POST', body: JSON.stringify(policy('adm-bench-check', "object.metadata.name != 'refused'")) }, 201);
  await bind(server, 'adm-bench-check')();
  await must(`${configMaps}?dryRun=All`, { method: 'POST', body: cmBody('refused', {}) }, 422);
  await unbind(server, 'adm-bench-check')();

  await must(`${server.url}${group}/validatingadmissionpolicies`, { method: 'POST', body: JSON.stringify(policy('adm-bench', 'object.metadata.name.size() < 300')) }, 201);
  const data = { k: 'v'.repeat(100) };
  const a = agent(16);
  const create = (prefix) => async (i) => {
    const r = await request(configMaps, { method: 'POST', body: cmBody(`${prefix}-${i}`, data), agent: a });
    if (r.status !== 201) throw new Error(`create: ${r.status}`);
  };
  // Warm both paths (the JIT, the compiled policy) before anything is measured.
  for (const [setup, prefix] of [[bind(server, 'adm-bench'), 'warm-with'], [unbind(server, 'adm-bench'), 'warm-none']]) {
    await setup();
    await closedLoop(16, 3000, create(prefix));
  }
  const cpuSeconds = () => serverCpuSeconds(server);
  const r = await inTurns({
    withPolicy: { concurrency: 16, cpuSeconds, setup: bind(server, 'adm-bench'), fn: create('with') },
    none: { concurrency: 16, cpuSeconds, setup: unbind(server, 'adm-bench'), fn: create('none') },
  }, 10, (seconds * 1000) / 3);
  a.destroy();
  await unbind(server, 'adm-bench')();
  // The median of the rounds' ratios decides; the ratio of the sums is shown beside it.
  const cpuRatio = medianRoundRatio(r.withPolicy, r.none);
  const sumRatio = r.withPolicy.cpuUsPerRequest / r.none.cpuUsPerRequest;
  row('admission', 'creates/s, 16 clients, one ValidatingAdmissionPolicy bound to ConfigMaps (vs none)', r.withPolicy.opsPerSec, r.none.opsPerSec, 'ops/s',
    `server CPU per create ${fmt(cpuRatio, 2)}× that with no binding (${fmt(r.none.cpuUsPerRequest, 0)} µs; target ≤ 1.15×; median of 10 rounds' ratios, all rounds together ${fmt(sumRatio, 2)}×); the policy checks object.metadata.name.size() < 300; p50 ${fmt(r.withPolicy.p50)} vs ${fmt(r.none.p50)} ms; taking turns`,
    r.withPolicy.cpuUsPerRequest);
  log(`admission policy: creates ${fmt(r.withPolicy.opsPerSec, 0)}/s vs ${fmt(r.none.opsPerSec, 0)}/s, server CPU ${fmt(cpuRatio, 2)}× (${fmt(r.withPolicy.cpuUsPerRequest, 0)} vs ${fmt(r.none.cpuUsPerRequest, 0)} µs)`);
  return { ...r, cpuRatio, sumRatio };
}
