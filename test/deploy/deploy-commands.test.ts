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
import { until as sharedUntil } from '../support/until';
import { ensurePki } from '../../src/adapters/pki';
import { ensureDebianTool, ensureEtcdBinary, etcdHealthy, freePort, type EtcdTlsFiles } from '../support/etcd-harness';
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

/** Programs of the command lines, as this machine has them. */
const programs: Record<string, () => string> = { node: () => process.execPath, etcd: ensureEtcdBinary };

/** Starts a mapped command line; `node`, `etcd`, `etcdctl` and `sh` are this machine's. */
function start(argv: string[], env: Record<string, string> = {}): Started {
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

/** The shared until with a minute to spare; with a process, its output on timeout, and an early end if it exits. */
function until(what: string, pred: () => Promise<boolean> | boolean, proc?: Started): Promise<true> {
  const probe = async () => {
    if (await pred()) return true;
    if (proc && proc.child.exitCode !== null) throw new Error(`${what}: the process exited (${proc.child.exitCode}): ${proc.output()}`);
    return false;
  };
  return sharedUntil(what, probe, { timeoutMs: 60_000, intervalMs: 200, onTimeout: proc && (() => proc.output()) });
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

/** A member's etcd command line mapped: its own listen addresses (clients, peers, metrics), every member's advertised URL, its data. */
function etcdMap(i: number, ports: MemberPorts, host: (j: number) => string, paths: Record<string, string>): Record<string, string> {
  const map: Record<string, string> = {
    'https://0.0.0.0:2379': `https://127.0.0.1:${ports.clients[i]}`,
    'https://0.0.0.0:2380': `https://127.0.0.1:${ports.peers[i]}`,
    'http://0.0.0.0:2381': `http://127.0.0.1:${ports.metrics[i]}`,
    ...paths,
  };
  ports.clients.forEach((_, j) => {
    map[`https://${host(j)}:2379`] = `https://127.0.0.1:${ports.clients[j]}`;
    map[`https://${host(j)}:2380`] = `https://127.0.0.1:${ports.peers[j]}`;
  });
  return map;
}

interface MemberPorts {
  clients: number[];
  peers: number[];
  metrics: number[];
}

/** etcd's certificates as scripts/etcd-certs writes them, named for the harness's TLS health probe. */
function etcdTlsFiles(dir: string): EtcdTlsFiles {
  return { ca: join(dir, 'ca.crt'), serverCert: join(dir, 'server.crt'), serverKey: join(dir, 'server.key'), clientCert: join(dir, 'apiserver-etcd-client.crt'), clientKey: join(dir, 'apiserver-etcd-client.key') };
}

async function startMembers(members: Array<{ argv: (ports: MemberPorts) => string[]; env?: Record<string, string> }>, tls: EtcdTlsFiles): Promise<MemberPorts> {
  const ports: MemberPorts = { clients: [], peers: [], metrics: [] };
  for (let i = 0; i < members.length; i++) ports.clients.push(await freePort()), ports.peers.push(await freePort()), ports.metrics.push(await freePort());
  const procs = members.map((m) => start(m.argv(ports), m.env));
  for (const [i, c] of ports.clients.entries()) await until(`etcd member ${i}`, () => etcdHealthy(`https://127.0.0.1:${c}`, 1000, tls), procs[i]);
  return ports;
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

test('deploy/compose.yaml: etcd certificates, three etcd members over TLS, two replicas sharing the pki volume, the balancer', async () => {
  const services = compose().services;
  const etcdPki = tmp('etcd-pki-volume');
  expect((await run(mapArgs(services['etcd-certs'].entrypoint, { '/data/etcd-pki': etcdPki }))).code).toBe(0);
  const tls = etcdTlsFiles(etcdPki);
  const members = ['etcd-0', 'etcd-1', 'etcd-2'];
  const ports = await startMembers(
    members.map((m) => ({ argv: (p: MemberPorts) => mapArgs(services[m].command, etcdMap(members.indexOf(m), p, (j) => members[j], { '/etcd-data': tmp(m), '/etcd-pki': etcdPki })) })),
    tls,
  );
  // The members' health check (etcdctl over TLS with the member certificate), as compose runs it.
  programs.etcdctl = () => ensureDebianTool('etcdctl', 'etcd-client');
  const check = mapArgs(services['etcd-0'].healthcheck.test.slice(1), { 'https://127.0.0.1:2379': `https://127.0.0.1:${ports.clients[0]}`, '/etcd-pki': etcdPki });
  expect((await run(check)).code).toBe(0);
  const etcdUrls = Object.fromEntries(members.map((m, j) => [`https://${m}:2379`, `https://127.0.0.1:${ports.clients[j]}`]));

  const pki = tmp('pki-volume');
  const replicaPorts: Record<string, number> = {};
  const data: Record<string, string> = {};
  for (const name of ['apiserver-1', 'apiserver-2']) {
    replicaPorts[name] = await freePort();
    data[name] = tmp(name);
    const map = { ...etcdUrls, '/data/pki': pki, '/data/etcd-pki': etcdPki, '/data': data[name], '0.0.0.0': '127.0.0.1', '6443': String(replicaPorts[name]) };
    const server = start(mapArgs([...entrypoint(dockerfile), ...services[name].command], map));
    await until(`${name} to be healthy`, () => healthy(map), server); // what depends_on waits for
  }

  // This machine's host name is not `apiserver`; localhost is in every generated serving certificate too.
  const lb = await freePort();
  const balancerMap = {
    '0.0.0.0:6443': `127.0.0.1:${lb}`,
    'apiserver-1:6443': `127.0.0.1:${replicaPorts['apiserver-1']}`,
    'apiserver-2:6443': `127.0.0.1:${replicaPorts['apiserver-2']}`,
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
  for (const port of Object.values(replicaPorts)) expect((await get(port, '/api/v1/namespaces/default/configmaps/via-balancer', creds)).status).toBe(200);
});

test('deploy/kubernetes: the etcd StatefulSet, and the Deployment’s init container, args and probes', async () => {
  const sts = kubernetes('etcd.yaml').find((o) => o.kind === 'StatefulSet');
  const svc = sts.spec.serviceName;
  const member = sts.spec.template.spec.containers[0];
  const mountOf = (name: string) => member.volumeMounts.find((m: any) => m.name === name).mountPath;
  // The Secret etcd-pki, made as etcd.yaml says: scripts/etcd-certs with the members' names, three of its files.
  const generatedEtcd = tmp('etcd-pki');
  const hosts = [0, 1, 2].map((i) => `${sts.metadata.name}-${i}.${svc}`).join(',');
  expect((await run(['node', 'scripts/etcd-certs', '--dir', generatedEtcd, '--hosts', hosts])).code).toBe(0);
  const etcdSecret = tmp('etcd-secret');
  for (const f of ['ca.crt', 'server.crt', 'server.key']) copyFileSync(join(generatedEtcd, f), join(etcdSecret, f));
  const ports = await startMembers(
    [0, 1, 2].map((i) => {
      const env = { POD_NAME: `${sts.metadata.name}-${i}` };
      const argv = expandEnv([...member.command, ...member.args], env);
      const paths = { [mountOf('data')]: tmp(`sts-${i}`), [mountOf('pki')]: etcdSecret };
      return { env, argv: (p: MemberPorts) => mapArgs(argv, etcdMap(i, p, (j) => `${sts.metadata.name}-${j}.${svc}`, paths)) };
    }),
    etcdTlsFiles(generatedEtcd),
  );
  // The kubelet's probes of the members: plain HTTP on the metrics port.
  expect(member.readinessProbe.httpGet.port).toBe('metrics');
  for (const m of ports.metrics) expect((await fetch(`http://127.0.0.1:${m}${member.readinessProbe.httpGet.path}`)).status).toBe(200);
  const etcdUrls = Object.fromEntries(ports.clients.map((c, j) => [`https://${sts.metadata.name}-${j}.${svc}:2379`, `https://127.0.0.1:${c}`]));
  // The Secret svc-apiserver-etcd-client: the CA and the API server's client pair, as apiserver.yaml says.
  const etcdClient = tmp('etcd-client');
  for (const f of ['ca.crt', 'apiserver-etcd-client.crt', 'apiserver-etcd-client.key']) copyFileSync(join(generatedEtcd, f), join(etcdClient, f));

  // The Secret: the four shared files of one cluster PKI, as apiserver.yaml says to create it.
  const generated = await ensurePki(tmp('pki'), '127.0.0.1', new Date());
  const secret = tmp('secret');
  for (const f of ['ca.crt', 'ca.key', 'sa.key', 'sa.pub']) copyFileSync(join(generated.paths.dir, f), join(secret, f));

  const deploy = kubernetes('apiserver.yaml').find((o) => o.kind === 'Deployment');
  const pod = deploy.spec.template.spec;
  const secretVolume = pod.volumes.find((v: any) => v.secret?.secretName === 'svc-apiserver-pki').name;
  const etcdClientVolume = pod.volumes.find((v: any) => v.secret?.secretName === 'svc-apiserver-etcd-client').name;
  const c = pod.containers[0];
  const pods: Array<{ port: number; data: string }> = [];
  for (let k = 0; k < deploy.spec.replicas; k++) {
    const data = tmp(`pod-${k}`);
    const volumes: Record<string, string> = { [secretVolume]: secret, [etcdClientVolume]: etcdClient, data };
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
