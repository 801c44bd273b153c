// `npm run profile -- <scenario> [etcd]`: one load scenario against the server (dist/) on the embedded store (or on
// an etcd of its own), run under `node --cpu-prof`, then the top functions by self and by inclusive time, and self
// time per package, over the measured run only (after PROFILE_WARMUP seconds, default 3, of the same load).
// Scenarios: create (16 clients POST ConfigMaps), get (32 clients GET one ConfigMap, RV=0), list (LIST of 2,000),
// patch (16 clients merge-PATCH 16 ConfigMaps).
// PROFILE_SECURE=1: the same load over HTTPS as a bearer-token user that an RBAC binding allows (the bench's
// secure cells), to compare with the plain port's profile.
// PROFILE_CPU=perf: Linux perf's CPU time instead (profile/perf-samples.mjs): µs of CPU per request on every thread,
// by category (kernel, TLS, GC, JIT, builtins, JavaScript) and by the server's function each sample was for.
// PROFILE_THIN=1 (with PROFILE_CPU=perf, `create etcd`): then the benchmark's thin proxy under the same load and perf,
// side by side with the server (profile/thin-side.mjs).
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agent, closedLoop, pool, request } from './bench/load.mjs';
import { cpuSecondsOf, freePort, sleep, startEtcd, stopAll } from './bench/procs.mjs';
import { attribute, havePerf, newestCodeOnly, recordCpu, readSamples } from './profile/perf-samples.mjs';
import { profileThin, sideBySide } from './profile/thin-side.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const scenario = process.argv[2] ?? 'create';
const seconds = Number(process.env.PROFILE_SECONDS ?? 5);
if (!['create', 'get', 'list', 'patch'].includes(scenario)) {
  console.error('usage: npm run profile -- create|get|list|patch [etcd]');
  process.exit(2);
}
const withThin = !!process.env.PROFILE_THIN;
if (withThin && (process.env.PROFILE_CPU !== 'perf' || scenario !== 'create' || process.argv[3] !== 'etcd' || process.env.PROFILE_SECURE)) {
  console.error('PROFILE_THIN=1 goes with PROFILE_CPU=perf and `create etcd` on the plain port');
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), 'profile-'));
const port = await freePort();
const secure = !!process.env.PROFILE_SECURE;
const securePort = secure ? await freePort() : 0;
const token = 'profile-token-0123456789';
mkdirSync(join(work, 'pki'));
writeFileSync(join(work, 'tokens.csv'), `${token},profile-user,profile-uid,profile-group\n`);
const secureArgs = secure ? ['--token-auth-file', join(work, 'tokens.csv')] : [];
const etcd = process.argv[3] === 'etcd' ? await startEtcd() : undefined;
const store = etcd ? ['--etcd-servers', etcd.endpoint, '--data-dir', join(work, 'data')] : ['--data-dir', join(work, 'data')];
// PROFILE_NODE_ARGS="--max-semi-space-size=32" (say): extra node options for the server. The profilers slow the first
// seconds enough that V8 may pretenure the request path's allocation sites, after which every scavenge promotes whole
// requests (docs/benchmark.md, "The profiler's own trap"); "--no-allocation-site-pretenuring" keeps runs comparable.
const nodeArgs = (process.env.PROFILE_NODE_ARGS ?? '').split(' ').filter(Boolean);
const usePerf = process.env.PROFILE_CPU === 'perf';
if (usePerf && !havePerf()) {
  console.error('PROFILE_CPU=perf needs Linux perf (Debian: apt-get install linux-perf) and permission to record (perf_event_paranoid ≤ 1, or root)');
  process.exit(2);
}
const profiler = usePerf ? ['--perf-basic-prof-only-functions'] : ['--cpu-prof', `--cpu-prof-dir=${join(work, 'prof')}`];
const child = spawn(process.execPath, [...nodeArgs, ...profiler, join(root, 'dist/main.js'), ...store,
  '--cert-dir', join(work, 'pki'), '--port', String(port), '--secure-port', String(securePort), '--log-level', 'warn', ...secureArgs], { stdio: 'inherit' });
