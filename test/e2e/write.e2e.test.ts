/** The write path as kubectl 1.32 drives it: client- and server-side apply, patches, label/annotate, dry-run delete. */
import { startServerProcess, ServerProcess } from '../support/server-process';
import { kubectlFor, Kubectl } from '../support/kubectl';

const manifest = (value: string) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: web
  labels:
    app: web
data:
  key: ${value}
`;

describe('kubectl writes against the real server process', () => {
  let server: ServerProcess;
  let kubectl: Kubectl;
  beforeAll(async () => {
    server = await startServerProcess();
    kubectl = kubectlFor(server.url);
  });
  afterAll(async () => {
    await server.stop();
  });

  const managers = async () => {
    const r = await kubectl(['get', 'configmap', 'web', '-o', 'json', '--show-managed-fields']);
    return (JSON.parse(r.stdout).metadata.managedFields as Array<{ manager: string; operation: string }>).map((e) => `${e.manager}/${e.operation}`);
  };

  test('kubectl apply twice: created, then unchanged', async () => {
    expect(await kubectl(['apply', '-f', '-'], { input: manifest('one') })).toMatchObject({ code: 0, stdout: 'configmap/web created\n' });
    expect(await kubectl(['apply', '-f', '-'], { input: manifest('one') })).toMatchObject({ code: 0, stdout: 'configmap/web unchanged\n' });
    expect(await managers()).toEqual(['kubectl-client-side-apply/Update']);
  });

  test('kubectl apply --server-side takes over from client-side apply; conflicts need --force-conflicts', async () => {
    const ssa = await kubectl(['apply', '--server-side', '-f', '-'], { input: manifest('two') });
    expect(ssa).toMatchObject({ code: 0, stdout: 'configmap/web serverside-applied\n' });
    expect(await managers()).toContain('kubectl/Apply');
    const conflict = await kubectl(['apply', '--server-side', '--field-manager=other', '-f', '-'], { input: manifest('three') });
    expect(conflict.code).not.toBe(0);
    expect(conflict.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl": .data.key');
    const forced = await kubectl(['apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', '-'], { input: manifest('three') });
    expect(forced).toMatchObject({ code: 0, stdout: 'configmap/web serverside-applied\n' });
    const got = await kubectl(['get', 'configmap', 'web', '-o', 'jsonpath={.data.key}']);
    expect(got.stdout).toBe('three');
  });

  test('kubectl patch (merge, json, strategic), label and annotate each record their manager', async () => {
    expect(await kubectl(['patch', 'configmap', 'web', '--type', 'merge', '-p', '{"data":{"m":"1"}}'])).toMatchObject({ code: 0, stdout: 'configmap/web patched\n' });
    expect(await kubectl(['patch', 'configmap', 'web', '--type', 'json', '-p', '[{"op":"add","path":"/data/j","value":"2"}]'])).toMatchObject({
      code: 0,
      stdout: 'configmap/web patched\n',
    });
    expect(await kubectl(['patch', 'configmap', 'web', '--type', 'strategic', '-p', '{"data":{"s":"3"}}'])).toMatchObject({ code: 0, stdout: 'configmap/web patched\n' });
    expect(await kubectl(['patch', 'configmap', 'web', '--type', 'merge', '-p', '{"data":{"m":"1"}}'])).toMatchObject({
      code: 0,
      stdout: 'configmap/web patched (no change)\n',
    });
    expect(await kubectl(['label', 'configmap', 'web', 'tier=back'])).toMatchObject({ code: 0, stdout: 'configmap/web labeled\n' });
    expect(await kubectl(['annotate', 'configmap', 'web', 'note=hi'])).toMatchObject({ code: 0, stdout: 'configmap/web annotated\n' });
    const m = await managers();
    for (const expected of ['kubectl-patch/Update', 'kubectl-label/Update', 'kubectl-annotate/Update']) expect(m).toContain(expected);
    const data = JSON.parse((await kubectl(['get', 'configmap', 'web', '-o', 'json'])).stdout).data;
    expect(data).toEqual({ key: 'three', m: '1', j: '2', s: '3' });
  });

  test('kubectl delete --dry-run=server leaves the object; a real delete removes it', async () => {
    expect(await kubectl(['delete', 'configmap', 'web', '--dry-run=server'])).toMatchObject({ code: 0, stdout: 'configmap "web" deleted (server dry run)\n' });
    expect((await kubectl(['get', 'configmap', 'web'])).code).toBe(0);
    expect(await kubectl(['delete', 'configmap', 'web'])).toMatchObject({ code: 0, stdout: 'configmap "web" deleted\n' });
  });
});
