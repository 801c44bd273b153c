/**
 * What CI can check of the container and manifests without a container engine: the Dockerfile through a
 * linter (dockerfile-utils) and for what the image must be (non-root, HTTPS only, HEALTHCHECK on /readyz,
 * data in /data); compose and Kubernetes YAML parsed strictly and checked for the fields they need and for
 * references that must agree (selectors, port names, volumes, etcd member lists); the Grafana dashboard's
 * shape. deploy-commands.test.ts starts the command lines themselves.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validate } from 'dockerfile-utils';
import { compose, entrypoint, healthcheck, imageStage, instructions, kubernetes, readDockerfile, readYaml, repo } from './support/manifests';

const version = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string }).version;

const flagValue = (args: string[], flag: string) => {
  const i = args.indexOf(flag);
  if (i >= 0) return args[i + 1];
  return args.find((a) => a.startsWith(`${flag}=`))?.slice(flag.length + 1);
};

describe('Dockerfile', () => {
  const dockerfile = readDockerfile();
  const image = imageStage(dockerfile);

  test('passes the linter with no error or warning', () => {
    expect(validate(dockerfile.text).map((d) => `line ${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
  });

  test('builds in a separate stage and ships production dependencies and dist/ only', () => {
    expect(dockerfile.stages.length).toBeGreaterThanOrEqual(2);
    const build = dockerfile.stages[0].map((i) => `${i.keyword} ${i.text}`).join('\n');
    expect(build).toMatch(/RUN npm ci\b/);
    expect(build).toMatch(/npm run build/);
    expect(build).toMatch(/npm prune --omit=dev/);
    const from = instructions(image, 'FROM')[0].text;
    expect(from).toMatch(/^node:20[\w.-]*-slim\b/);
  });

  test('runs as a non-root user, HTTPS only on 6443, data in the /data volume', () => {
    const user = instructions(image, 'USER').at(-1)?.text;
    expect(user).toBeDefined();
    expect(['root', '0'].includes(user!.split(':')[0])).toBe(false);
    expect(instructions(image, 'EXPOSE').map((i) => i.text)).toEqual(['6443']);
    expect(instructions(image, 'VOLUME').flatMap((i) => JSON.parse(i.text))).toEqual(['/data']);
    const args = entrypoint(dockerfile);
    expect(args.slice(0, 2)).toEqual(['node', 'dist/main.js']);
    expect(flagValue(args, '--bind-address')).toBe('0.0.0.0');
    expect(flagValue(args, '--secure-port')).toBe('6443');
    expect(flagValue(args, '--data-dir')).toBe('/data');
    expect(flagValue(args, '--cert-dir')).toBe('/data/pki');
    expect(args.some((a) => a === '--port' || a.startsWith('--port='))).toBe(false); // no plain-HTTP port
    expect(instructions(image, 'WORKDIR').at(-1)!.text).toBe('/app');
    // The data directory exists in the image and belongs to that user (a fresh volume inherits both).
    expect(instructions(image, 'RUN').map((i) => i.text).join('\n')).toMatch(new RegExp(`chown -R ${user}:${user} /data`));
  });

  test('the image and npm start run the server with a fixed mmap threshold for malloc (RSS after a restart)', () => {
    const env = instructions(image, 'ENV').map((i) => i.text);
    expect(env).toContain('MALLOC_MMAP_THRESHOLD_=131072');
    const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toMatch(/\bMALLOC_MMAP_THRESHOLD_=131072 exec node dist\/main\.js$/);
  });

  test('HEALTHCHECK asks /readyz over HTTPS on the served port', () => {
    const { options, command } = healthcheck(dockerfile);
    expect(command).toEqual(['node', 'scripts/healthcheck.cjs', 'https://127.0.0.1:6443/readyz']);
    expect(options).toEqual(expect.arrayContaining([expect.stringMatching(/^--interval=/), expect.stringMatching(/^--start-period=/)]));
  });

  test('every file it copies from the build context exists and is not excluded by .dockerignore', () => {
    const ignored = readFileSync(join(repo, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    const copies = dockerfile.stages.flatMap((s) => instructions(s, 'COPY')).filter((i) => !i.text.startsWith('--from='));
    expect(copies.length).toBeGreaterThan(0);
    for (const copy of copies) {
      const sources = copy.text.split(/\s+/).slice(0, -1);
      for (const source of sources) {
        expect(existsSync(join(repo, source))).toBe(true);
        expect(ignored.filter((pattern) => source === pattern || source.startsWith(`${pattern}/`))).toEqual([]);
      }
    }
  });
});

describe('deploy/compose.yaml', () => {
  const file = compose();
  const services = file.services as Record<string, any>;
  const members = Object.keys(services).filter((n) => /^etcd-\d+$/.test(n));
  const replicas = Object.keys(services).filter((n) => n.startsWith('apiserver-'));

  test('three etcd members that name each other, over TLS with client certificates', () => {
    expect(members).toEqual(['etcd-0', 'etcd-1', 'etcd-2']);
    const cluster = members.map((m) => `${m}=https://${m}:2380`).join(',');
    for (const m of members) {
      const cmd: string[] = services[m].command;
      expect(services[m].image).toMatch(/etcd:v3\.5\./);
      expect(cmd[0]).toBe('etcd');
      expect(flagValue(cmd, '--name')).toBe(m);
      expect(flagValue(cmd, '--initial-cluster')).toBe(cluster);
      expect(flagValue(cmd, '--advertise-client-urls')).toBe(`https://${m}:2379`);
      expect(flagValue(cmd, '--initial-advertise-peer-urls')).toBe(`https://${m}:2380`);
      expect(flagValue(cmd, '--experimental-watch-progress-notify-interval')).toBe('1s');
      expect(cmd).toEqual(expect.arrayContaining(['--client-cert-auth', '--peer-client-cert-auth']));
      for (const f of ['--cert-file', '--key-file', '--trusted-ca-file', '--peer-cert-file', '--peer-key-file', '--peer-trusted-ca-file']) {
        expect(flagValue(cmd, f)).toMatch(/^\/etcd-pki\//);
      }
      expect(services[m].volumes).toEqual([`${m}:${flagValue(cmd, '--data-dir')}`, 'etcd-pki:/etcd-pki:ro']);
      expect(services[m].healthcheck.test[0]).toBe('CMD');
      expect(services[m].depends_on).toEqual({ 'etcd-certs': { condition: 'service_completed_successfully' } });
    }
  });

  test('etcd-certs writes the members\' and the replicas\' certificates into the etcd-pki volume, naming every member', () => {
    const c = services['etcd-certs'];
    expect(c.entrypoint.slice(0, 2)).toEqual(['node', 'scripts/etcd-certs']);
    expect(existsSync(join(repo, c.entrypoint[1]))).toBe(true);
    expect(flagValue(c.entrypoint, '--dir')).toBe('/data/etcd-pki');
    expect(flagValue(c.entrypoint, '--hosts')).toBe(members.join(','));
    expect(c.volumes).toEqual(['etcd-pki:/data/etcd-pki']);
  });

  test('two replicas of the image on all three members, sharing one PKI volume, started one after the other', () => {
    expect(replicas).toEqual(['apiserver-1', 'apiserver-2']);
    for (const r of replicas) {
      const s = services[r];
      expect(flagValue(s.command, '--etcd-servers')).toBe(members.map((m) => `https://${m}:2379`).join(','));
      expect(flagValue(s.command, '--etcd-cafile')).toBe('/data/etcd-pki/ca.crt');
      expect(flagValue(s.command, '--etcd-certfile')).toBe('/data/etcd-pki/apiserver-etcd-client.crt');
      expect(flagValue(s.command, '--etcd-keyfile')).toBe('/data/etcd-pki/apiserver-etcd-client.key');
      expect(s.command.some((a: string) => a.startsWith('--port'))).toBe(false);
      expect(s.volumes).toEqual(['pki:/data/pki', 'etcd-pki:/data/etcd-pki:ro']);
      expect(s.hostname).toBe('apiserver');
      expect(s.healthcheck).toBeUndefined(); // the image's HEALTHCHECK applies
    }
    expect(Object.keys(services['apiserver-1'].depends_on).sort()).toEqual(members);
    expect(services['apiserver-2'].depends_on).toEqual({ 'apiserver-1': { condition: 'service_healthy' } });
  });

  test('every service of this image builds it (compose never pulls it) and tags it with the package version', () => {
    const ours = Object.entries(services).filter(([, s]: [string, any]) => String(s.image).startsWith('svc-apiserver'));
    expect(ours.map(([n]) => n).sort()).toEqual(['apiserver-1', 'apiserver-2', 'balancer', 'etcd-certs']);
    for (const [, s] of ours as Array<[string, any]>) {
      expect(s.build).toBe('..');
      expect(s.image).toBe(`svc-apiserver:${version}`);
      expect(s.pull_policy).toBe('never');
    }
  });

  test('the balancer fronts both replicas and publishes 6443 on loopback only', () => {
    const b = services.balancer;
    const args: string[] = b.entrypoint;
    const backends = args.flatMap((a, i) => (args[i - 1] === '--backend' ? [a] : []));
    expect(backends).toEqual(replicas.map((r) => `${r}:6443`));
    expect(b.ports).toEqual(['127.0.0.1:6443:6443']);
    expect(flagValue(args, '--server-name')).toBe(services['apiserver-1'].hostname);
    expect(existsSync(join(repo, args[1]))).toBe(true);
  });

  test('every named volume is declared', () => {
    const used = Object.values(services).flatMap((s: any) => (s.volumes ?? []).map((v: string) => v.split(':')[0]));
    expect([...new Set(used)].sort()).toEqual(Object.keys(file.volumes).sort());
  });
});

describe('deploy/kubernetes', () => {
  const etcd = kubernetes('etcd.yaml');
  const apiserver = kubernetes('apiserver.yaml');
  const all = [...etcd, ...apiserver];
  const find = (kind: string, name: string) => all.find((o) => o.kind === kind && o.metadata.name === name);
  const matches = (selector: Record<string, string>, labels: Record<string, string>) => Object.entries(selector).every(([k, v]) => labels[k] === v);

  test('every object has apiVersion, kind and a name; kustomization lists the files', () => {
    for (const o of all) {
      expect(typeof o.apiVersion).toBe('string');
      expect(typeof o.kind).toBe('string');
      expect(o.metadata.name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
    }
    const kustomization = readYaml(join(repo, 'deploy/kubernetes/kustomization.yaml'))[0];
    for (const r of kustomization.resources) expect(existsSync(join(repo, 'deploy/kubernetes', r))).toBe(true);
    expect(kustomization.resources.sort()).toEqual(['apiserver.yaml', 'etcd.yaml']);
  });

  test('etcd: a StatefulSet of three behind a headless Service, with a PDB that keeps a quorum', () => {
    const sts = find('StatefulSet', 'etcd');
    const svc = find('Service', sts.spec.serviceName);
    expect(sts.spec.replicas).toBe(3);
    expect(sts.spec.podManagementPolicy).toBe('Parallel');
    expect(svc.spec.clusterIP).toBe('None');
    expect(svc.spec.publishNotReadyAddresses).toBe(true);
    expect(matches(sts.spec.selector.matchLabels, sts.spec.template.metadata.labels)).toBe(true);
    expect(matches(svc.spec.selector, sts.spec.template.metadata.labels)).toBe(true);
    const c = sts.spec.template.spec.containers[0];
    const portNames = c.ports.map((p: any) => p.name);
    for (const p of svc.spec.ports) expect(portNames).toContain(p.targetPort);
    expect(flagValue(c.args, '--initial-cluster')).toBe([0, 1, 2].map((i) => `etcd-${i}=https://etcd-${i}.${svc.metadata.name}:2380`).join(','));
    expect(c.args).toEqual(expect.arrayContaining(['--client-cert-auth', '--peer-client-cert-auth']));
    const pki = c.volumeMounts.find((m: any) => m.name === 'pki');
    for (const f of ['--cert-file', '--key-file', '--trusted-ca-file', '--peer-cert-file', '--peer-key-file', '--peer-trusted-ca-file']) {
      expect(flagValue(c.args, f)!.startsWith(`${pki.mountPath}/`)).toBe(true);
    }
    expect(sts.spec.template.spec.volumes.find((v: any) => v.name === 'pki').secret.secretName).toBe('etcd-pki');
    expect(c.volumeMounts.filter((m: any) => m.name !== 'pki').map((m: any) => m.name)).toEqual(sts.spec.volumeClaimTemplates.map((t: any) => t.metadata.name));
    expect(flagValue(c.args, '--data-dir')!.startsWith(`${c.volumeMounts[0].mountPath}/`)).toBe(true);
    expect(portNames).toContain(c.readinessProbe.httpGet.port);
    const pdb = find('PodDisruptionBudget', 'etcd');
    expect(pdb.spec.maxUnavailable).toBe(1);
    expect(matches(pdb.spec.selector.matchLabels, sts.spec.template.metadata.labels)).toBe(true);
  });

  test('apiserver: two non-root replicas with HTTPS probes, on every etcd member, behind a Service and a PDB', () => {
    const deploy = find('Deployment', 'svc-apiserver');
    const pod = deploy.spec.template;
    expect(deploy.spec.replicas).toBe(2);
    expect(matches(deploy.spec.selector.matchLabels, pod.metadata.labels)).toBe(true);
    expect(pod.spec.securityContext).toMatchObject({ runAsNonRoot: true });
    const c = pod.spec.containers[0];
    expect(c.command).toBeUndefined(); // the image's entrypoint runs, with these args
    expect(c.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
    expect(flagValue(c.args, '--etcd-servers')).toBe([0, 1, 2].map((i) => `https://etcd-${i}.etcd:2379`).join(','));
    const etcdClient = c.volumeMounts.find((m: any) => m.name === 'etcd-client');
    for (const f of ['--etcd-cafile', '--etcd-certfile', '--etcd-keyfile']) expect(flagValue(c.args, f)!.startsWith(`${etcdClient.mountPath}/`)).toBe(true);
    // The image is loaded into the nodes, not pulled: a versioned tag and IfNotPresent on every container using it.
    for (const container of [...pod.spec.initContainers, c]) {
      expect(container.image).toBe(`svc-apiserver:${version}`);
      expect(container.imagePullPolicy).toBe('IfNotPresent');
    }
    const ports = Object.fromEntries(c.ports.map((p: any) => [p.name, p.containerPort]));
    expect(ports).toEqual({ https: 6443 });
    for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe']) {
      expect(c[probe].httpGet).toMatchObject({ scheme: 'HTTPS' });
      expect(ports[c[probe].httpGet.port]).toBeDefined();
    }
    expect(c.readinessProbe.httpGet.path).toBe('/readyz');
    const volumes = pod.spec.volumes.map((v: any) => v.name);
    for (const container of [...pod.spec.initContainers, c]) for (const m of container.volumeMounts) expect(volumes).toContain(m.name);
    expect(c.volumeMounts.map((m: any) => m.mountPath)).toContain('/data');
    const svc = find('Service', 'svc-apiserver');
    expect(matches(svc.spec.selector, pod.metadata.labels)).toBe(true);
    for (const p of svc.spec.ports) expect(ports[p.targetPort]).toBeDefined();
    const pdb = find('PodDisruptionBudget', 'svc-apiserver');
    expect(pdb.spec.minAvailable).toBe(1);
    expect(matches(pdb.spec.selector.matchLabels, pod.metadata.labels)).toBe(true);
  });
});

describe('deploy/grafana-dashboard.json', () => {
  const dashboard = JSON.parse(readFileSync(join(repo, 'deploy/grafana-dashboard.json'), 'utf8'));

  test('is an importable dashboard whose panels each query Prometheus', () => {
    expect(dashboard).toMatchObject({ uid: 'svc-apiserver', title: expect.any(String), schemaVersion: expect.any(Number) });
    const panels = dashboard.panels.filter((p: any) => p.type !== 'row');
    expect(panels.length).toBeGreaterThanOrEqual(10);
    const ids = dashboard.panels.map((p: any) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of panels) {
      expect(p.datasource).toEqual({ type: 'prometheus', uid: '${datasource}' });
      expect(p.gridPos).toEqual({ h: expect.any(Number), w: expect.any(Number), x: expect.any(Number), y: expect.any(Number) });
      expect(p.gridPos.x + p.gridPos.w).toBeLessThanOrEqual(24);
      expect(p.targets.length).toBeGreaterThan(0);
      for (const t of p.targets) expect(t.expr).toContain('instance=~"$instance"');
    }
    expect(dashboard.templating.list.map((v: any) => v.name)).toEqual(['datasource', 'job', 'instance']);
  });
});
