/** Field sets, their FieldsV1 encoding and path spellings, against upstream's exact output. */
import {
  FieldSet,
  field,
  fieldsV1ToSet,
  keyElement,
  parseElement,
  pathString,
  serializeElement,
  setToFieldsV1,
} from '../../../src/machinery/managed-fields';

const f = field;

describe('path elements', () => {
  test('FieldsV1 keys: sorted key fields, Go JSON values with HTML escaping', () => {
    expect(serializeElement(f('data'))).toBe('f:data');
    expect(serializeElement(keyElement({ protocol: 'TCP', port: 80 }))).toBe('k:{"port":80,"protocol":"TCP"}');
    expect(serializeElement({ value: 'a<b' })).toBe('v:"a\\u003cb"');
    expect(serializeElement({ index: 3 })).toBe('i:3');
  });

  test('parsing is the inverse, and unknown types are rejected', () => {
    for (const s of ['f:data', 'k:{"port":80,"protocol":"TCP"}', 'v:"x"', 'v:5', 'i:0']) expect(serializeElement(parseElement(s))).toBe(s);
    expect(serializeElement(parseElement('k:{"protocol":"TCP","port":80}'))).toBe('k:{"port":80,"protocol":"TCP"}');
    expect(() => parseElement('x')).toThrow('key must be 2 characters long');
    expect(() => parseElement('fx')).toThrow('missing colon');
    expect(() => parseElement('k:{bad')).toThrow();
  });

  test('conflict spelling', () => {
    expect(pathString([f('spec'), f('ports'), keyElement({ port: 80, protocol: 'TCP' }), f('name')])).toBe('.spec.ports[port=80,protocol="TCP"].name');
    expect(pathString([f('metadata'), f('finalizers'), { value: 'x' }])).toBe('.metadata.finalizers[="x"]');
    expect(pathString([f('spec'), f('args'), { index: 2 }])).toBe('.spec.args[2]');
  });
});

describe('FieldSet', () => {
  const a = FieldSet.of([f('data'), f('a')], [f('data'), f('b')], [f('data')]);
  const b = FieldSet.of([f('data'), f('b')], [f('spec'), f('x')]);

  test('set algebra', () => {
    expect(a.has([f('data')])).toBe(true);
    expect(a.has([f('data'), f('c')])).toBe(false);
    expect(a.union(b).size()).toBe(4);
    expect(a.intersection(b).paths().map(pathString)).toEqual(['.data.b']);
    expect(a.difference(b).paths().map(pathString)).toEqual(['.data', '.data.a']);
    // a member removes only itself with difference, its whole subtree with recursiveDifference
    expect(a.difference(FieldSet.of([f('data')])).paths().map(pathString)).toEqual(['.data.a', '.data.b']);
    expect(a.recursiveDifference(FieldSet.of([f('data')])).empty()).toBe(true);
    expect(a.equals(a.union(new FieldSet()))).toBe(true);
  });

  test('iteration order: members first, then children, each sorted as upstream', () => {
    const s = FieldSet.of([f('z')], [f('a'), f('b')], [f('m')], [f('spec'), f('ports'), keyElement({ port: 8080 })], [f('spec'), f('ports'), keyElement({ port: 80 })]);
    expect(s.paths().map(pathString)).toEqual(['.m', '.z', '.a.b', '.spec.ports[port=80]', '.spec.ports[port=8080]']);
  });
});

describe('FieldsV1', () => {
  test('encodes exactly as upstream (sorted keys, "." for members with children)', () => {
    const set = FieldSet.of(
      [f('metadata'), f('labels')],
      [f('metadata'), f('labels'), f('app')],
      [f('data'), f('key')],
      [f('data')],
      [f('spec'), f('ports'), keyElement({ port: 80, protocol: 'TCP' })],
      [f('spec'), f('ports'), keyElement({ port: 80, protocol: 'TCP' }), f('port')],
      [f('spec'), f('ports'), keyElement({ port: 80, protocol: 'TCP' }), f('protocol')],
    );
    expect(JSON.stringify(setToFieldsV1(set))).toBe(
      '{"f:data":{".":{},"f:key":{}},"f:metadata":{"f:labels":{".":{},"f:app":{}}},' +
        '"f:spec":{"f:ports":{"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:port":{},"f:protocol":{}}}}}',
    );
  });

  test('decodes upstream documents, including unknown element types (ignored)', () => {
    const doc = {
      'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
      'f:data': { 'f:key': {} },
      'x:future': {},
    };
    const set = fieldsV1ToSet(doc);
    expect(set.paths().map(pathString)).toEqual(['.data.key', '.metadata.labels', '.metadata.labels.app']);
    expect(setToFieldsV1(set)).toEqual({ 'f:data': { 'f:key': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } });
    expect(() => fieldsV1ToSet({ 'k:{': {} })).toThrow();
    expect(() => fieldsV1ToSet([])).toThrow();
  });
});
