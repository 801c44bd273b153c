import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openLmdbStorage, type LmdbStorage } from '../../src/adapters/lmdb';
import { describeStorageContract } from './storage.contract';

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
