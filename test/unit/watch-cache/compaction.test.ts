/** Slab compaction: what is still referenced moves to fresh slabs, current objects in key order. */
import { CachedObject, joinedBytes } from '../../../src/registry/watch-cache/cached-object';
import { KindSlabs } from '../../../src/registry/watch-cache/compaction';
import { CacheEvent, EventLog } from '../../../src/registry/watch-cache/event-log';
import { ObjectIndex } from '../../../src/registry/watch-cache/object-index';

const key = (i: number) => `/things/ns/obj-${String(i).padStart(5, '0')}`;

function setup(n: number) {
  const slabs = new KindSlabs(() => 0, 0);
  const objects = new ObjectIndex();
  const log = new EventLog(0, { windowMs: 1e12, maxEvents: 1e6 }, () => 0);
  let rev = 0;
  const put = (i: number, v: string) => {
    const o = CachedObject.of(key(i), ++rev, `{"metadata":{"name":"obj-${i}","uid":"u-${i}"},"v":"${v}"}`, { i: String(i) }, `u-${i}`, undefined, slabs.writer);
    const prev = objects.set(o);
    slabs.replaced(prev, o);
    log.append(new CacheEvent(prev ? 'MODIFIED' : 'ADDED', rev, o, prev, 0));
    return o;
  };
  return { slabs, objects, log, put };
}

const all = (objects: ObjectIndex) => {
  const r = objects.range('/', '0');
  return r.objects.slice(r.from, r.to);
};

describe('KindSlabs', () => {
  test('objects created out of key order are scattered; after compaction a list is one slice per slab', () => {
    const { slabs, objects, log, put } = setup(2000);
    for (let i = 0; i < 2000; i++) put((i * 7919) % 2000, 'first');
    const before = all(objects);
    expect(slabs.scattered(before, 0, before.length)).toBe(true);
    const beforeJson = Buffer.concat(joinedBytes(before)).toString();
    slabs.compact(objects, log);
    const after = all(objects);
    expect(slabs.scattered(after, 0, after.length)).toBe(false);
    expect(joinedBytes(after).length).toBeLessThan(10);
    expect(Buffer.concat(joinedBytes(after)).toString()).toBe(beforeJson);
    expect(after[5].uid).toBe('u-5');
    expect(after[5].labels).toEqual({ i: '5' });
    expect(after.every((o, i) => o.key === before[i].key && o.rev === before[i].rev && o.slab !== before[i].slab)).toBe(true);
    // The history now points at the copies too, so nothing keeps the old slabs.
    log.forEach((ev) => expect(objects.get(ev.key)).toBe(ev.object));
  });

  test('updates make the slabs wasteful; compaction keeps the versions the history holds', () => {
    const { slabs, objects, log, put } = setup(0);
    for (let i = 0; i < 3000; i++) put(i, 'x'.repeat(300));
    expect(slabs.wasteful(0)).toBe(false);
    for (let round = 0; round < 3; round++) for (let i = 0; i < 3000; i++) put(i, `${round}${'y'.repeat(300)}`);
    expect(slabs.wasteful(0)).toBe(true);
    const firstVersion = log.at(0)!.object!.decode();
    slabs.compact(objects, log);
    expect(log.at(0)!.object!.decode()).toEqual(firstVersion);
    expect(log.at(3000)!.prev).toBe(log.at(0)!.object);
    expect(objects.get(key(7))!.decode().v).toBe(`2${'y'.repeat(300)}`);
    expect(slabs.wasteful(0)).toBe(true); // the history still holds every version
    expect(slabs.wasteful(log.bytes)).toBe(false);
  });
});
