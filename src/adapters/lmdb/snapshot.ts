/**
 * Snapshots of the embedded store, taken while it serves: lmdb copies the
 * environment inside one read transaction (mdb_env_copy2, compacting), so the
 * copy is consistent however many writes the server makes meanwhile. A
 * snapshot is that single file; restoring it makes it the data.mdb of an
 * empty data directory, with revisions and history as they were.
 */
import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, readSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { open } from 'lmdb';
import { DataDirError, prepareDataDir } from './data-dir';
import { META_REVISION } from './lmdb-records';

export interface SnapshotSummary {
  /** The store's revision in the snapshot. */
  revision: number;
  /** Keys (objects) it holds. */
  keys: number;
  bytes: number;
}

export class SnapshotError extends Error {}

const dataFile = (dir: string) => join(dir, 'data.mdb');

/** Copies the store in dataDir to file (written whole or not at all). The server may keep serving. */
export async function saveSnapshot(dataDir: string, file: string): Promise<SnapshotSummary> {
  if (!existsSync(dataFile(dataDir))) throw new SnapshotError(`there is no embedded store in --data-dir ${dataDir}`);
  if (existsSync(file)) throw new SnapshotError(`${file} exists already; name a new file`);
  // Read-only: this process must not write (the serving process's watchers would not see it).
  const env = open({ path: dataDir, noSubdir: false, readOnly: true, maxDbs: 8 });
  // lmdb writes the copy of a directory store as data.mdb into an empty directory.
  const partial = `${file}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  try {
    await env.backup(partial, true);
    renameSync(join(partial, 'data.mdb'), file);
  } finally {
    await env.close();
    rmSync(partial, { recursive: true, force: true });
  }
  return await describeSnapshot(file);
}

/** Revision and key count of a snapshot file; SnapshotError when it is not one. */
export async function describeSnapshot(file: string): Promise<SnapshotSummary> {
  if (!existsSync(file) || !statSync(file).isFile()) throw new SnapshotError(`${file} is not a file`);
  // lmdb trusts the file it maps: anything without its meta page could crash the process, so look first.
  if (!looksLikeLmdb(file)) throw new SnapshotError(`${file} is not a snapshot of the embedded store (no lmdb meta page)`);
  const lockFile = `${file}-lock`;
  const hadLock = existsSync(lockFile);
  try {
    const env = open({ path: file, noSubdir: true, readOnly: true, maxDbs: 8 });
    try {
      const meta = env.openDB<number, string>({ name: 'meta' });
      const state = env.openDB({ name: 'state' });
      return { revision: meta.get(META_REVISION) ?? 0, keys: state.getKeysCount(), bytes: statSync(file).size };
    } finally {
      await env.close();
    }
  } catch (e) {
    if (e instanceof SnapshotError) throw e;
    throw new SnapshotError(`${file} is not a snapshot of the embedded store (${(e as Error).message.split('\n')[0]})`);
  } finally {
    if (!hadLock) rmSync(lockFile, { force: true });
  }
}

const lmdbMagic = Buffer.from([0xde, 0xc0, 0xef, 0xbe]); // MDB_MAGIC, little-endian, in the first meta page

function looksLikeLmdb(file: string): boolean {
  if (statSync(file).size < 8192) return false; // two meta pages at least
  const head = Buffer.alloc(64);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  return head.indexOf(lmdbMagic) >= 16;
}

/**
 * Makes file the store of dataDir. The directory must hold no store unless
 * `force` (then the server on it must be stopped: its store is replaced).
 */
export async function restoreSnapshot(file: string, dataDir: string, force: boolean): Promise<SnapshotSummary> {
  const summary = await describeSnapshot(file);
  try {
    prepareDataDir(dataDir);
  } catch (e) {
    if (e instanceof DataDirError) throw new SnapshotError(`cannot use --data-dir ${e.message}`);
    throw e;
  }
  if (existsSync(dataFile(dataDir)) && !force) {
    throw new SnapshotError(`--data-dir ${dataDir} already holds a store; restore into an empty directory, or stop its server and add --force to replace it`);
  }
  const partial = join(dataDir, 'data.mdb.restoring');
  copyFileSync(file, partial);
  rmSync(join(dataDir, 'lock.mdb'), { force: true });
  renameSync(partial, dataFile(dataDir));
  return summary;
}
