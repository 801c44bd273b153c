/** Cached objects: bytes in slabs, uids read back from the bytes, lists joined from slab slices. */
import { CachedObject, cacheObject, joinedBytes } from '../../../src/registry/watch-cache/cached-object';
import type { ResourceDefinition } from '../../../src/machinery/resource-definition';
import { encodeForStorage } from '../../../src/registry/codec';
import { SlabWriter } from '../../../src/registry/watch-cache/byte-slab';

const json = (name: string, extra = '') => `{"metadata":{"name":"${name}","uid":"uid-${name}"${extra}}}`;
const cached = (name: string, extra = '') => CachedObject.of(`/things/${name}`, 1, json(name, extra), undefined, `uid-${name}`);
const parsedList = (objects: CachedObject[]) => JSON.parse(`[${Buffer.concat(joinedBytes(objects)).toString()}]`);

describe('CachedObject', () => {
  test('objects written one after another go out as one slice, with commas between them', () => {
    const objects = ['a', 'b', 'c'].map((n) => cached(n));
    expect(joinedBytes(objects)).toHaveLength(1);
    expect(parsedList(objects).map((o: any) => o.metadata.name)).toEqual(['a', 'b', 'c']);
  });

  test('objects out of slab order, a skipped one and a big one still join into valid JSON', () => {
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((n) => cached(n));
    const big = cached('big', `,"note":"${'x'.repeat(20_000)}"`);
    const objects = [d, a, c, big, b];
    expect(parsedList(objects).map((o: any) => o.metadata.name)).toEqual(['d', 'a', 'c', 'big', 'b']);
    expect(parsedList([big])[0].metadata.note).toHaveLength(20_000);
    expect(joinedBytes([])).toEqual([]);
  });

  test('bytes, decode and the uid read back what was written', () => {
    const o = cached('x', ',"labels":{"a":"ü"}');
    expect(o.bytes.toString()).toBe(json('x', ',"labels":{"a":"ü"}'));
    expect(o.decode().metadata.labels).toEqual({ a: 'ü' });
    expect(o.uid).toBe('uid-x');
    expect(o.size).toBe(Buffer.byteLength(json('x', ',"labels":{"a":"ü"}')));
  });

  test('a uid that is not plain ASCII, or not in the bytes as written, is kept as given', () => {
    const odd = CachedObject.of('/things/o', 1, '{"metadata":{"name":"o","uid":"ü-1"}}', undefined, 'ü-1');
    expect(odd.uid).toBe('ü-1');
    const missing = CachedObject.of('/things/m', 1, '{"metadata":{"name":"m"}}', undefined, 'elsewhere');
    expect(missing.uid).toBe('elsewhere');
    expect(CachedObject.of('/things/n', 1, '{"metadata":{"name":"n"}}').uid).toBeUndefined();
  });

  test('a DELETED frame carries the deletion revision', () => {
    const o = CachedObject.of('/things/r', 3, '{"metadata":{"name":"r","resourceVersion":"3"}}');
    expect(o.bytesAt(3)).toEqual(o.bytes);
    expect(JSON.parse(o.bytesAt(9).toString()).metadata.resourceVersion).toBe('9');
  });
});

describe('SlabWriter', () => {
  test('packs objects into one slab, each followed by a comma; a new slab when full; big objects alone', () => {
    const w = new SlabWriter();
    w.write('{"a":1}');
    const first = { slab: w.slab, start: w.start, size: w.size };
    w.write('{"b":2}');
    expect(w.slab).toBe(first.slab);
    expect(w.start).toBe(first.start + first.size + 1);
    expect(first.slab.toString('utf8', first.start, w.start + w.size + 1)).toBe('{"a":1},{"b":2},');
    w.write(`"${'y'.repeat(10_000)}"`);
    expect(w.slab).not.toBe(first.slab);
    expect(w.slab.length).toBe(10_003);
    for (let i = 0; i < 20; i++) w.write(`"${'z'.repeat(5000)}"`);
    expect(w.slab).not.toBe(first.slab);
    expect(w.slab.toString('utf8', w.start, w.start + w.size)).toBe(`"${'z'.repeat(5000)}"`);
  });

  test('an object taken in from storage has its resourceVersion written into its bytes, ASCII or not', () => {
    const def = { fieldSelectors: {} } as unknown as ResourceDefinition;
    const writer = new SlabWriter();
    for (const stored of [
      { metadata: { name: 'a', uid: 'u-a', labels: { l: 'v' } }, data: { big: 'x'.repeat(20_000) } },
      { metadata: { name: 'ü', uid: 'u-b' }, data: { k: '☃ "quoted" \\' } },
      { metadata: {}, data: {} },
    ]) {
      const o = cacheObject(def, '/things/a', Buffer.from(JSON.stringify(stored)), 9, writer);
      expect(o.bytes.toString()).toBe(JSON.stringify({ ...stored, metadata: { ...stored.metadata, resourceVersion: '9' } }));
      expect(o.uid).toBe(stored.metadata.uid);
      expect(o.labels).toEqual((stored.metadata as { labels?: object }).labels);
    }
  });

  test('a value this process encoded is taken in from its object, with the same result as parsing it', () => {
    const def = { fieldSelectors: { 'spec.x': (o: any) => o.spec?.x } } as unknown as ResourceDefinition;
    const writer = new SlabWriter();
    const obj: any = { kind: 'Thing', metadata: { name: 'a', uid: 'u-1', labels: { l: 'ü' }, resourceVersion: '3' }, spec: { x: 'y' } };
    const encoded = encodeForStorage(def, obj);
    const fromObject = cacheObject(def, '/things/a', encoded, 9, writer);
    const parsed = cacheObject(def, '/things/a', Buffer.from(encoded), 9, writer);
    expect(fromObject.bytes.toString()).toBe(parsed.bytes.toString());
    expect(JSON.parse(fromObject.bytes.toString()).metadata.resourceVersion).toBe('9');
    expect([fromObject.uid, fromObject.labels, fromObject.fields]).toEqual([parsed.uid, parsed.labels, parsed.fields]);
    obj.metadata.labels.l = 'changed'; // the writer's object may change afterwards; the cache's labels do not
    expect(fromObject.labels).toEqual({ l: 'ü' });
    expect(obj.metadata.resourceVersion).toBe('3');
  });
});