const plainBase = `http://127.0.0.1:${port}/api/v1/namespaces/profile/configmaps`;
const base = secure ? `https://127.0.0.1:${securePort}/api/v1/namespaces/profile/configmaps` : plainBase;
for (let i = 0; i < 300; i++) {
  try { if ((await request(`http://127.0.0.1:${port}/readyz`)).status === 200) break; } catch { /* starting */ }
  await sleep(100);
}
const body = (name, size = 100) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v'.repeat(size) } });
if (secure) {
  const rbac = `http://127.0.0.1:${port}/apis/rbac.authorization.svc.io/v1`;
  const post = (url, o) => request(url, { method: 'POST', body: JSON.stringify(o) });
  await post(`${rbac}/clusterroles`, { metadata: { name: 'profile' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'create'] }] });
  await post(`${rbac}/namespaces/profile/rolebindings`, {
    metadata: { name: 'profile' }, roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: 'profile' },
    subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.svc.io', name: 'profile-user' }],
  });
}
const a = secure ? agent(32, { ca: readFileSync(join(work, 'pki', 'ca.crt')) }) : agent(32);
const headers = secure ? { authorization: `Bearer ${token}` } : {};
// PROFILE_POLICY=1: one trivial ValidatingAdmissionPolicy bound to ConfigMaps, to see what admission by policy costs.
if (process.env.PROFILE_POLICY) {
  const vap = `http://127.0.0.1:${port}/apis/admissionregistration.k8s.io/v1`;
  const rules = { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] };
  await request(`${vap}/validatingadmissionpolicies`, { method: 'POST', body: JSON.stringify({ metadata: { name: 'p' }, spec: { matchConstraints: rules, validations: [{ expression: 'object.metadata.name.size() < 300' }] } }) });
  await request(`${vap}/validatingadmissionpolicybindings`, { method: 'POST', body: JSON.stringify({ metadata: { name: 'p' }, spec: { policyName: 'p', validationActions: ['Deny'] } }) });
}
if (scenario === 'get') await request(plainBase, { method: 'POST', body: body('target') });
if (scenario === 'list') await pool(2000, 32, (i) => request(plainBase, { method: 'POST', body: body(`cm-${i}`, 900) }));
if (scenario === 'patch') await pool(16, 16, (i) => request(plainBase, { method: 'POST', body: body(`p-${i}`) }));
const clients = Number(process.env.PROFILE_CLIENTS ?? (scenario === 'list' ? 4 : scenario === 'get' ? 32 : 16));
let run = 0;
const load = (ms) => closedLoop(clients, ms, async (i) => {
  const r = scenario === 'create' ? await request(base, { method: 'POST', body: body(`c-${run}-${i}`), agent: a, headers })
    : scenario === 'get' ? await request(`${base}/target?resourceVersion=0`, { agent: a, headers })
    : scenario === 'patch' ? await request(`${base}/p-${i % 16}`, { method: 'PATCH', body: JSON.stringify({ data: { n: String(i) } }), agent: a, headers: { ...headers, 'content-type': 'application/merge-patch+json' } })
    : await request(`${base}?resourceVersion=0`, { agent: a, headers });
  if (r.status >= 300) throw new Error(String(r.status));
});
// The same load first, unprofiled by the count below (JIT, caches): only samples taken during the measured run count.
await load(Number(process.env.PROFILE_WARMUP ?? 3) * 1000); // the same PROFILE_WARMUP as the thin proxy's below
run++;
const perf = usePerf ? recordCpu(child.pid, join(work, 'perf.data')) : undefined;
if (perf) await sleep(300); // perf attaches to each thread before the run starts
const cpuBefore = cpuSecondsOf(child.pid);
const window = [process.hrtime.bigint() / 1000n];
const result = await load(seconds * 1000);
window.push(process.hrtime.bigint() / 1000n);
const cpuUsPerRequest = ((cpuSecondsOf(child.pid) - cpuBefore) * 1e6) / result.count;
await perf?.stop();
a.destroy();
child.kill('SIGINT');
await new Promise((r) => child.on('exit', r));
const warmupMs = Number(process.env.PROFILE_WARMUP ?? 3) * 1000;
const thin = withThin ? await profileThin({ root, endpoint: etcd.endpoint, work, clients, body, warmupMs, seconds }) : undefined;
await stopAll();
const heading = `\n${scenario}${secure ? ' (HTTPS, bearer token, RBAC)' : ''}: ${result.opsPerSec.toFixed(0)} req/s, p50 ${result.p50.toFixed(2)} ms, ${result.errors} errors`;
if (perf) {
  newestCodeOnly(child.pid);
  const { byCategory, byFrame, byOwner, byThread, total } = attribute(readSamples(join(work, 'perf.data')), result.count, root, child.pid);
  // PROFILE_SAVE=/tmp/get.perf (say): keep perf's data (and node's symbol map) for `perf report -i`.
  if (process.env.PROFILE_SAVE) copyFileSync(join(work, 'perf.data'), process.env.PROFILE_SAVE);
  else rmSync(`/tmp/perf-${child.pid}.map`, { force: true });
  rmSync(work, { recursive: true, force: true });
  const rows = (m, n) => [...m].sort((x, y) => y[1] - x[1]).slice(0, n).map(([k, v]) => `${v.toFixed(1).padStart(8)} µs  ${k}`).join('\n');
  console.log(`${heading}; server CPU ${cpuUsPerRequest.toFixed(0)} µs per request (/proc), ${total.toFixed(0)} in perf's samples (under perf)`);
  console.log(`\n## CPU per request by thread\n${rows(byThread, 5)}`);
  console.log(`\n## CPU per request by what ran (the sampled frame)\n${rows(byCategory, 20)}`);
  console.log(`\n## CPU per request by sampled frame (self time)\n${rows(byFrame, Number(process.env.PROFILE_TOP ?? 30))}`);
  console.log(`\n## CPU per request by the server's function it ran for (with the node internals, builtins and kernel below it)\n${rows(byOwner, Number(process.env.PROFILE_TOP ?? 30))}`);
  if (thin) {
    console.log(`\n# The thin proxy under the same load: ${thin.opsPerSec.toFixed(0)} creates/s, CPU ${thin.cpuUs.toFixed(0)} µs per create (/proc); the server ${(cpuUsPerRequest / thin.cpuUs).toFixed(2)}× it`);
    console.log(`\n## by thread\n${sideBySide(byThread, thin.byThread)}`);
    console.log(`\n## by what ran\n${sideBySide(byCategory, thin.byCategory)}`);
    console.log(`\n## the thin proxy by function it ran for\n${rows(thin.byOwner, Number(process.env.PROFILE_TOP ?? 30))}`);
  }
  process.exit(0);
}
const profDir = join(work, 'prof');
const prof = JSON.parse(readFileSync(join(profDir, readdirSync(profDir)[0]), 'utf8'));
// PROFILE_SAVE=/tmp/create.cpuprofile (say): keep the profile, with the measured window, for another look.
if (process.env.PROFILE_SAVE) writeFileSync(process.env.PROFILE_SAVE, JSON.stringify({ ...prof, window: window.map(Number), count: result.count }));
rmSync(work, { recursive: true, force: true });

