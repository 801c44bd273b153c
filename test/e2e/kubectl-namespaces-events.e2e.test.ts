/**
 * Namespaces and Events through kubectl against the real server process,
 * on both backends: create namespace (a protobuf body), get ns, content
 * removed with the namespace on delete, describe configmap with its events,
 * kubectl events, get events with a field selector.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, ServerProcess } from '../support/server-process';
import { kubectlFor, Kubectl } from '../support/kubectl';
import { backends, etcdEndpoints } from '../support/test-server';

describe.each(backends)('kubectl with namespaces and events (%s)', (backend) => {
  let server: ServerProcess;
  let kubectl: Kubectl;
  beforeAll(async () => {
    const args =
      backend === 'etcd'
        ? ['--etcd-servers', etcdEndpoints().join(','), '--etcd-prefix', `/e2e-${randomBytes(6).toString('hex')}`, '--cert-dir', mkdtempSync(join(tmpdir(), 'svc-pki-'))]
        : [];
    server = await startServerProcess(args);
    kubectl = kubectlFor(server.url);
  });
  afterAll(async () => {
    await server.stop();
  });

  const ok = async (args: string[]) => {
    const r = await kubectl(args);
    expect({ args, code: r.code, stderr: r.stderr }).toEqual({ args, code: 0, stderr: '' });
    return r.stdout;
  };

  test('get ns shows the system namespaces', async () => {
    const out = await ok(['get', 'ns']);
    expect(out).toMatch(/^NAME\s+STATUS\s+AGE\n/);
    for (const name of ['default', 'kube-node-lease', 'kube-public', 'kube-system']) expect(out).toMatch(new RegExp(`\\n${name}\\s+Active\\s+\\d+`));
    const denied = await kubectl(['delete', 'ns', 'kube-system']);
    expect(denied.stderr).toBe('Error from server (Forbidden): namespaces "kube-system" is forbidden: this namespace may not be deleted\n');
  });

  test('create namespace, fill it, delete it: the content goes, then the namespace', async () => {
    expect(await ok(['create', 'namespace', 'team-a'])).toBe('namespace/team-a created\n');
    expect(await ok(['get', 'ns', 'team-a'])).toMatch(/^NAME\s+STATUS\s+AGE\nteam-a\s+Active\s+\d+s\n$/);
    expect(await ok(['get', 'namespace', 'team-a', '-o', 'jsonpath={.spec.finalizers}'])).toBe('["kubernetes"]');
    await ok(['-n', 'team-a', 'create', 'configmap', 'app', '--from-literal=a=b']);
    await ok(['-n', 'team-a', 'create', 'serviceaccount', 'robot']);
    // kubectl waits for the namespace to be gone.
    expect(await ok(['delete', 'ns', 'team-a', '--timeout=60s'])).toBe('namespace "team-a" deleted\n');
    expect((await kubectl(['get', 'ns', 'team-a'])).stderr).toContain('namespaces "team-a" not found');
    expect((await kubectl(['-n', 'team-a', 'get', 'configmaps,serviceaccounts'])).stderr).toBe('No resources found in team-a namespace.\n');
  });

  test('a Terminating namespace refuses new content with upstream\'s message', async () => {
    await ok(['create', 'namespace', 'team-b']);
    await ok(['-n', 'team-b', 'create', 'configmap', 'pinned', '--from-literal=a=b']);
    await ok(['-n', 'team-b', 'patch', 'configmap', 'pinned', '--type=merge', '-p', '{"metadata":{"finalizers":["example.com/hold"]}}']);
    await ok(['delete', 'ns', 'team-b', '--wait=false']);
    const refused = await kubectl(['-n', 'team-b', 'create', 'configmap', 'late', '--from-literal=a=b']);
    expect(refused.stderr).toBe(
      'error: failed to create configmap: configmaps "late" is forbidden: unable to create new content in namespace team-b because it is being terminated\n',
    );
    expect(await ok(['get', 'ns', 'team-b', '-o', 'jsonpath={.status.phase}'])).toBe('Terminating');
    await ok(['-n', 'team-b', 'patch', 'configmap', 'pinned', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
    // Prints "condition met", or nothing when the namespace is already gone.
    expect(await ok(['wait', '--for=delete', 'ns/team-b', '--timeout=30s'])).toMatch(/^(namespace\/team-b condition met\n)?$/);
    expect((await kubectl(['get', 'ns', 'team-b'])).stderr).toContain('namespaces "team-b" not found');
  }, 60_000);

  test('describe configmap shows its events; kubectl events and get events --field-selector find them', async () => {
    await ok(['create', 'namespace', 'team-c']);
    await ok(['-n', 'team-c', 'create', 'configmap', 'app', '--from-literal=a=b']);
    await ok(['-n', 'team-c', 'create', 'configmap', 'other', '--from-literal=a=b']);
    const uid = await ok(['-n', 'team-c', 'get', 'configmap', 'app', '-o', 'jsonpath={.metadata.uid}']);
    const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    // An event as client-go's recorder writes it.
    const res = await fetch(`${server.url}/api/v1/namespaces/team-c/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        metadata: { name: 'app.17f0a1', namespace: 'team-c' },
        involvedObject: { kind: 'ConfigMap', namespace: 'team-c', name: 'app', uid, apiVersion: 'v1' },
        reason: 'Reloaded',
        message: 'configuration reloaded',
        source: { component: 'demo-controller' },
        firstTimestamp: now,
        lastTimestamp: now,
        count: 1,
        type: 'Normal',
        eventTime: null,
        reportingComponent: 'demo-controller',
        reportingInstance: '',
      }),
    });
    expect(res.status).toBe(201);

    const described = await ok(['-n', 'team-c', 'describe', 'configmap', 'app']);
    expect(described).toMatch(/Events:\n\s+Type\s+Reason\s+Age\s+From\s+Message\n.*\n\s+Normal\s+Reloaded\s+\d+s\s+demo-controller\s+configuration reloaded\n/);
    expect(await ok(['-n', 'team-c', 'describe', 'configmap', 'other'])).toMatch(/Events:\s+<none>/);

    const events = await ok(['events', '-n', 'team-c']);
    expect(events).toMatch(/^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE\n\d+s\s+Normal\s+Reloaded\s+ConfigMap\/app\s+configuration reloaded\n$/);

    const selected = await ok(['-n', 'team-c', 'get', 'events', '--field-selector', 'involvedObject.name=app']);
    expect(selected).toMatch(/^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE\n\d+s\s+Normal\s+Reloaded\s+configmap\/app\s+configuration reloaded\n$/);
    const none = await kubectl(['-n', 'team-c', 'get', 'events', '--field-selector', 'involvedObject.name=other']);
    expect(none.stderr).toBe('No resources found in team-c namespace.\n');
    expect(await ok(['-n', 'team-c', 'get', 'events.events.svc.io', 'app.17f0a1', '-o', 'jsonpath={.note}'])).toBe('configuration reloaded');
  });
});
