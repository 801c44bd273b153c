import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openLmdbStorage, type LmdbStorage } from '../../src/adapters/lmdb';
import { CompactedError } from '../../src/ports/storage.port';
import { describeStorageContract } from './storage.contract';
import { until } from '../support/until';

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'lmdb-contract-'));

describeStorageContract('lmdb', async () => {
  const dir = tempDir();
  let storage: LmdbStorage = openLmdbStorage(dir);
  return {
    storage,
    restart: async () => {
      await storage.close();
      storage = openLmdbStorage(dir);
      return storage;
    },
    cleanup: async () => {
      await storage.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('lmdb adapter', () => {
  it('compacts itself to historyRetention revisions', async () => {
    const dir = tempDir();
    const storage = openLmdbStorage(dir, { historyRetention: 10 });
    try {
      let rev = await storage.create('/h/a', Buffer.from('0'));
      for (let i = 1; i < 40; i++) rev = await storage.update('/h/a', Buffer.from(String(i)), rev);
      await until('automatic compaction', async () => rev - (await storage.compactedRevision()) <= 11);
      const compacted = await storage.compactedRevision();
      expect(rev - compacted).toBeGreaterThanOrEqual(10);
      await expect(storage.range('/h/', { revision: compacted - 1 })).rejects.toBeInstanceOf(CompactedError);
      expect((await storage.range('/h/', { revision: compacted })).items[0].value.toString()).toBe(String(compacted - 1));
    } finally {
      await storage.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stores a value once per write, and the previous value again only where the log lost it (older data)', async () => {
    const dir = tempDir();
    let storage = openLmdbStorage(dir);
    // The tables as lmdb holds them: what a write put in the log is part of the format this test pins.
    type Tables = { logValues: { get(rev: number): { v?: Buffer; pv?: Buffer } | undefined; remove(rev: number): Promise<boolean> } };
    const tablesOf = (st: LmdbStorage) => (st as unknown as { tables: Tables }).tables;
    let logValues = tablesOf(storage).logValues;
    try {
      const r1 = await storage.create('/pv/a', Buffer.from('v1'));
      const r2 = await storage.update('/pv/a', Buffer.from('v2'), r1);
      expect(logValues.get(r2)?.pv).toBeUndefined();
      const mark = await storage.create('/pv/b', Buffer.from('b'));
      await storage.compact(mark);
      // As a data dir written by an older version, whose compaction dropped every value below its mark; opened again.
      await logValues.remove(r2);
      await storage.close();
      storage = openLmdbStorage(dir);
      logValues = tablesOf(storage).logValues;
      const r3 = await storage.update('/pv/a', Buffer.from('v3'), r2);
      expect(logValues.get(r3)?.pv?.toString()).toBe('v2');
      const at = async (revision: number) => (await storage.range('/pv/a', { revision })).items.map((i) => `${i.value}@${i.modRevision}`);
      expect(await at(mark)).toEqual([`v2@${r2}`]);
      const r4 = await storage.update('/pv/a', Buffer.from('v4'), r3);
      expect(logValues.get(r4)?.pv).toBeUndefined();
      expect(await at(r3)).toEqual([`v3@${r3}`]);
    } finally {
      await storage.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the expiry index across a restart, on its own clock', async () => {
    const dir = tempDir();
    let clock = 1_000_000;
    const opts = { now: () => clock, expiryIntervalMs: 10 };
    let storage = openLmdbStorage(dir, opts);
    try {
      await storage.create('/ttl/a', Buffer.from('a'), { ttlSeconds: 60 });
      await storage.create('/ttl/b', Buffer.from('b'), { ttlSeconds: 120 });
      await storage.close();
      clock += 61_000;
      storage = openLmdbStorage(dir, opts);
      await until('the expiry of a after the restart', async () => (await storage.get('/ttl/a')) === undefined);
      expect((await storage.get('/ttl/b'))?.value.toString()).toBe('b');
      clock += 60_000;
      await until('the expiry of b', async () => (await storage.get('/ttl/b')) === undefined);
      expect((await storage.range('/ttl/')).count).toBe(0);
    } finally {
      await storage.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps every acknowledged write and the revision counter after SIGKILL', async () => {
    const dir = tempDir();
    const child = spawn(process.execPath, [path.join(__dirname, 'lmdb-kill-writer.js'), dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const acked: { batch: number; maxRevision: number }[] = [];
    let buffered = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('writer child acknowledged too few batches')), 20_000);
      child.once('exit', (code) => reject(new Error(`writer child exited early (${code})`)));
      child.stdout!.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop()!;
        for (const line of lines) acked.push(JSON.parse(line));
        if (acked.length >= 25) {
          clearTimeout(timer);
          child.kill('SIGKILL'); // mid-stream: more batches are in flight
          resolve();
        }
      });
    });
    await new Promise((r) => child.once('exit', r));

    const storage = openLmdbStorage(dir);
    try {
      const last = acked[acked.length - 1];
      const current = await storage.currentRevision();
      expect(current).toBeGreaterThanOrEqual(last.maxRevision);
      const stored = await storage.range('/kill/');
      expect(stored.count).toBeGreaterThanOrEqual(acked.length * 20);
      expect(stored.count).toBe(current); // every revision so far was one create
      for (let i = 0; i < 20; i++) expect((await storage.get(`/kill/${last.batch}-${i}`))?.value.toString()).toBe(`v${last.batch}`);
      expect(await storage.create('/kill/after', Buffer.from('x'))).toBe(current + 1);
    } finally {
      await storage.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('lmdb data directory', () => {
  const base = () => fs.mkdtempSync(path.join(os.tmpdir(), 'lmdb-dir-'));

  it.each(['store.d', 'apiserver.data', '.svc-apiserver'])('creates %s as a directory and reopens it', async (name) => {
    const root = base();
    const dir = path.join(root, name);
    try {
      let storage = openLmdbStorage(dir);
      await storage.create('/k', Buffer.from('v'));
      await storage.close();
      expect(fs.statSync(dir).isDirectory()).toBe(true);
      expect(fs.readdirSync(root)).toEqual([name]);
      storage = openLmdbStorage(dir);
      expect((await storage.get('/k'))?.value.toString()).toBe('v');
      await storage.close();
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('opens an existing directory whose name has a dot (mktemp -d style)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lmdb.dir.'));
    try {
      const storage = openLmdbStorage(dir);
      await storage.create('/k', Buffer.from('v'));
      await storage.close();
      expect(fs.readdirSync(dir).sort()).toEqual(['data.mdb', 'lock.mdb']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a path that is a file, naming it', () => {
    const root = base();
    const file = path.join(root, 'plain');
    fs.writeFileSync(file, 'x');
    try {
      expect(() => openLmdbStorage(file)).toThrow(`${file}: is a file, not a directory`);
      expect(() => openLmdbStorage(path.join(file, 'sub'))).toThrow(`${path.join(file, 'sub')}: a parent of it is a file, not a directory`);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('lmdb watch memory', () => {
  it('keeps a byte-bounded tail of recent events in memory; watchers behind it replay from disk', async () => {
    const dir = tempDir();
    const storage = openLmdbStorage(dir, { recentEventBytes: 64 * 1024 });
    try {
      const value = (i: number) => Buffer.alloc(16 * 1024, String(i % 10));
      let rev = await storage.create('/m/a', value(0));
      const first = rev;
      for (let i = 1; i < 40; i++) rev = await storage.update('/m/a', value(i), rev);
      const tail = (storage as unknown as { hub: { recent: unknown[] } }).hub.recent;
      expect(tail.length).toBeLessThan(40 / 4);
      const seen: number[] = [];
      const handle = storage.watch('/m/', first - 1, { onEvents: (evs) => seen.push(...evs.map((e) => e.modRevision)), onError: () => undefined });
      await until('replay of all 40 events', async () => seen.length === 40);
      handle.cancel();
      expect(seen).toEqual(Array.from({ length: 40 }, (_, i) => first + i));
    } finally {
      await storage.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
