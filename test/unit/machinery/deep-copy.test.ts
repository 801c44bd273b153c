/** deepCopy: a copy of JSON data that shares nothing mutable with its source. */
import { deepCopy } from '../../../src/machinery/object';

describe('deepCopy', () => {
  test('objects and arrays are new, values equal, members (undefined ones too) in the same order', () => {
    const src = { kind: 'ConfigMap', metadata: { name: 'a', labels: { x: 'y' }, finalizers: ['f'] }, data: { big: 'v'.repeat(1000) }, gone: undefined, n: 1, ok: true, nil: null, list: [[1], { a: [] }] };
    const copy = deepCopy(src);
    expect(copy).toEqual(src);
    expect(Object.keys(copy)).toEqual(Object.keys(src));
    expect('gone' in copy).toBe(true);
    copy.metadata.labels.x = 'changed';
    copy.metadata.finalizers.push('g');
    (copy.list[0] as number[]).push(2);
    expect(src.metadata.labels.x).toBe('y');
    expect(src.metadata.finalizers).toEqual(['f']);
    expect(src.list[0]).toEqual([1]);
  });

  test('a "__proto__" member parsed from JSON stays a member', () => {
    const src = JSON.parse('{"data":{"__proto__":{"polluted":"yes"},"k":"v"}}');
    const copy = deepCopy(src);
    expect(Object.getPrototypeOf(copy.data)).toBe(Object.prototype);
    expect(Object.keys(copy.data)).toEqual(['__proto__', 'k']);
    expect(copy.data.polluted).toBeUndefined();
    expect(JSON.stringify(copy)).toBe(JSON.stringify(src));
  });

  test('values that are not plain JSON are copied by structuredClone', () => {
    const d = new Date(5);
    const copy = deepCopy({ at: d, bytes: new Uint8Array([1, 2]) });
    expect(copy.at).not.toBe(d);
    expect(copy.at.getTime()).toBe(5);
    expect(Array.from(copy.bytes)).toEqual([1, 2]);
  });
});
