/**
 * The embedded store always lives in a directory (lmdb's data.mdb and
 * lock.mdb inside it), whatever its name looks like.
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { StorageError } from '../../ports/storage.port';

/** A data directory that cannot be used; the message names the path and why. */
export class DataDirError extends StorageError {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

/** Creates the directory when missing; throws DataDirError when it cannot be one. */
export function prepareDataDir(path: string): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new DataDirError(path, reasonOf(e));
    try {
      makeDirectories(resolve(path));
    } catch (err) {
      throw new DataDirError(path, `cannot create the directory: ${reasonOf(err)}`);
    }
    return;
  }
  if (!isDirectory) {
    // Older versions wrote a store whose name had a dot as one file of that name (docs/reference.md, --data-dir: moving it).
    throw new DataDirError(path, 'is a file, not a directory');
  }
}

/**
 * mkdir -p, one level at a time: Node's recursive mkdirSync never returns
 * for some paths (e.g. under /proc), and this names the failing level.
 */
function makeDirectories(path: string): void {
  try {
    mkdirSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' && statSync(path).isDirectory()) return;
    const parent = dirname(path);
    if (code !== 'ENOENT' || parent === path) throw e;
    makeDirectories(parent);
    mkdirSync(path);
  }
}

function reasonOf(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  switch (err.code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOTDIR':
    case 'EEXIST':
      return 'a parent of it is a file, not a directory';
    case 'ENOENT':
      return 'this file system does not let a directory be created there';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOSPC':
      return 'no space left on the device';
    default:
      return err.message;
  }
}
