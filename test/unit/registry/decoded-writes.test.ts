/**
 * An update of a large value this process wrote starts from the value kept decoded: it must be exactly what decoding
 * the stored bytes gives (members, their order, numbers, "__proto__" members), handed out only for the same kind and
 * the same bytes (as stored, or as the watch cache keeps them, with the revision written in), and as a copy of its own.
 */
import { decodeKeyValue, encodeForStorage } from '../../../src/registry/codec';
import { decodeWritten, forgetDecoded, minDecodedBytes, rememberDecoded, writtenCopier } from '../../../src/registry/decoded-writes';
import { revisionSlot, withRevisionParts } from '../../../src/registry/with-revision';
import { configMapDefinition } from '../../../src/resources/config-map';
import { namespaceDefinition } from '../../../src/resources/namespace';
import type { KObject } from '../../../src/machinery/object';

const key = '/registry/configmaps/n/big';
const large = (fill: string) => fill.repeat(Math.ceil(minDecodedBytes / fill.length) + 10);

function bigConfigMap(): KObject {
  const data = JSON.parse('{"__proto__":"own member","a":""}') as Record<string, string>;
  data.a = large('a');
  data['b.unicode'] = large('é中😀');
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'big',
      namespace: 'n',
      uid: 'u-1',
      resourceVersion: '41',
      selfLink: '/api/v1/namespaces/n/configmaps/big',
      labels: { '2': 'numeric key first', app: 'x' },
      annotations: { skipped: undefined as unknown as string, note: 'kept' },
      generation: -0,
    },
    data,
    binaryData: undefined,
    extra: [1, undefined, null, 2.5e21, { nested: [true, 'x'] }],
  } as unknown as KObject;
}

/** What an update decodes when nothing is kept. */
const decodedFromBytes = (bytes: Buffer, modRevision: number) => decodeKeyValue(configMapDefinition, { key, value: bytes, modRevision });

describe('large values kept decoded for the next update', () => {
  beforeEach(() => forgetDecoded());

  test('the kept value is what decoding the stored bytes gives, member for member and in order', () => {
    const obj = bigConfigMap();
    const bytes = encodeForStorage(configMapDefinition, obj);
    rememberDecoded(configMapDefinition, key, bytes, obj, revisionSlot(bytes));
    const got = decodeWritten(configMapDefinition, { key, value: Buffer.from(bytes), modRevision: 42 });
    const expected = decodedFromBytes(bytes, 42);
    expect(got).toBeDefined();
    expect(JSON.stringify(got)).toBe(JSON.stringify(expected));
    expect(got).toEqual(expected);
    expect(Object.getOwnPropertyNames(got!.data)).toEqual(Object.getOwnPropertyNames(expected.data));
    expect(Object.getPrototypeOf(got!.data)).toBe(Object.prototype);
    expect(Object.is(got!.metadata.generation, 0)).toBe(true);
    expect('binaryData' in got!).toBe(false);
  });

  test('the watch cache’s copy, with the revision written into metadata, is the same value', () => {
    const obj = bigConfigMap();
    const bytes = encodeForStorage(configMapDefinition, obj);
    rememberDecoded(configMapDefinition, key, bytes, obj, revisionSlot(bytes));
    const cachedCopy = Buffer.concat(withRevisionParts(bytes, 42)!);
    expect(decodeWritten(configMapDefinition, { key, value: cachedCopy, modRevision: 42 })).toEqual(decodedFromBytes(bytes, 42));
    // The revision in the bytes must be the one asked for.
    expect(decodeWritten(configMapDefinition, { key, value: cachedCopy, modRevision: 43 })).toBeUndefined();
  });

  test('other bytes, another kind or another key get nothing', () => {
    const obj = bigConfigMap();
    const bytes = encodeForStorage(configMapDefinition, obj);
    rememberDecoded(configMapDefinition, key, bytes, obj, revisionSlot(bytes));
    const changed = Buffer.from(bytes);
    changed[changed.length - 20] ^= 1;
    expect(decodeWritten(configMapDefinition, { key, value: changed, modRevision: 42 })).toBeUndefined();
    expect(decodeWritten(namespaceDefinition, { key, value: bytes, modRevision: 42 })).toBeUndefined();
    expect(decodeWritten(configMapDefinition, { key: `${key}-2`, value: bytes, modRevision: 42 })).toBeUndefined();
    expect(decodeWritten(configMapDefinition, { key, value: bytes, modRevision: 42 })).toBeDefined();
  });

  test('each caller gets a copy of its own, and the writer changing its object later changes nothing kept', () => {
    const obj = bigConfigMap();
    const bytes = encodeForStorage(configMapDefinition, obj);
    rememberDecoded(configMapDefinition, key, bytes, obj, revisionSlot(bytes));
    (obj.metadata.labels as Record<string, string>).app = 'changed by the writer';
    const first = decodeWritten(configMapDefinition, { key, value: bytes, modRevision: 42 })!;
    first.metadata.labels!.app = 'changed by the first caller';
    (first.data as Record<string, string>).a = 'short';
    const second = decodeWritten(configMapDefinition, { key, value: bytes, modRevision: 42 })!;
    expect(second.metadata.labels!.app).toBe('x');
    expect(second).toEqual(decodedFromBytes(bytes, 42));
    // One comparison of the bytes, several copies (an update's old value and the copy a patch edits).
    const copy = writtenCopier(configMapDefinition, { key, value: bytes, modRevision: 42 })!;
    const [a, b] = [copy(), copy()];
    expect(a).not.toBe(b);
    expect(a.data).not.toBe(b.data);
    expect(b).toEqual(decodedFromBytes(bytes, 42));
  });

  test('a later write of the key replaces what was kept; small values and values JSON reads differently are not kept', () => {
    const obj = bigConfigMap();
    const bytes = encodeForStorage(configMapDefinition, obj);
    rememberDecoded(configMapDefinition, key, bytes, obj, revisionSlot(bytes));
    const small: KObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big', namespace: 'n' }, data: { a: 'b' } };
    const smallBytes = encodeForStorage(configMapDefinition, small);
    rememberDecoded(configMapDefinition, key, smallBytes, small, revisionSlot(smallBytes));
    expect(decodeWritten(configMapDefinition, { key, value: bytes, modRevision: 42 })).toBeUndefined();
    expect(decodeWritten(configMapDefinition, { key, value: encodeForStorage(configMapDefinition, small), modRevision: 42 })).toBeUndefined();

    const listed = { ...bigConfigMap(), list: Object.assign(['x'], { toJSON: () => 'written as a string' }) } as unknown as KObject;
    const listedBytes = encodeForStorage(configMapDefinition, listed);
    rememberDecoded(configMapDefinition, key, listedBytes, listed, revisionSlot(listedBytes));
    expect(decodeWritten(configMapDefinition, { key, value: listedBytes, modRevision: 42 })).toBeUndefined();

    const dated = { ...bigConfigMap(), when: new Date(0) } as unknown as KObject;
    const datedBytes = encodeForStorage(configMapDefinition, dated);
    rememberDecoded(configMapDefinition, key, datedBytes, dated, revisionSlot(datedBytes));
    expect(decodeWritten(configMapDefinition, { key, value: datedBytes, modRevision: 42 })).toBeUndefined();
  });
});
