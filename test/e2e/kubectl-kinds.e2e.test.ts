/**
 * Every kind through the installed kubectl against the real server process:
 * api-resources, create -f, get (table, yaml, wide), describe, edit,
 * replace -f, explain, get -w, delete -f; and CSR approval by patch.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { startServerProcess, ServerProcess } from '../support/server-process';
import { until } from '../support/until';
import { kubectlFor, Kubectl } from '../support/kubectl';
import { loadFixtures } from '../conformance/load-fixtures';
import { apiVersionOf } from '../../src/machinery/resource-definition';

const fixtures = loadFixtures();
const editor = `${process.execPath} ${join(__dirname, 'support', 'label-editor.js')}`;

describe('kubectl drives every kind', () => {
  let server: ServerProcess;
  let kubectl: Kubectl;
  const dir = mkdtempSync(join(tmpdir(), 'svc-kinds-'));
  beforeAll(async () => {
    const gates = fixtures.flatMap((f) => Object.entries(f.gates ?? {}).map(([k, v]) => `${k}=${v}`));
    server = await startServerProcess(gates.length ? ['--feature-gates', [...new Set(gates)].join(',')] : []);
    kubectl = kubectlFor(server.url);
  });
  afterAll(async () => {
    await server.stop();
  });

  test('api-resources lists every kind', async () => {
    const out = await kubectl(['api-resources', '--no-headers']);
    expect(out.code).toBe(0);
    for (const f of fixtures) {
      const d = f.definition;
      const row = out.stdout.split('\n').find((l) => l.startsWith(`${d.plural} `) && l.split(/\s+/).includes(apiVersionOf(d)));
      expect(row).toBeDefined();
      const cols = row!.trim().split(/\s+/);
      expect(cols).toEqual([d.plural, ...(d.shortNames.length ? [d.shortNames.join(',')] : []), apiVersionOf(d), String(d.namespaced), d.kind]);
    }
  });

  test.each(fixtures.map((f) => [f.definition.kind, f] as const))('%s', async (_kind, f) => {
    const d = f.definition;
    // Two groups serve `events`: name the resource with its group.
    const resource = d.group ? `${d.plural}.${d.group}` : d.plural;
    const obj = await f.valid();
    const name = (obj as { metadata: { name: string } }).metadata.name;
    const file = join(dir, `${resource}.json`);
    writeFileSync(file, JSON.stringify(obj));
    const ok = async (args: string[], env?: Record<string, string>) => {
      const r = await kubectl(args, { env });
      expect({ args, stderr: r.stderr, code: r.code }).toEqual({ args, stderr: expect.not.stringMatching(/error/i), code: 0 });
      return r.stdout;
    };
    const nameRow = new RegExp(`\\n${name.replace(/\./g, '\\.')}\\s`);
    expect(await ok(['create', '-f', file])).toContain(`${name} created`);
    // Where the server has objects of its own (the bootstrap RBAC policy, the system namespaces), list the fixture's only.
    const mine = f.selector ? ['-l', f.selector] : [];
    // Most tables start with NAME; the event table shows the name only with -o wide, as upstream's.
    const table = await ok(['get', resource, ...mine]);
    const firstColumn = d.table?.columns[0].name ?? 'Name';
    if (firstColumn === 'Name') expect(table).toMatch(new RegExp(`^NAME\\s.*${nameRow.source}`));
    else expect(table).toMatch(new RegExp(`^${firstColumn.toUpperCase()}\\s`));
    expect(await ok(['get', resource, name, '-o', 'yaml'])).toContain(`kind: ${d.kind}`);
    expect(await ok(['get', resource, '-o', 'wide', ...mine])).toContain(name);
    expect(await ok(['describe', resource, name])).toMatch(new RegExp(`Name:\\s+${name.replace(/\./g, '\\.')}`));
    await ok(['edit', resource, name], { KUBE_EDITOR: editor, EDITOR: editor });
    expect(await ok(['get', resource, name, '-o', 'jsonpath={.metadata.labels.edited}'])).toBe('yes');
    const current = JSON.parse(await ok(['get', resource, name, '-o', 'json']));
    current.metadata.labels = { ...current.metadata.labels, replaced: 'yes' };
    writeFileSync(file, JSON.stringify(current));
    expect(await ok(['replace', '-f', file])).toContain('replaced');
    expect(await ok(['explain', d.plural, '--api-version', apiVersionOf(d)])).toContain(`KIND:       ${d.kind}`);
    expect(await ok(['delete', '-f', file])).toContain('deleted');
  });

  test('get -w sees a change', async () => {
    const file = join(dir, 'watched.yaml');
    writeFileSync(file, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: watched\ndata:\n  a: "1"\n');
    expect((await kubectl(['create', '-f', file])).code).toBe(0);
    const kubeconfigArgs = (await kubectl(['config', 'view', '--minify', '-o', 'jsonpath={.clusters[0].cluster.server}'])).stdout;
    expect(kubeconfigArgs).toBe(server.url);
    const watcher = spawn('kubectl', ['--server', server.url, '-n', 'default', 'get', 'configmaps', 'watched', '-w', '--output-watch-events', '--request-timeout', '15s']);
    let out = '';
    watcher.stdout.on('data', (c) => (out += c));
    await until('the watch to show watched', () => out.includes('watched'), { onTimeout: () => out });
    expect((await kubectl(['label', 'configmap', 'watched', 'seen=yes'])).code).toBe(0);
    // The whole line: kubectl may write the event's name in a later chunk than its type.
    await until('the watch to show MODIFIED', () => /MODIFIED\s+watched/.test(out), { onTimeout: () => out });
    watcher.kill();
    expect(out).toMatch(/ADDED\s+watched/);
    expect(out).toMatch(/MODIFIED\s+watched/);
  });

  test('approve and deny CSRs with patch --subresource=approval', async () => {
    const csr = fixtures.find((f) => f.definition.kind === 'CertificateSigningRequest')!;
    for (const [name, type] of [['approve-me', 'Approved'], ['deny-me', 'Denied']]) {
      const obj = (await csr.valid()) as { metadata: { name: string } };
      obj.metadata.name = name;
      const file = join(dir, `${name}.json`);
      writeFileSync(file, JSON.stringify(obj));
      expect((await kubectl(['create', '-f', file])).code).toBe(0);
      const patch = JSON.stringify([
        { op: 'add', path: '/status/conditions', value: [{ type, status: 'True', reason: 'E2E', message: 'by kubectl' }] },
      ]);
      const res = await kubectl(['patch', 'csr', name, '--subresource=approval', '--type=json', '-p', patch]);
      expect(res).toMatchObject({ code: 0, stderr: '' });
      const table = await kubectl(['get', 'csr', name]);
      expect(table.stdout).toContain(type);
    }
  });
});
