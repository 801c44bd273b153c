import { rememberWritten, writtenJson } from '../../../src/registry/written-bytes';
import type { KObject } from '../../../src/machinery/object';

/** Stored as create() stores it (no resourceVersion), then given the revision it was written at. */
function written(obj: KObject, revision: number): KObject {
  rememberWritten(obj, Buffer.from(JSON.stringify(obj)), revision);
  obj.metadata.resourceVersion = String(revision);
  return obj;
}

describe('the JSON of a created object, from its stored bytes', () => {
  test('is the bytes encoding the object gives, revision last in metadata', () => {
    const obj = written({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a', labels: { 'x}': '"{\\' } }, data: { metadata: '}' } }, 42);
    expect(writtenJson(obj)).toBe(JSON.stringify(obj));
  });

  test('metadata with no other member', () => {
    const obj = written({ kind: 'X', metadata: {} }, 7);
    expect(writtenJson(obj)).toBe('{"kind":"X","metadata":{"resourceVersion":"7"}}');
  });

  test('is handed out once, and not when the object now carries another revision', () => {
    const once = written({ metadata: { name: 'a' } }, 3);
    expect(writtenJson(once)).toBe(JSON.stringify(once));
    expect(writtenJson(once)).toBeUndefined();
    const moved = written({ metadata: { name: 'b' } }, 4);
    moved.metadata.resourceVersion = '5';
    expect(writtenJson(moved)).toBeUndefined();
  });

  test('an object stored with a resourceVersion in it is not remembered', () => {
    const obj: KObject = { metadata: { name: 'a', resourceVersion: '9' } };
    rememberWritten(obj, Buffer.from(JSON.stringify(obj)), 9);
    expect(writtenJson(obj)).toBeUndefined();
  });

  test('an unknown object has none', () => {
    expect(writtenJson({ metadata: {} })).toBeUndefined();
  });
});
