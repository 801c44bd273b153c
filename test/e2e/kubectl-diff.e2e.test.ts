/**
 * `kubectl diff -f` on an object that matches its manifest prints nothing, for
 * every kind and however the object was made (create, client-side apply,
 * server-side apply), also when the manifest carries empty maps that upstream's
 * types leave out (issue 10: `+  annotations: {}`).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, ServerProcess } from '../support/server-process';
import { kubectlFor, Kubectl } from '../support/kubectl';
import { loadFixtures } from '../conformance/load-fixtures';

const fixtures = loadFixtures();

type Manifest = { metadata: Record<string, unknown> } & Record<string, unknown>;

const ways: Array<{ title: string; make: string[]; diff: string[]; emptyMaps?: boolean }> = [
  { title: 'kubectl create', make: ['create'], diff: [] },
  { title: 'kubectl create, manifest with empty labels and annotations', make: ['create'], diff: [], emptyMaps: true },
  { title: 'kubectl apply', make: ['apply'], diff: [] },
  { title: 'kubectl apply --server-side', make: ['apply', '--server-side'], diff: ['--server-side'] },
];

describe('kubectl diff of an unchanged object prints nothing', () => {
  let server: ServerProcess;
  let kubectl: Kubectl;
  const dir = mkdtempSync(join(tmpdir(), 'svc-diff-'));
  beforeAll(async () => {
    const gates = fixtures.flatMap((f) => Object.entries(f.gates ?? {}).map(([k, v]) => `${k}=${v}`));
    server = await startServerProcess(gates.length ? ['--feature-gates', [...new Set(gates)].join(',')] : []);
    kubectl = kubectlFor(server.url);
  });
  afterAll(async () => {
    await server.stop();
  });

  const cases = fixtures.flatMap((f) => ways.map((w) => [f.definition.kind, w.title, f, w] as const));
  test.each(cases)('%s after %s', async (_kind, _title, f, way) => {
    const obj = (await f.valid()) as Manifest;
    if (way.emptyMaps) obj.metadata = { ...obj.metadata, labels: {}, annotations: {} };
    const file = join(dir, `${f.definition.plural}.json`);
    writeFileSync(file, JSON.stringify(obj));
    const made = await kubectl([...way.make, '-f', file]);
    expect({ code: made.code, stderr: made.stderr }).toEqual({ code: 0, stderr: '' });
    try {
      if (way.emptyMaps) {
        // Left out as upstream's omitempty does, rather than stored and served as {}.
        const live = JSON.parse((await kubectl(['get', '-f', file, '-o', 'json'])).stdout);
        // A namespace always carries its name label, as upstream's.
        const labels = f.definition.kind === 'Namespace' ? { 'kubernetes.io/metadata.name': obj.metadata.name } : undefined;
        expect([live.metadata.labels, live.metadata.annotations]).toEqual([labels, undefined]);
      }
      const diff = await kubectl(['diff', ...way.diff, '-f', file]);
      expect({ code: diff.code, stdout: diff.stdout, stderr: diff.stderr }).toEqual({ code: 0, stdout: '', stderr: '' });
    } finally {
      expect((await kubectl(['delete', '-f', file, '--wait'])).code).toBe(0);
    }
  });
});
