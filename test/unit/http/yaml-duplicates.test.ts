import { decodeYaml } from '../../../src/adapters/http/media';

const decode = (text: string) => decodeYaml(Buffer.from(text));

describe('duplicate keys in YAML bodies', () => {
  it('reports each duplicate with its line, as go-yaml, and keeps the last value', () => {
    const r = decode('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: "1"\n  a: "2"\n');
    expect(r.duplicateFields).toEqual(['line 7: key "a" already set in map']);
    expect(r.object).toMatchObject({ data: { a: '2' } });
  });

  it('finds duplicates in flow maps and JSON text too', () => {
    expect(decode('{"data":{"a":"1",\n"a":"1"}}').duplicateFields).toEqual(['line 2: key "a" already set in map']);
    expect(decode('data: {b: 1, b: 2}\n').duplicateFields).toEqual(['line 1: key "b" already set in map']);
  });

  // Each text also holds one real duplicate (the last line), so that the scan runs over the rest.
  it('the same key in two list items, or inside a block scalar, is no duplicate', () => {
    const items = 'spec:\n  rules:\n  - a: 1\n    b: 2\n  - a: 3\n    b: 4\nspec: {}\n';
    expect(decode(items).duplicateFields).toEqual(['line 7: key "spec" already set in map']);
    const block = 'data:\n  script: |\n    key: 1\n    key: 2\n  other: x\ndata: {}\n';
    expect(decode(block).duplicateFields).toEqual(['line 6: key "data" already set in map']);
  });
});
