/**
 * The exact command lines of the Dockerfile, deploy/compose.yaml and deploy/kubernetes/, started on this
 * machine: `node dist/main.js` with the ENTRYPOINT's arguments plus the compose command or the
 * Deployment's args, etcd with the members' arguments, the init container's shell script, the balancer,
 * and the HEALTHCHECK and probes against them. Only container paths, ports and host names are mapped
 * (support/manifests.ts); what a container engine adds (users, networks, DNS) is the linted part.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import * as https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { ensurePki } from '../../src/adapters/pki';
import { ensureEtcdBinary, etcdHealthy, freePort } from '../support/etcd-harness';
import { compose, entrypoint, expandEnv, healthcheck, imageStage, instructions, kubernetes, mapArgs, readDockerfile, repo } from './support/manifests';

jest.setTimeout(120_000);

const dockerfile = readDockerfile();
const dirs: string[] = [];
const tmp = (name: string) => {
  const d = mkdtempSync(join(tmpdir(), `svc-deploy-${name}-`));
  dirs.push(d);
  return d;
};

interface Started {
  child: ChildProcess;
  output(): string;
}
const running: Started[] = [];

/** Starts a mapped command line; `node`, `etcd` and `sh` are this machine's. */
function start(argv: string[], env: Record<string, string> = {}): Started {
  const programs: Record<string, () => string> = { node: () => process.execPath, etcd: ensureEtcdBinary };
  const program = programs[argv[0]]?.() ?? argv[0];
  const child = spawn(program, argv.slice(1), { cwd: repo, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output = (output + d).slice(-20_000)));
  child.stderr!.on('data', (d) => (output = (output + d).slice(-20_000)));
  const s = { child, output: () => output };
  running.push(s);
  return s;
}

async function stop(s: Started, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  const { child } = s;
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const code = await exited;
  clearTimeout(timer);
  return code;
}

afterAll(async () => {
  await Promise.all(running.map((s) => stop(s)));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, pred: () => Promise<boolean> | boolean, proc?: Started): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await pred())) {
    if (proc && proc.child.exitCode !== null) throw new Error(`${what}: the process exited (${proc.child.exitCode}): ${proc.output()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${proc ? `: ${proc.output()}` : ''}`);
    await sleep(200);
  }
}

/** Runs a short command (health check, init script) to completion: its exit code and output. */
function run(argv: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((res) => {
    const s = start(argv);
    s.child.once('exit', (code) => res({ code, output: s.output() }));
  });
}

interface Tls {
  ca?: string | Buffer;
  cert?: Buffer;
  key?: Buffer;
}

function get(port: number, path: string, tls: Tls, method = 'GET', body?: unknown): Promise<{ status: number; text: string }> {
  return new Promise((res, rej) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = https.request(
      { host: '127.0.0.1', port, path, method, agent: false, timeout: 10_000, ...tls, rejectUnauthorized: !!tls.ca, headers: payload ? { 'content-type': 'application/json' } : {} },
      (r) => {
        let text = '';
        r.setEncoding('utf8');
        r.on('data', (d) => (text += d));
        r.on('end', () => res({ status: r.statusCode ?? 0, text }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', rej);
    req.end(payload);
  });
}

/** The CA and client certificate of an admin kubeconfig the server wrote. */
function admin(kubeconfig: string): Tls {
  const kc = load(readFileSync(kubeconfig, 'utf8')) as any;
  const b64 = (s: string) => Buffer.from(s, 'base64');
  return { ca: b64(kc.clusters[0].cluster['certificate-authority-data']), cert: b64(kc.users[0].user['client-certificate-data']), key: b64(kc.users[0].user['client-key-data']) };
}

/** The image's HEALTHCHECK, mapped: true when it exits 0. */
async function healthy(map: Record<string, string>): Promise<boolean> {
  return (await run(mapArgs(healthcheck(dockerfile).command, map))).code === 0;
}

/** Metric names a PromQL expression reads: identifiers that are not functions, labels, or keywords. */
function metricNames(expr: string): string[] {
  const bare = expr.replace(/\{[^}]*\}/g, '').replace(/\[[^\]]*\]/g, '').replace(/\b(by|without)\s*\([^)]*\)/g, '');
  const names: string[] = [];
  for (const m of bare.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)) if (!m[2] && !['and', 'or', 'unless', 'bool', 'offset'].includes(m[1])) names.push(m[1]);
  return names;
}

