/**
 * The JSON a just-created object answers with, made from the bytes it was
 * stored as: the answer to a create is the stored text with its revision,
 * as a GET of it would be, so the object is not encoded a second time.
 * Kept beside the object (weakly) until the caller asks for it.
 */
import type { KObject } from '../machinery/object';
import { hasMembers, insertRevision } from './with-revision';

interface Written {
  stored: Buffer;
  revision: number;
  /** Whether the stored metadata has members (then a comma goes before resourceVersion). */
  members: boolean;
}

const written = new WeakMap<KObject, Written>();

/** Records what `obj` was stored as; its metadata then holds no resourceVersion yet. */
export function rememberWritten(obj: KObject, stored: Buffer, revision: number): void {
  if (!('resourceVersion' in obj.metadata)) written.set(obj, { stored, revision, members: hasMembers(obj.metadata) });
}

/**
 * The object's JSON from its stored bytes (undefined when it was not written here, or when the revision it carries
 * is no longer the one it was written at). Asked once: the record is dropped.
 */
export function writtenJson(obj: KObject): string | undefined {
  const w = written.get(obj);
  if (!w) return undefined;
  written.delete(obj);
  if (obj.metadata.resourceVersion !== String(w.revision)) return undefined;
  return insertRevision(w.stored.toString('utf8'), w.members, w.revision);
}
