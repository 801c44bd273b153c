/**
 * Growing out of one machine: `migrate` copies the embedded store into etcd
 * keeping names, uids, creation timestamps and managedFields, refuses a
 * non-empty prefix unless --force, and checks counts; `snapshot save` copies
 * the embedded store while it serves and `snapshot restore` brings that state
 * back exactly. Both round-trip a data set with an object of every kind.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testEtcdEndpoints } from '../support/etcd-harness';
import { distMain, startServerProcess } from '../support/server-process';
import { createDataset, datasetGates, readSettled, withoutVersion } from '../support/dataset';
import { loadFixtures } from '../conformance/load-fixtures';

// No leader election: its Lease is renewed and handed over by the servers themselves, so it is no data to compare.
const gates = ['--feature-gates', datasetGates(), '--leader-elect=false'];
const tool = (args: string[]) => spawnSync(process.execPath, [distMain, ...args], { encoding: 'utf8', timeout: 120_000 });

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'svc-grow-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

test('migrate: every object of every kind reaches etcd unchanged but for its resourceVersion', async () => {
  const dataDir = join(root, 'embedded');
  const source = await startServerProcess(gates, { dataDir });
  let before: Map<string, any>;
  try {
    expect(await createDataset(source.url)).toBe(loadFixtures().length);
    before = await readSettled(source.url);
  } finally {
    await source.stop();
  }
  expect(before.size).toBeGreaterThan(loadFixtures().length); // plus the server's own (RBAC policy, namespaces)

  const prefix = `/migrated-${randomBytes(6).toString('hex')}`;
  const args = ['migrate', '--data-dir', dataDir, '--etcd-servers', testEtcdEndpoints()[0], '--etcd-prefix', prefix];
  const first = tool(args);
  expect(first.stderr).toBe('');
  expect(first.status).toBe(0);
  expect(first.stdout).toMatch(/migrated \d+ keys .* counts agree/);
  expect(first.stdout).toMatch(/configmaps: \d+ in the embedded store, \d+ in etcd/);

  const again = tool(args);
  expect(again.status).toBe(1);
  expect(again.stderr).toMatch(/^svc-apiserver: the target already holds \d+ keys under its prefix; .*--force/);
  const forced = tool([...args, '--force']);
  expect(forced.status).toBe(0);

  // The etcd-backed server uses the same PKI: the cluster CA the store records must match.
  const target = await startServerProcess([...gates, '--etcd-servers', testEtcdEndpoints()[0], '--etcd-prefix', prefix, '--cert-dir', join(dataDir, 'pki')], {
    dataDir: join(root, 'unused'),
  });
  try {
    const after = await readSettled(target.url);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [key, obj] of before) {
      const moved = after.get(key);
      expect([key, withoutVersion(moved)]).toEqual([key, withoutVersion(obj)]);
      expect(moved.metadata.uid).toBe(obj.metadata.uid);
      expect(moved.metadata.creationTimestamp).toBe(obj.metadata.creationTimestamp);
    }
    // The migrated objects are live: they can be changed through the new server.
    const cm = [...after.values()].find((o) => o.kind === 'ConfigMap' && o.metadata.namespace === 'dataset')!;
    const res = await fetch(`${target.url}/api/v1/namespaces/dataset/configmaps/${cm.metadata.name}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ data: { moved: 'yes' } }),
    });
    expect(res.status).toBe(200);
  } finally {
    await target.stop();
  }
}, 180_000);

test('snapshot: saved while serving and writing, restored exactly as it was', async () => {
  const dataDir = join(root, 'live');
  const server = await startServerProcess(gates, { dataDir });
  const file = join(root, 'store.snapshot');
  let atSave: Map<string, any>;
  let written = 0;
  try {
    await createDataset(server.url);
    atSave = await readSettled(server.url);
    // Writes keep coming while the snapshot is taken.
    let writing = true;
    const writer = (async () => {
      while (writing) {
        const r = await fetch(`${server.url}/api/v1/namespaces/dataset/configmaps`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ metadata: { name: `during-${String(written).padStart(4, '0')}` } }),
        });
        if (r.status !== 201) throw new Error(`write during the snapshot: ${r.status} ${await r.text()}`);
        written++;
      }
    })();
    const saved = tool(['snapshot', 'save', file, '--data-dir', dataDir]);
    writing = false;
    await writer;
    expect(saved.stderr).toBe('');
    expect(saved.status).toBe(0);
    expect(saved.stdout).toMatch(/^saved .*: revision \d+, \d+ keys, \d+ bytes\n$/);
    expect(tool(['snapshot', 'save', file, '--data-dir', dataDir]).status).toBe(1); // never overwrites
  } finally {
    await server.stop();
  }

  const restoredDir = join(root, 'restored');
  const restored = tool(['snapshot', 'restore', file, '--data-dir', restoredDir]);
  expect(restored.status).toBe(0);
  expect(existsSync(join(restoredDir, 'data.mdb'))).toBe(true);
  const refused = tool(['snapshot', 'restore', file, '--data-dir', restoredDir]);
  expect(refused.status).toBe(1);
  expect(refused.stderr).toMatch(/already holds a store/);
  expect(tool(['snapshot', 'restore', file, '--data-dir', restoredDir, '--force']).status).toBe(0);

  // The store comes with its PKI directory (not part of the snapshot): keep a copy of it next to the snapshot.
  cpSync(join(dataDir, 'pki'), join(restoredDir, 'pki'), { recursive: true });
  const back = await startServerProcess(gates, { dataDir: restoredDir });
  try {
    const now = await readSettled(back.url);
    // Everything that existed at save time, resourceVersions included.
    for (const [key, obj] of atSave) expect([key, now.get(key)]).toEqual([key, obj]);
    // Of the writes racing the snapshot, a prefix made it: the copy is one consistent moment.
    const during = [...now.keys()].filter((k) => k.includes('/dataset/during-')).sort();
    expect(during.length).toBeLessThanOrEqual(written);
    during.forEach((k, i) => expect(k).toBe(`configmaps./dataset/during-${String(i).padStart(4, '0')}`));
  } finally {
    await back.stop();
  }
}, 180_000);

test('snapshot restore refuses a file that is not a snapshot', () => {
  const bogus = join(root, 'bogus.snapshot');
  require('node:fs').writeFileSync(bogus, 'not lmdb');
  const r = tool(['snapshot', 'restore', bogus, '--data-dir', join(root, 'nowhere')]);
  expect(r.status).toBe(1);
  expect(r.stderr).toMatch(/^svc-apiserver: .*bogus\.snapshot is not a snapshot of the embedded store/);
  expect(existsSync(join(root, 'nowhere', 'data.mdb'))).toBe(false);
});