/** A member's etcd command line mapped: its own listen addresses, every member's advertised URL, its data. */
function etcdMap(i: number, clients: number[], peers: number[], host: (j: number) => string, dataPath: string, dataDir: string): Record<string, string> {
  const map: Record<string, string> = {
    'http://0.0.0.0:2379': `http://127.0.0.1:${clients[i]}`,
    'http://0.0.0.0:2380': `http://127.0.0.1:${peers[i]}`,
    [dataPath]: dataDir,
  };
  clients.forEach((_, j) => {
    map[`http://${host(j)}:2379`] = `http://127.0.0.1:${clients[j]}`;
    map[`http://${host(j)}:2380`] = `http://127.0.0.1:${peers[j]}`;
  });
  return map;
}

async function startMembers(members: Array<{ argv: (clients: number[], peers: number[]) => string[]; env?: Record<string, string> }>): Promise<number[]> {
  const clients = await Promise.all(members.map(() => freePort()));
  const peers = await Promise.all(members.map(() => freePort()));
  const procs = members.map((m) => start(m.argv(clients, peers), m.env));
  for (const [i, c] of clients.entries()) await until(`etcd member ${i}`, () => etcdHealthy(`http://127.0.0.1:${c}`), procs[i]);
  return clients;
}

test('the image: ENTRYPOINT serves HTTPS on the embedded store in /data, and its HEALTHCHECK follows readiness', async () => {
  expect(instructions(imageStage(dockerfile), 'CMD')).toEqual([]);
  const data = tmp('image');
  const port = await freePort();
  const map = { '/data': data, '0.0.0.0': '127.0.0.1', '6443': String(port) };
  const server = start(mapArgs(entrypoint(dockerfile), map));
  await until('the HEALTHCHECK to pass', () => healthy(map), server);

  // HTTPS with the generated CA (127.0.0.1 is in the serving certificate); anonymous may read health.
  const ca = readFileSync(join(data, 'pki', 'ca.crt'));
  for (const path of ['/readyz', '/livez', '/healthz']) expect(await get(port, path, { ca })).toEqual({ status: 200, text: 'ok' });
  expect((await get(port, '/api/v1/namespaces/default/configmaps', { ca })).status).toBe(403);
  expect(statSync(data).isDirectory()).toBe(true);
  const creds = admin(join(data, 'admin.kubeconfig'));
  expect((await get(port, '/api/v1/namespaces/default/configmaps', creds)).status).toBe(200);

  // Every metric the Grafana dashboard reads is one this server exports.
  const families = new Set<string>();
  for (const m of (await get(port, '/metrics', creds)).text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    families.add(m[1]);
    if (m[2] === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) families.add(m[1] + suffix);
  }
  const dashboard = JSON.parse(readFileSync(join(repo, 'deploy/grafana-dashboard.json'), 'utf8'));
  const read = dashboard.panels.flatMap((p: any) => (p.targets ?? []).flatMap((t: any) => metricNames(t.expr)));
  expect(read.length).toBeGreaterThan(10);
  expect(read.filter((n: string) => !families.has(n))).toEqual([]);

  expect(await stop(server)).toBe(0);
  expect(await healthy(map)).toBe(false);
});

test('deploy/compose.yaml: three etcd members, two replicas sharing the pki volume, the balancer in front', async () => {
  const services = compose().services;
  const members = ['etcd-0', 'etcd-1', 'etcd-2'];
  const clients = await startMembers(
    members.map((m, i) => ({ argv: (c: number[], p: number[]) => mapArgs(services[m].command, etcdMap(i, c, p, (j) => members[j], '/etcd-data', tmp(m))) })),
  );
  const etcdUrls = Object.fromEntries(members.map((m, j) => [`http://${m}:2379`, `http://127.0.0.1:${clients[j]}`]));

  const pki = tmp('pki-volume');
  const ports: Record<string, number> = {};
  const data: Record<string, string> = {};
  for (const name of ['apiserver-1', 'apiserver-2']) {
    ports[name] = await freePort();
    data[name] = tmp(name);
    const map = { ...etcdUrls, '/data/pki': pki, '/data': data[name], '0.0.0.0': '127.0.0.1', '6443': String(ports[name]) };
    const server = start(mapArgs([...entrypoint(dockerfile), ...services[name].command], map));
    await until(`${name} to be healthy`, () => healthy(map), server); // what depends_on waits for
  }

  // This machine's host name is not `apiserver`; localhost is in every generated serving certificate too.
  const lb = await freePort();
  const balancerMap = {
    '0.0.0.0:6443': `127.0.0.1:${lb}`,
    'apiserver-1:6443': `127.0.0.1:${ports['apiserver-1']}`,
    'apiserver-2:6443': `127.0.0.1:${ports['apiserver-2']}`,
    '/data/pki': pki,
    apiserver: 'localhost',
  };
  const balancer = start(mapArgs(services.balancer.entrypoint, balancerMap));
  await until('the balancer to find both replicas ready', () => (balancer.output().match(/"backend ready"/g) ?? []).length === 2, balancer);
  expect(balancer.output()).not.toContain('not ready');
  expect((await run(mapArgs(services.balancer.healthcheck.test.slice(1), { '6443': String(lb) }))).code).toBe(0);

  // One CA for both: apiserver-1's admin kubeconfig (in its /data) works through the balancer and on each replica.
  const creds = admin(join(data['apiserver-1'], 'admin.kubeconfig'));
  const created = await get(lb, '/api/v1/namespaces/default/configmaps', creds, 'POST', { metadata: { name: 'via-balancer' }, data: { a: 'b' } });
  expect(created.status).toBe(201);
  for (const port of Object.values(ports)) expect((await get(port, '/api/v1/namespaces/default/configmaps/via-balancer', creds)).status).toBe(200);
});

