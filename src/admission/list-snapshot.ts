/**
 * What admission's configuration lists held when last read, to tell cheaply whether they changed: the watch cache's
 * list resourceVersion moves with every write of any kind, so the items' JSON (each with its own resourceVersion)
 * decides, compared undecoded.
 */
import type { ListResult } from '../registry/results';

/** What a list held when last read: its resourceVersion and its items' JSON, copied into one buffer. */
export interface Seen {
  resourceVersion: string;
  json: Buffer;
}

export function seenOf(list: ListResult): Seen {
  return { resourceVersion: list.metadata.resourceVersion ?? '', json: Buffer.concat(list.body) };
}

/**
 * Whether a list holds what it held: the cache's resourceVersion moves with every write of any kind, so the
 * items' JSON (which carries each item's own resourceVersion) decides, compared piece by piece, undecoded.
 */
export function unchanged(seen: Seen | undefined, list: ListResult): boolean {
  if (!seen) return false;
  const rv = list.metadata.resourceVersion ?? '';
  if (rv !== '' && rv === seen.resourceVersion) return true;
  let at = 0;
  for (const piece of list.body) {
    if (at + piece.length > seen.json.length || piece.compare(seen.json, at, at + piece.length) !== 0) return false;
    at += piece.length;
  }
  return at === seen.json.length;
}
