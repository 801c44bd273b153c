/**
 * @kubernetes/client-node and a CustomResourceDefinition against the real server process: ApiextensionsV1Api creates
 * the CRD, CustomObjectsApi creates, gets, lists, patches (also the status), replaces and deletes its custom
 * resources, and an informer on the kind sees add, update and delete (runs the .mjs beside it: client-node is ESM-only).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { startServerProcess, ServerProcess } from '../support/server-process';

describe('client-node and custom resources', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess();
  });
  afterAll(async () => {
    await server.stop();
  });

  test('ApiextensionsV1Api, CustomObjectsApi and an informer on a custom resource kind', async () => {
    const out = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [join(__dirname, 'client-node-crd.mjs'), server.url], { timeout: 90_000 }, (err, stdout, stderr) =>
        err ? reject(new Error(`${err.message}\n${stderr}\n${stdout}`)) : resolve(stdout),
      ),
    );
    const result = JSON.parse(out.trim().split('\n').pop()!);
    expect(result.crd).toEqual({ apiVersion: 'apiextensions.k8s.io/v1', name: 'widgets.example.com' });
    expect(result.acceptedNames).toEqual({ plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' });
    expect(result.custom).toEqual({
      created: { kind: 'Widget', name: 'cn-1', spec: { color: 'red', size: 3 }, generation: 1 },
      got: true,
      listed: { kind: 'WidgetList', names: ['cn-1', 'cn-2'] },
      selected: ['cn-1'],
      all: ['client-node-crd/cn-1', 'client-node-crd/cn-2'],
      patched: { color: 'red', size: 7 },
      status: { status: { ready: true }, spec: { color: 'red', size: 7 } },
      replaced: { spec: { color: 'blue', size: 1 }, status: { ready: true }, generation: 3 },
      deleted: 404,
    });
    expect(result.informer).toEqual(['add cn-2', 'add cn-3', 'update cn-3 blue', 'delete cn-3']);
    expect(result.cache).toEqual(['cn-2']);
  }, 120_000);
});
