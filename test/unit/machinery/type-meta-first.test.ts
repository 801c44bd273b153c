import { typeMetaFirst } from '../../../src/machinery/object';

describe('typeMetaFirst', () => {
  it('returns a body already in order as it is', () => {
    const body = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a' } };
    expect(typeMetaFirst(body)).toBe(body);
  });

  it('puts kind and apiVersion first in a new object, values and the other keys untouched', () => {
    const metadata = { name: 'a' };
    const body = { metadata, apiVersion: 'v1', data: { k: 'v' }, kind: 'ConfigMap' };
    const out = typeMetaFirst(body);
    expect(Object.keys(out)).toEqual(['kind', 'apiVersion', 'metadata', 'data']);
    expect(out.metadata).toBe(metadata);
    expect(Object.keys(body)).toEqual(['metadata', 'apiVersion', 'data', 'kind']);
  });

  it('adds no key the body does not have', () => {
    expect(Object.keys(typeMetaFirst({ metadata: {}, apiVersion: 'v1' }))).toEqual(['apiVersion', 'metadata']);
    expect(Object.keys(typeMetaFirst({ data: {} }))).toEqual(['data']);
  });
});
