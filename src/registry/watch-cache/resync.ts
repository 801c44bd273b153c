/**
 * Listing a whole resource for the cache, and turning the difference between
 * two states into events (used after the storage watch was lost, e.g. to
 * compaction, when the events in between can no longer be read).
 */
import type { KeyValue, StoragePort } from '../../ports/storage.port';
import type { CachedObject } from './cached-object';
import { CacheEvent } from './event-log';

/** Every key under prefix at one revision, handed over page by page (so raw pages can be freed early). */
export async function listAll(storage: StoragePort, prefix: string, pageSize: number, onPage: (items: KeyValue[]) => void): Promise<number> {
  let revision = 0;
  let startKey: string | undefined;
  for (;;) {
    const page = await storage.range(prefix, { revision, limit: pageSize, startKey });
    revision = page.revision;
    onPage(page.items);
    if (!page.more || page.items.length === 0) return revision;
    startKey = `${page.items[page.items.length - 1].key}\u0000`;
  }
}

/**
 * Events that take `before` to `after`, in revision order: changed and new
 * objects at their own modRevision, deletions at the list revision (their
 * real deletion revision is gone).
 */
export function diffToEvents(
  before: ReadonlyMap<string, CachedObject>,
  beforeRevision: number,
  after: Map<string, CachedObject>,
  listRevision: number,
  now: number,
): CacheEvent[] {
  const puts: CacheEvent[] = [];
  for (const [key, next] of after) {
    const prev = before.get(key);
    if (prev && prev.rev === next.rev) continue;
    // Never before the cache's revision: the log must stay in revision order.
    const rev = Math.max(next.rev, beforeRevision + 1);
    puts.push(new CacheEvent(prev ? 'MODIFIED' : 'ADDED', rev, next, prev, now));
  }
  puts.sort((a, b) => a.rev - b.rev);
  const deletes: CacheEvent[] = [];
  for (const [key, prev] of before) {
    if (!after.has(key)) deletes.push(new CacheEvent('DELETED', listRevision, undefined, prev, now));
  }
  return [...puts, ...deletes];
}
