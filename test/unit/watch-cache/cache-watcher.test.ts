/** What watchers are handed for one event: each its own type by its selector, one shared item per event and type. */
import { CachedObject } from '../../../src/registry/watch-cache/cached-object';
import { CacheWatcher } from '../../../src/registry/watch-cache/cache-watcher';
import { CacheEvent, EventLog } from '../../../src/registry/watch-cache/event-log';
import type { KindCache } from '../../../src/registry/watch-cache/kind-cache';

const json = (team: string, v: string) => `{"metadata":{"name":"a","uid":"u-a","labels":{"team":"${team}"}},"v":"${v}"}`;

function setup() {
  const log = new EventLog(0, { windowMs: 1e12, maxEvents: 1e6 }, () => 0);
  // The watcher reads the cache's log and registers itself; nothing else of the cache is needed here.
  const cache = { log, revision: 0, addWatcher: () => undefined, removeWatcher: () => undefined } as unknown as KindCache;
  const watcher = (team?: string) => new CacheWatcher(cache, (o) => !team || o.labels?.team === team, { rev: 0 }, 1000);
  return { log, watcher };
}

describe('CacheWatcher', () => {
  test('watchers of one event get one item per type; a selector that stops matching gets DELETED with the last state', () => {
    const { log, watcher } = setup();
    const all = [watcher(), watcher(), watcher()];
    const red = watcher('red');
    const v1 = CachedObject.of('/things/ns/a', 1, json('red', '1'), { team: 'red' }, 'u-a');
    log.append(new CacheEvent('ADDED', 1, v1, undefined, 0));
    const v2 = CachedObject.of('/things/ns/a', 2, json('blue', '2'), { team: 'blue' }, 'u-a');
    log.append(new CacheEvent('MODIFIED', 2, v2, v1, 0));

    const added = all.map((w) => w.next());
    expect(added[0]).toMatchObject({ kind: 'event', type: 'ADDED', rev: 1, object: v1 });
    expect(added[1]).toBe(added[0]);
    expect(added[2]).toBe(added[0]);
    expect(red.next()).toBe(added[0]);

    const modified = all.map((w) => w.next());
    const deleted = red.next();
    expect(modified[0]).toMatchObject({ type: 'MODIFIED', rev: 2, object: v2, prev: v1 });
    expect(modified[1]).toBe(modified[0]);
    expect(deleted).toMatchObject({ type: 'DELETED', rev: 2, object: v1 });
    expect(deleted).not.toBe(modified[0]);
    const frameOf = (item: ReturnType<CacheWatcher['next']>) => (item?.kind === 'event' ? JSON.parse(item.frame().toString()) : undefined);
    expect(frameOf(modified[2])).toEqual({ type: 'MODIFIED', object: { metadata: { name: 'a', uid: 'u-a', labels: { team: 'blue' } }, v: '2' } });
    expect(frameOf(deleted)).toEqual({ type: 'DELETED', object: { metadata: { name: 'a', uid: 'u-a', labels: { team: 'red' }, resourceVersion: '2' }, v: '1' } });
    for (const w of [...all, red]) expect(w.next()).toBeUndefined();
  });

  test('an event whose objects a compaction moved gets a new item with the moved copies', () => {
    const { log, watcher } = setup();
    const first = watcher();
    const second = watcher();
    const v1 = CachedObject.of('/things/ns/a', 1, json('red', '1'), { team: 'red' }, 'u-a');
    log.append(new CacheEvent('ADDED', 1, v1, undefined, 0));
    const before = first.next();
    log.at(0)!.relocate((o) => CachedObject.of(o.key, o.rev, o.bytes.toString(), o.labels, o.uid));
    const after = second.next();
    expect(after).not.toBe(before);
    expect(after).toMatchObject({ type: 'ADDED', rev: 1, object: log.at(0)!.object });
    expect(after?.kind === 'event' && after.object).not.toBe(v1);
  });
});