test('deploy/kubernetes: the etcd StatefulSet, and the Deployment’s init container, args and probes', async () => {
  const sts = kubernetes('etcd.yaml').find((o) => o.kind === 'StatefulSet');
  const svc = sts.spec.serviceName;
  const member = sts.spec.template.spec.containers[0];
  const dataPath = member.volumeMounts[0].mountPath;
  const clients = await startMembers(
    [0, 1, 2].map((i) => {
      const env = { POD_NAME: `${sts.metadata.name}-${i}` };
      const argv = expandEnv([...member.command, ...member.args], env);
      return { env, argv: (c: number[], p: number[]) => mapArgs(argv, etcdMap(i, c, p, (j) => `${sts.metadata.name}-${j}.${svc}`, dataPath, tmp(`sts-${i}`))) };
    }),
  );
  const etcdUrls = Object.fromEntries(clients.map((c, j) => [`http://${sts.metadata.name}-${j}.${svc}:2379`, `http://127.0.0.1:${c}`]));

  // The Secret: the four shared files of one cluster PKI, as apiserver.yaml says to create it.
  const generated = await ensurePki(tmp('pki'), '127.0.0.1', new Date());
  const secret = tmp('secret');
  for (const f of ['ca.crt', 'ca.key', 'sa.key', 'sa.pub']) copyFileSync(join(generated.paths.dir, f), join(secret, f));

  const deploy = kubernetes('apiserver.yaml').find((o) => o.kind === 'Deployment');
  const pod = deploy.spec.template.spec;
  const secretVolume = pod.volumes.find((v: any) => v.secret?.secretName === 'svc-apiserver-pki').name;
  const c = pod.containers[0];
  const pods: Array<{ port: number; data: string }> = [];
  for (let k = 0; k < deploy.spec.replicas; k++) {
    const data = tmp(`pod-${k}`);
    const volumes: Record<string, string> = { [secretVolume]: secret, data };
    const mounts = (container: any) => Object.fromEntries(container.volumeMounts.map((m: any) => [m.mountPath, volumes[m.name]]));
    for (const init of pod.initContainers) {
      const result = await run(mapArgs(init.command, mounts(init)));
      expect(result).toEqual({ code: 0, output: '' });
    }
    const port = await freePort();
    const map = { ...etcdUrls, ...mounts(c), '0.0.0.0': '127.0.0.1', '6443': String(port) };
    const server = start(mapArgs([...entrypoint(dockerfile), ...c.args], map));
    pods.push({ port, data });
    // The kubelet's HTTPS probes: no credentials, no certificate verification, 200-399 is success.
    for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe']) {
      await until(`${probe} of pod ${k}`, async () => {
        const r = await get(port, c[probe].httpGet.path, {}).catch(() => ({ status: 0 }));
        return r.status >= 200 && r.status < 400;
      }, server);
    }
  }
  // Both pods took the Secret's CA: pod 0's admin credentials work on pod 1.
  const creds = admin(join(pods[0].data, 'admin.kubeconfig'));
  for (const p of pods) {
    expect(readFileSync(join(p.data, 'pki', 'ca.crt'), 'utf8')).toBe(generated.ca.certPem);
    expect(readFileSync(join(p.data, 'pki', 'sa.pub'), 'utf8')).toBe(readFileSync(generated.paths.saPub, 'utf8'));
  }
  expect((await get(pods[0].port, '/api/v1/namespaces/default/configmaps', creds, 'POST', { metadata: { name: 'k8s' } })).status).toBe(201);
  expect((await get(pods[1].port, '/api/v1/namespaces/default/configmaps/k8s', creds)).status).toBe(200);
});
