/** migrateStore on two real embedded stores: a consistent copy, refusal, --force, count checks. */
import 'reflect-metadata';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openLmdbStorage, type LmdbStorage } from '../../../src/adapters/lmdb';
import { configMapDefinition } from '../../../src/resources/config-map';
import { migrateStore, MigrateError } from '../../../src/tools/migrate';
import type { StoragePort } from '../../../src/ports/storage.port';

let dirs: string[] = [];
const stores: LmdbStorage[] = [];
const open = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'migrate-'));
  dirs.push(dir);
  const s = openLmdbStorage(dir);
  stores.push(s);
  return s;
};
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  dirs = [];
});

const cm = (name: string) => Buffer.from(JSON.stringify({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name, namespace: 'a', uid: `uid-${name}` } }));
const log = () => undefined;

test('copies every key byte for byte, at one revision', async () => {
  const source = open();
  for (let i = 0; i < 1200; i++) await source.create(`/configmaps/a/cm-${i}`, cm(`cm-${i}`));
  await source.create('/svc.io/cluster-ca-fingerprint', Buffer.from('abc'));
  const target = open();
  const report = await migrateStore(source, target, [configMapDefinition], { force: false, log, pageSize: 100 });
  expect(report.copied).toBe(1201);
  expect(report.counts).toEqual([{ resource: 'configmaps', source: 1200, target: 1200 }]);
  const copied = await target.get('/configmaps/a/cm-7');
  expect(copied?.value.equals(cm('cm-7'))).toBe(true);
  expect((await target.get('/svc.io/cluster-ca-fingerprint'))?.value.toString()).toBe('abc');
});

test('refuses a target that holds keys, and writes over them with force', async () => {
  const source = open();
  await source.create('/configmaps/a/x', cm('x'));
  const target = open();
  await target.create('/configmaps/a/x', Buffer.from('old'));
  await target.create('/configmaps/a/other', cm('other'));
  await expect(migrateStore(source, target, [configMapDefinition], { force: false, log })).rejects.toThrow(MigrateError);
  expect((await target.get('/configmaps/a/x'))?.value.toString()).toBe('old');
  const report = await migrateStore(source, target, [configMapDefinition], { force: true, log });
  expect((await target.get('/configmaps/a/x'))?.value.equals(cm('x'))).toBe(true);
  expect(report.counts).toEqual([{ resource: 'configmaps', source: 1, target: 2 }]);
});

test('fails when the target ends up with fewer objects than the source', async () => {
  const source = open();
  await source.create('/configmaps/a/x', cm('x'));
  const inner = open();
  // A target that loses writes (as a misbehaving proxy would).
  const lossy: StoragePort = Object.assign(Object.create(inner), { create: async () => 1 });
  await expect(migrateStore(source, lossy, [configMapDefinition], { force: false, log })).rejects.toThrow(
    'counts differ after the copy: configmaps 1 in the source, 0 in the target',
  );
});