// Self time per node from the samples, then inclusive time by walking each sample's ancestors once per function.
const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const name = (n) => {
  const f = n.callFrame;
  const where = f.url ? f.url.replace(/^.*node_modules\//, '').replace(`file://${root}/`, '') : '';
  return `${f.functionName || '(anonymous)'} ${where}${where ? `:${f.lineNumber + 1}` : ''}`;
};
const pkg = (n) => {
  const url = n.callFrame.url;
  if (!url) return n.callFrame.functionName || '(native)';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  return m ? m[1] : url.startsWith('node:') ? url : url.replace(`file://${root}/`, '').replace(/\/[^/]+$/, '/');
};
const self = new Map(); const incl = new Map(); const byPkg = new Map();
let total = 0;
// Sample timestamps share the monotonic clock with process.hrtime in this process.
let at = prof.startTime;
const measuring = prof.samples.map((_, i) => (at += prof.timeDeltas[i] ?? 0) >= Number(window[0]) && at <= Number(window[1]));
prof.samples.forEach((id, i) => {
  if (!measuring[i]) return;
  const dt = prof.timeDeltas[i] ?? 0;
  total += dt;
  const n = nodes.get(id);
  self.set(name(n), (self.get(name(n)) ?? 0) + dt);
  byPkg.set(pkg(n), (byPkg.get(pkg(n)) ?? 0) + dt);
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const k = name(nodes.get(cur));
    if (!seen.has(k)) incl.set(k, (incl.get(k) ?? 0) + dt);
    seen.add(k);
  }
});
const top = (m, n) => [...m].sort((x, y) => y[1] - x[1]).slice(0, n).map(([k, v]) => `${((100 * v) / total).toFixed(1).padStart(6)}%  ${k}`).join('\n');
const idle = (self.get('(idle) ') ?? 0);
console.log(`${heading} (under the profiler); main thread busy ${((total - idle) / result.count).toFixed(0)} µs per request; server CPU ${cpuUsPerRequest.toFixed(0)} µs per request (/proc)`);
console.log(`\n## self time, top functions\n${top(self, Number(process.env.PROFILE_TOP ?? 25))}`);
console.log(`\n## inclusive time, top functions\n${top(new Map([...incl].filter(([k]) => !k.startsWith('(root)'))), Number(process.env.PROFILE_TOP ?? 25))}`);
console.log(`\n## self time by package or folder\n${top(byPkg, Number(process.env.PROFILE_TOP ?? 20))}`);
// PROFILE_FOCUS=dist/registry/ (say): inclusive time of the functions under that path only.
if (process.env.PROFILE_FOCUS) console.log(`\n## inclusive time under ${process.env.PROFILE_FOCUS}\n${top(new Map([...incl].filter(([k]) => k.includes(process.env.PROFILE_FOCUS))), Number(process.env.PROFILE_TOP ?? 40))}`);
// PROFILE_CALLERS=deprecate (say): who calls the functions whose name contains it, by their self time.
if (process.env.PROFILE_CALLERS) {
  const callers = new Map();
  prof.samples.forEach((id, i) => {
    if (!measuring[i] || !name(nodes.get(id)).includes(process.env.PROFILE_CALLERS)) return;
    const chain = [];
    for (let cur = parent.get(id); cur !== undefined && chain.length < 4; cur = parent.get(cur)) chain.push(name(nodes.get(cur)));
    const k = chain.join('  <  ');
    callers.set(k, (callers.get(k) ?? 0) + (prof.timeDeltas[i] ?? 0));
  });
  console.log(`\n## callers of ${process.env.PROFILE_CALLERS}\n${top(callers, 10)}`);
}
