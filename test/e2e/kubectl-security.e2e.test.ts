/**
 * The real server process over HTTPS from a fresh data dir, driven by the
 * real kubectl: the admin kubeconfig, a certificate user limited by a
 * RoleBinding, `kubectl create token`, `auth can-i` and `auth whoami`, and
 * the bootstrap policy across restarts.
 */
import { readFileSync, statSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, ServerProcess } from '../support/server-process';
import { kubectlWithConfig, Kubectl } from '../support/kubectl';
import { issueLeaf } from '../../src/adapters/pki';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('kubectl over HTTPS', () => {
  let server: ServerProcess;
  let admin: Kubectl;
  let reader: Kubectl;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-secure-'));
    server = await startServerProcess([], { dataDir, secureOnly: true });
    admin = kubectlWithConfig(server.kubeconfig);
    const ca = { certPem: readFileSync(join(dataDir, 'pki/ca.crt'), 'utf8'), keyPem: readFileSync(join(dataDir, 'pki/ca.key'), 'utf8') };
    const leaf = await issueLeaf(ca, { commonName: 'reader', organizations: ['readers'], usage: 'client', days: 1 }, new Date());
    const config = join(dataDir, 'reader.kubeconfig');
    writeFileSync(
      config,
      readFileSync(server.kubeconfig, 'utf8')
        .replace(/client-certificate-data: \S+/, `client-certificate-data: ${b64(leaf.certPem)}`)
        .replace(/client-key-data: \S+/, `client-key-data: ${b64(leaf.keyPem)}`),
    );
    reader = kubectlWithConfig(config);
  });
  afterAll(() => server.stop());

  it('the first start writes an admin kubeconfig (mode 0600) that kubectl uses as it is', async () => {
    expect(statSync(server.kubeconfig).mode & 0o777).toBe(0o600);
    expect(server.logs()).toContain(`export KUBECONFIG=${server.kubeconfig}`);
    expect(readFileSync(server.kubeconfig, 'utf8')).toContain(`server: ${server.secureUrl}`);
    const who = await admin(['auth', 'whoami', '-o', 'json']);
    expect(who.stderr).toBe('');
    expect(JSON.parse(who.stdout).status.userInfo).toEqual({ username: 'system:admin', groups: ['system:masters', 'system:authenticated'] });
    expect((await admin(['create', 'configmap', 'demo', '--from-literal=a=b'])).code).toBe(0);
    expect((await admin(['get', 'configmap', 'demo', '-o', 'jsonpath={.data.a}'])).stdout).toBe('b');
  });

  it('a certificate user bound to read ConfigMaps in one namespace can do just that', async () => {
    expect((await admin(['create', 'role', 'cm-reader', '-n', 'team', '--verb=get,list,watch', '--resource=configmaps'])).stderr).toBe('');
    expect((await admin(['create', 'rolebinding', 'reader-reads', '-n', 'team', '--role=cm-reader', '--user=reader'])).stderr).toBe('');
    expect((await admin(['create', 'configmap', 'c1', '-n', 'team', '--from-literal=x=y'])).code).toBe(0);
    expect((await reader(['auth', 'can-i', 'list', 'configmaps', '-n', 'team'])).stdout.trim()).toBe('yes');
    const cannot = await reader(['auth', 'can-i', 'create', 'configmaps', '-n', 'team']);
    expect([cannot.code, cannot.stdout.trim()]).toEqual([1, 'no']);
    expect((await reader(['auth', 'can-i', 'list', 'configmaps', '-n', 'default'])).stdout.trim()).toBe('no');
    expect((await reader(['get', 'configmaps', '-n', 'team', '-o', 'name'])).stdout.trim()).toBe('configmap/c1');
    const write = await reader(['create', 'configmap', 'nope', '-n', 'team', '--from-literal=a=b']);
    expect(write.code).not.toBe(0);
    expect(write.stderr).toContain('configmaps is forbidden: User "reader" cannot create resource "configmaps" in API group "" in the namespace "team"');
    const list = await reader(['auth', 'can-i', '--list', '-n', 'team']);
    expect(list.stdout).toMatch(/configmaps\s+\[\]\s+\[\]\s+\[get list watch\]/);
    const whoami = await reader(['auth', 'whoami']);
    expect(whoami.stdout).toMatch(/Username\s+reader/);
    expect(whoami.stdout).toMatch(/Groups\s+\[readers system:authenticated\]/);
  });

  it('kubectl create token issues a token that authenticates', async () => {
    expect((await admin(['create', 'serviceaccount', 'bot'])).code).toBe(0);
    const token = await admin(['create', 'token', 'bot', '--duration=20m']);
    expect(token.stderr).toBe('');
    // Only the token: with a client certificate too, the certificate authenticates first (as upstream).
    const config = join(dataDir, 'bot.kubeconfig');
    writeFileSync(
      config,
      readFileSync(server.kubeconfig, 'utf8')
        .replace(/client-certificate-data: \S+/, `token: ${token.stdout.trim()}`)
        .replace(/\n\s*client-key-data: \S+/, ''),
    );
    const who = await kubectlWithConfig(config)(['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}']);
    expect(who.stdout).toBe('system:serviceaccount:default:bot');
    const denied = await kubectlWithConfig(config)(['get', 'configmaps']);
    expect(denied.stderr).toContain('User "system:serviceaccount:default:bot" cannot list resource "configmaps"');
  });

  it('the bootstrap policy survives restarts and keeps user edits', async () => {
    const patch = '[{"op":"add","path":"/rules/-","value":{"apiGroups":[""],"resources":["configmaps"],"verbs":["get"]}}]';
    expect((await admin(['patch', 'clusterrole.rbac.authorization.svc.io', 'system:basic-user', '--type=json', '-p', patch])).stderr).toBe('');
    expect((await admin(['delete', 'clusterrolebinding.rbac.authorization.svc.io', 'system:discovery'])).code).toBe(0);
    await server.stop();
    // The same port, so that the reader's kubeconfig still points at it.
    server = await startServerProcess(['--secure-port', String(server.securePort)], { dataDir, secureOnly: true });
    const rules = await admin(['get', 'clusterrole.rbac.authorization.svc.io', 'system:basic-user', '-o', 'json']);
    expect(JSON.parse(rules.stdout).rules).toContainEqual({ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] });
    const back = await admin(['get', 'clusterrolebinding.rbac.authorization.svc.io', 'system:discovery', '-o', 'name']);
    expect(back.stdout.trim()).toBe('clusterrolebinding.rbac.authorization.svc.io/system:discovery');
    expect((await reader(['get', 'configmaps', '-n', 'team', '-o', 'name'])).stdout.trim()).toBe('configmap/c1');
  });
});
