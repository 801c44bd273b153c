/** JSON Merge Patch (RFC 7386) as upstream's library applies it. */
import { applyMergePatch } from '../../../src/machinery/patch/merge-patch';
import { statusOf } from './helpers';

describe('merge patch', () => {
  // RFC 7386 appendix A, minus the two cases upstream refuses (null and scalar patches, below)
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [['a', 'b'], ['c', 'd'], ['c', 'd']],
    [{ a: 'b' }, ['c'], ['c']],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('%j + %j = %j', (target, patch, expected) => {
    expect(applyMergePatch(target, patch)).toEqual(expected);
  });

  it('merges ConfigMap data: null deletes a key, others are added or replaced', () => {
    const cm = { metadata: { name: 'cm', labels: { a: '1' } }, data: { a: 'x', b: 'y' } };
    expect(applyMergePatch(cm, { data: { a: null, c: 'z' }, metadata: { labels: { a: '2' } } })).toEqual({
      metadata: { name: 'cm', labels: { a: '2' } },
      data: { b: 'y', c: 'z' },
    });
  });

  it('prunes nulls inside inserted objects, also inside arrays, but keeps null array elements', () => {
    const out = applyMergePatch({ a: 1 }, { list: [{ x: null, y: 1 }, null], obj: { deep: { z: null } } });
    expect(out).toEqual({ a: 1, list: [{ y: 1 }, null], obj: { deep: {} } });
  });

  it('replaces arrays wholesale and a scalar with an object', () => {
    expect(applyMergePatch({ list: [1, 2, 3], s: 'x' }, { list: [4], s: { k: 'v', n: null } })).toEqual({ list: [4], s: { k: 'v' } });
  });

  it('mutates neither input', () => {
    const target = { a: { b: 1 } };
    const patch = { a: { c: 2 }, d: { e: null } };
    const before = JSON.stringify([target, patch]);
    const out = applyMergePatch(target, patch) as { a: unknown };
    expect(JSON.stringify([target, patch])).toBe(before);
    expect(out.a).not.toBe(target.a);
  });

  it('refuses null, string, number and boolean bodies with 400 Invalid JSON Patch', () => {
    for (const body of [null, 'bar', 1, true]) {
      expect(statusOf(() => applyMergePatch({ a: 'foo' }, body))).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Invalid JSON Patch',
        reason: 'BadRequest',
        code: 400,
      });
    }
  });

  it('decodes raw bytes and refuses undecodable ones', () => {
    expect(applyMergePatch({ a: 1 }, Buffer.from('{"a":null,"b":2}'))).toEqual({ b: 2 });
    expect(statusOf(() => applyMergePatch({ a: 1 }, Buffer.from('{nope')))).toMatchObject({ code: 400, message: 'invalid JSON patch' });
  });
});
