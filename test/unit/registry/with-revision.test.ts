/** resourceVersion written into the stored text gives exactly what encoding the decoded object would. */
import { metadataEnd, metadataEndInBytes, withRevision, withRevisionParts } from '../../../src/registry/with-revision';

const withRevisionBytes = (bytes: Buffer, rev: number) => {
  const parts = withRevisionParts(bytes, rev);
  return parts && Buffer.concat(parts);
};

const viaObject = (text: string, rev: number) => {
  const obj = JSON.parse(text);
  obj.metadata.resourceVersion = String(rev);
  return JSON.stringify(obj);
};

describe('withRevision', () => {
  const shapes: unknown[] = [
    { kind: 'ConfigMap', metadata: { name: 'a', labels: { x: '}' } }, data: { k: 'v' } },
    { metadata: {} },
    { apiVersion: 'v1', metadata: { name: 'q"}\\{', annotations: { 'a"b': '{"metadata":{}}' } }, spec: { template: { metadata: { name: 'inner' } } } },
    { spec: { metadata: { x: 1 } }, metadata: { name: 'late', ownerReferences: [{ uid: 'u', name: ']' }] }, status: [{ metadata: {} }] },
    { metadata: { name: 'ü ☃ \u2028', managedFields: [{ fieldsV1: { 'f:metadata': { 'f:labels': {} } } }] } },
    // Backslashes before a quote: an even run ends the string, an odd one escapes the quote.
    { data: { a: 'ends in a backslash\\', b: '\\"}', c: '\\\\' }, metadata: { name: '\\' }, status: { x: '"metadata":{' } },
    { metadata: { name: 'n', annotations: { '\\': '\\\"', 'k\\"': '' } }, data: { long: 'v'.repeat(300) } },
  ];
  test.each(shapes.map((s) => [JSON.stringify(s)]))('%s', (text) => {
    const obj = JSON.parse(text);
    expect(withRevision(text, obj.metadata, 42)).toBe(viaObject(text, 42));
  });

  test.each(shapes.map((s) => [JSON.stringify(s)]))('on bytes: %s', (text) => {
    expect(withRevisionBytes(Buffer.from(text), 42)?.toString()).toBe(viaObject(text, 42));
  });

  test('the byte scan agrees with the text scan where the text is ASCII, and refuses what it refuses', () => {
    for (const t of ['{"metadata":{"a":1},"metadata":{"b":2}}', '{"\\u006detadata":{"a":1}}', '{"metadata":null}', '{"spec":{"metadata":{}}}',
      '{"metadata":{"a":[1,{"b":"}"}]}}', '{"a\\\\":1,"metadata":{}}', '{"metadata":{"unclosed', '{ "metadata" : { } }']) {
      expect(metadataEndInBytes(Buffer.from(t))).toBe(metadataEnd(t));
    }
    expect(withRevisionBytes(Buffer.from('{"metadata" : { }}'), 7)?.toString()).toBe('{"metadata" : { "resourceVersion":"7"}}');
    expect(withRevisionBytes(Buffer.from('{"metadata":null}'), 7)).toBeUndefined();
  });

  test('a stored resourceVersion, a repeated or escaped metadata key, or no metadata object: left to the encoder', () => {
    const had = '{"metadata":{"name":"a","resourceVersion":"1"}}';
    expect(withRevision(had, JSON.parse(had).metadata, 5)).toBeUndefined();
    expect(metadataEnd('{"metadata":{"a":1},"metadata":{"b":2}}')).toBe(-1);
    expect(metadataEnd('{"\\u006detadata":{"a":1}}')).toBe(-1);
    expect(metadataEnd('{"metadata":null}')).toBe(-1);
    expect(metadataEnd('{"spec":{"metadata":{}}}')).toBe(-1);
    expect(metadataEnd('{"metadata":{"a":[1,{"b":"}"}]}}')).toBe(30);
    expect(metadataEnd('{"a\\\\":1,"metadata":{}}')).toBe(-1); // a top-level key with an escape in it
    expect(metadataEnd('{"metadata":{"unclosed')).toBe(-1);
  });
});
