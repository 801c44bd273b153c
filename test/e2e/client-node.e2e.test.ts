/** @kubernetes/client-node against the real server process, for every kind (runs the .mjs beside it: client-node is ESM-only). */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, ServerProcess } from '../support/server-process';
import { loadFixtures } from '../conformance/load-fixtures';

const fixtures = loadFixtures();

describe('client-node drives every kind', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess();
  });
  afterAll(async () => {
    await server.stop();
  });

  test('CoreV1Api, CustomObjectsApi and an informer per kind', async () => {
    const kinds = await Promise.all(
      fixtures.map(async (f) => ({
        group: f.definition.group,
        version: f.definition.version,
        plural: f.definition.plural,
        kind: f.definition.kind,
        namespaced: f.definition.namespaced,
        object: await f.valid(),
        selector: f.selector,
      })),
    );
    const file = join(mkdtempSync(join(tmpdir(), 'svc-cn-')), 'kinds.json');
    writeFileSync(file, JSON.stringify(kinds));
    const out = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [join(__dirname, 'client-node-kinds.mjs'), server.url, file], { timeout: 90_000 }, (err, stdout, stderr) =>
        err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout),
      ),
    );
    const result = JSON.parse(out.trim().split('\n').pop()!);
    expect(result.core).toEqual({
      configmaps: { created: 'cn-cm', replacedLabel: 'client-node' },
      serviceaccounts: { created: 'cn-sa', replacedLabel: 'client-node' },
    });
    for (const k of kinds.filter((k) => k.group !== '')) {
      expect([k.kind, result.custom[`${k.kind}.${k.group}`]]).toEqual([k.kind, { got: k.kind, listed: 1, patched: 'yes' }]);
    }
    for (const k of kinds) expect([k.kind, k.group, result.informers[`${k.kind}.${k.group}`]]).toEqual([k.kind, k.group, ['add', 'update', 'delete']]);
  }, 120_000);
});
