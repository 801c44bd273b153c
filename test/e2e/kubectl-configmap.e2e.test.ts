/** A new user's first minutes: kubectl against `npm start`'s server, with ConfigMaps. */
import { startServerProcess, ServerProcess } from '../support/server-process';
import { kubectlFor, Kubectl } from '../support/kubectl';

describe('kubectl with ConfigMaps against the real server process', () => {
  let server: ServerProcess;
  let kubectl: Kubectl;
  beforeAll(async () => {
    server = await startServerProcess();
    kubectl = kubectlFor(server.url);
  });
  afterAll(async () => {
    await server.stop();
  });

  test('create (protobuf body), get, get -o yaml, delete', async () => {
    const created = await kubectl(['create', 'configmap', 'demo', '--from-literal=a=b']);
    expect(created).toMatchObject({ code: 0, stdout: 'configmap/demo created\n' });
    const table = await kubectl(['get', 'configmaps']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^NAME\s+DATA\s+AGE\ndemo\s+1\s+\d+s\n$/);
    const yaml = await kubectl(['get', 'configmap', 'demo', '-o', 'yaml']);
    expect(yaml.stdout).toContain('kind: ConfigMap');
    expect(yaml.stdout).toMatch(/data:\n  a: b\n/);
    const dry = await kubectl(['create', 'configmap', 'dry', '--from-literal=x=y', '--dry-run=server']);
    expect(dry.code).toBe(0);
    expect((await kubectl(['get', 'configmap', 'dry'])).code).not.toBe(0);
    const deleted = await kubectl(['delete', 'configmap', 'demo']);
    expect(deleted).toMatchObject({ code: 0, stdout: 'configmap "demo" deleted\n' });
    const gone = await kubectl(['get', 'configmap', 'demo']);
    expect(gone.stderr).toContain('configmaps "demo" not found');
  });

  test('create -f with a manifest, and a clear error for an invalid one', async () => {
    const manifest = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-file\ndata:\n  k: v\n';
    const ok = await kubectl(['create', '-f', '-'], { input: manifest });
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toBe('configmap/from-file created\n');
    const bad = await kubectl(['create', '-f', '-'], { input: manifest.replace('from-file', 'Bad_Name') });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name"');
  });
});
