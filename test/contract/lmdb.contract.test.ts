import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openLmdbStorage, type LmdbStorage } from '../../src/adapters/lmdb';
import { describeStorageContract } from './storage.contract';

describeStorageContract('lmdb', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lmdb-contract-'));
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
