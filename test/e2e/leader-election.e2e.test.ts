/**
 * Two server processes on one etcd prefix: only the Lease holder runs the
 * controllers; when it is killed (SIGKILL, no hand-over) the other takes the
 * lease once it has expired and issues the requests still pending, and no
 * request is ever signed twice (each CSR's certificate, as watched, is set
 * once; each is logged as issued by exactly one replica).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { startServerProcess, type ServerProcess } from '../support/server-process';
import { until } from '../support/until';
import { kubectlWithConfig, type Kubectl } from '../support/kubectl';
import { etcdEndpoints } from '../support/test-server';
import { opensslRequest } from '../support/certificate-check';

const election = ['--leader-elect-lease-duration=3s', '--leader-elect-renew-deadline=2s', '--leader-elect-retry-period=250ms'];

/** Every CSR event seen through a watch on one server, with the admin credentials of a kubeconfig. */
function watchCsrs(kubeconfig: string, url: string): { events: Array<{ type: string; object: { metadata: { name: string }; status?: { certificate?: string } } }>; stop(): void } {
  const text = readFileSync(kubeconfig, 'utf8');
  const field = (k: string) => Buffer.from(new RegExp(`${k}: (\\S+)`).exec(text)![1], 'base64');
  const events: ReturnType<typeof watchCsrs>['events'] = [];
  let buffer = '';
  const req = httpsRequest(`${url}/apis/certificates.svc.io/v1/certificatesigningrequests?watch=1`, { ca: field('certificate-authority-data'), cert: field('client-certificate-data'), key: field('client-key-data') }, (res) => {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (line) events.push(JSON.parse(line));
      }
    });
  });
  req.on('error', () => undefined);
  req.end();
  return { events, stop: () => req.destroy() };
}

const acquired = (logs: string) =>
  logs
    .split('\n')
    .filter((l) => l.includes('"successfully acquired lease"'))
    .map((l) => JSON.parse(l).identity as string);
const issuedBy = (logs: string) =>
  logs
    .split('\n')
    .filter((l) => l.includes('"issued certificate"'))
    .map((l) => JSON.parse(l).csr as string);

/** Two server processes on one etcd: waits get a minute, as before the shared until. */
const patient = { timeoutMs: 60_000, intervalMs: 100 };

describe('leader election between two servers on one etcd', () => {
  const dirs: string[] = [];
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    for (const s of servers) await s.stop('SIGKILL');
    dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  });

  it('the other replica takes over when the leader is killed, and no request is signed twice', async () => {
    const etcd = ['--etcd-servers', etcdEndpoints().join(','), '--etcd-prefix', `/election-${randomBytes(4).toString('hex')}`, ...election];
    const pkiA = mkdtempSync(join(tmpdir(), 'svc-le-a-'));
    const pkiB = mkdtempSync(join(tmpdir(), 'svc-le-b-'));
    dirs.push(pkiA, pkiB);
    const a = await startServerProcess([...etcd, '--cert-dir', pkiA], { secureOnly: true });
    servers.push(a);
    await until('a leads', () => acquired(a.logs()).length === 1, patient);
    const leaderIdentity = acquired(a.logs())[0];
    cpSync(pkiA, pkiB, { recursive: true });
    const b = await startServerProcess([...etcd, '--cert-dir', pkiB], { secureOnly: true });
    servers.push(b);
    const kubectlB: Kubectl = kubectlWithConfig(b.kubeconfig);
    const holder = async () => (await kubectlB(['get', 'lease', '-n', 'kube-system', 'svc-controller-manager', '-o', 'jsonpath={.spec.holderIdentity}'])).stdout;
    expect(await holder()).toBe(leaderIdentity);
    expect(acquired(b.logs())).toEqual([]);

    const watch = watchCsrs(b.kubeconfig, b.secureUrl);
    const submit = async (name: string) => {
      const { request } = opensslRequest({ keyType: 'p256', subject: `/CN=${name}` });
      const manifest = JSON.stringify({ apiVersion: 'certificates.svc.io/v1', kind: 'CertificateSigningRequest', metadata: { name }, spec: { request: request.toString('base64'), signerName: 'svc.io/apiserver-client', usages: ['client auth'] } });
      expect((await kubectlB(['create', '-f', '-'], { input: manifest })).stderr).toBe('');
      const approval = '[{"op":"add","path":"/status/conditions","value":[{"type":"Approved","status":"True","reason":"T","message":"t"}]}]';
      expect((await kubectlB(['patch', 'csr', name, '--subresource=approval', '--type=json', '-p', approval])).stderr).toBe('');
    };
    const names = ['before-1', 'before-2', 'before-3', 'after-1', 'after-2', 'after-3'];
    for (const n of names.slice(0, 3)) await submit(n);
    await a.stop('SIGKILL');
    for (const n of names.slice(3)) await submit(n);

    // b takes the lease over once it expires, then issues what is still pending.
    await until('b leads', () => acquired(b.logs()).length === 1, patient);
    const takeover = acquired(b.logs())[0];
    expect(takeover).not.toBe(leaderIdentity);
    expect(await holder()).toBe(takeover);
    const certificateOf = async (n: string) => (await kubectlB(['get', 'csr', n, '-o', 'jsonpath={.status.certificate}'])).stdout;
    for (const n of names) await until(`${n} issued`, async () => (await certificateOf(n)) !== '', patient);
    expect(issuedBy(b.logs())).toEqual(expect.arrayContaining(names.slice(3)));
    await until('the watch saw every certificate', () => names.every((n) => watch.events.some((e) => e.object.metadata.name === n && e.object.status?.certificate)), patient);
    watch.stop();

    // Each request was signed once: one certificate value per CSR over every watched event, and never two "issued"
    // log lines across both replicas. (The SIGKILL may land after a's certificate reached etcd and before a logged
    // it, so a line can be missing, never doubled.)
    for (const n of names) {
      const values = new Set(watch.events.filter((e) => e.object.metadata.name === n && e.object.status?.certificate).map((e) => e.object.status!.certificate));
      expect({ n, certificates: values.size }).toEqual({ n, certificates: 1 });
    }
    const issued = [...issuedBy(a.logs()), ...issuedBy(b.logs())].sort();
    expect(issued).toEqual([...new Set(issued)]);
    expect(names).toEqual(expect.arrayContaining(issued));
  });
});
