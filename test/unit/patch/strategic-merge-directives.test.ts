/** Strategic merge patch directives: $patch, $setElementOrder, $deleteFromPrimitiveList, $retainKeys. */
import { applyStrategicMergePatch } from '../../../src/machinery/patch/strategic-merge';
import { budgetSchema, serviceAccountSchema } from './patch-test-schemas';
import { GENERIC_422, allKeys, statusOf } from './helpers';

const sa = (original: object, patch: object) => applyStrategicMergePatch(original, patch, serviceAccountSchema());
const pdb = (original: object, patch: object) => applyStrategicMergePatch(original, patch, budgetSchema());
const names = (list: unknown) => (list as { name: string }[]).map((s) => s.name);

describe('$patch in list elements', () => {
  const original = { secrets: [{ name: 'a' }, { name: 'b', namespace: 'x' }, { name: 'c' }] };

  it('deletes the element with that key', () => {
    expect(sa(original, { secrets: [{ name: 'b', $patch: 'delete' }] })).toEqual({ secrets: [{ name: 'a' }, { name: 'c' }] });
  });

  it('deletes every element with that key, and ignores keys not present', () => {
    const dupes = { secrets: [{ name: 'a' }, { name: 'b' }, { name: 'a' }] };
    expect(sa(dupes, { secrets: [{ name: 'a', $patch: 'delete' }, { name: 'zz', $patch: 'delete' }] })).toEqual({ secrets: [{ name: 'b' }] });
  });

  it('deletes and adds in one patch', () => {
    expect(names((sa(original, { secrets: [{ name: 'd' }, { name: 'a', $patch: 'delete' }] }) as typeof original).secrets)).toEqual([
      'd',
      'b',
      'c',
    ]);
  });

  it('replaces the whole list with the other elements on $patch: replace', () => {
    const out = sa(original, { secrets: [{ name: 'z', namespace: 'n', $retainKeys: ['name'] }, { $patch: 'replace' }] });
    expect(out).toEqual({ secrets: [{ name: 'z', namespace: 'n' }] });
  });

  it('refuses a delete element without the merge key, and $patch: merge, with upstream texts as 400 (upstream: 500)', () => {
    expect(statusOf(() => sa(original, { secrets: [{ $patch: 'delete' }] }))).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'map: map[$patch:delete] does not contain declared merge key: name',
    });
    expect(statusOf(() => sa(original, { secrets: [{ $patch: 'merge' }] })).message).toBe(
      'merging lists cannot yet be specified in the patch',
    );
    expect(statusOf(() => sa(original, { secrets: [{ name: 'a', $patch: 'drop' }] })).message).toBe(
      'unknown patch type: drop in map: map[$patch:drop name:a]',
    );
  });
});

describe('$patch in maps', () => {
  const original = { metadata: { name: 'sa', labels: { a: '1', b: '2' } } };

  it('replaces the map on $patch: replace', () => {
    expect(sa(original, { metadata: { labels: { $patch: 'replace', c: '3' } } })).toEqual({ metadata: { name: 'sa', labels: { c: '3' } } });
  });

  it('replaces the whole object on a top-level $patch: replace', () => {
    expect(sa(original, { $patch: 'replace', metadata: { name: 'other' } })).toEqual({ metadata: { name: 'other' } });
  });

  it('empties the map on $patch: delete', () => {
    expect(sa(original, { metadata: { labels: { $patch: 'delete' } } })).toEqual({ metadata: { name: 'sa', labels: {} } });
  });

  it('drops a directive map the original lacks (upstream removeDirectives)', () => {
    expect(sa({ metadata: { name: 'sa' } }, { metadata: { annotations: { $patch: 'replace', x: '1' } } })).toEqual({ metadata: { name: 'sa' } });
  });

  it('refuses other directive values (merge included) with the upstream text, as a 400 (upstream: untyped 500)', () => {
    const s = statusOf(() => sa(original, { metadata: { labels: { $patch: 'merge' } } }));
    expect(s).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'unknown patch type: merge in map: map[$patch:merge]',
      reason: 'BadRequest',
      code: 400,
    });
    expect(statusOf(() => sa(original, { $patch: 'frob' }))).toMatchObject({ code: 400, message: 'unknown patch type: frob in map: map[$patch:frob]' });
  });
});

describe('$setElementOrder', () => {
  it('reorders a merged list of maps and of scalars without other changes', () => {
    const out = pdb(
      { metadata: { finalizers: ['x', 'y', 'z'] }, status: { conditions: [{ type: 'A', status: 'True' }, { type: 'B', status: 'False' }] } },
      { metadata: { '$setElementOrder/finalizers': ['z', 'x', 'y'] }, status: { '$setElementOrder/conditions': [{ type: 'B' }, { type: 'A' }] } },
    );
    expect(out).toEqual({
      metadata: { finalizers: ['z', 'x', 'y'] },
      status: { conditions: [{ type: 'B', status: 'False' }, { type: 'A', status: 'True' }] },
    });
  });

  it('orders additions, deletions and server-only elements as kubectl apply expects', () => {
    // the server has `c` that the last-applied configuration never had
    const out = sa(
      { secrets: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] },
      { '$setElementOrder/secrets': [{ name: 'b' }, { name: 'd' }], secrets: [{ name: 'd' }, { name: 'a', $patch: 'delete' }] },
    );
    expect(names((out as { secrets: unknown }).secrets)).toEqual(['b', 'c', 'd']);
  });

  it('puts added primitives where the order list says', () => {
    const out = pdb({ metadata: { finalizers: ['x', 'y'] } }, { metadata: { '$setElementOrder/finalizers': ['x', 'w', 'y'], finalizers: ['w'] } });
    expect(out).toEqual({ metadata: { finalizers: ['x', 'w', 'y'] } });
  });

  it('sets a list the original lacks', () => {
    const out = sa({}, { '$setElementOrder/secrets': [{ name: 'a' }, { name: 'b' }], secrets: [{ name: 'a' }, { name: 'b' }] });
    expect(out).toEqual({ secrets: [{ name: 'a' }, { name: 'b' }] });
  });

  it('refuses a patch list ordered differently and a malformed key (400)', () => {
    const mismatch = statusOf(() =>
      sa({ secrets: [{ name: 'a' }] }, { '$setElementOrder/secrets': [{ name: 'a' }, { name: 'b' }], secrets: [{ name: 'b' }, { name: 'a' }] }),
    );
    expect(mismatch.code).toBe(400);
    expect(mismatch.message).toBe(
      "The order in patch list:\n[map[name:b] map[name:a]]\n doesn't match $setElementOrder list:\n[map[name:a] map[name:b]]\n",
    );
    expect(statusOf(() => sa({}, { $setElementOrder: [] }))).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'invalid patch format of setElementOrder list',
    });
    expect(statusOf(() => sa({}, { '$setElementOrder/secrets': 'a' })).message).toBe('expected a []interface {}, but received a string');
  });
});

describe('$deleteFromPrimitiveList', () => {
  it('removes the listed values and ignores values not present', () => {
    const out = pdb({ metadata: { finalizers: ['a', 'b', 'c'] } }, { metadata: { '$deleteFromPrimitiveList/finalizers': ['b', 'zz'] } });
    expect(out).toEqual({ metadata: { finalizers: ['a', 'c'] } });
  });

  it('adds and removes in one patch', () => {
    const out = pdb({ metadata: { finalizers: ['a', 'b', 'c'] } }, { metadata: { finalizers: ['d'], '$deleteFromPrimitiveList/finalizers': ['a'] } });
    expect(out).toEqual({ metadata: { finalizers: ['d', 'b', 'c'] } });
  });

  it('does not create a list the original lacks', () => {
    expect(pdb({ metadata: { name: 'x' } }, { metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } })).toEqual({ metadata: { name: 'x' } });
  });

  it('refuses a key without the field name (400)', () => {
    expect(statusOf(() => pdb({}, { $deleteFromPrimitiveList: ['a'] }))).toMatchObject({
      code: 400,
      message: 'invalid patch format of primitive list',
    });
  });
});

describe('$retainKeys', () => {
  it('clears the keys of a retainKeys map that are not listed', () => {
    const original = { spec: { source: { configMap: 'cm' } } };
    expect(pdb(original, { spec: { source: { $retainKeys: ['secret'], secret: 's' } } })).toEqual({ spec: { source: { secret: 's' } } });
    // without the directive the map merges as usual
    expect(pdb(original, { spec: { source: { secret: 's' } } })).toEqual({ spec: { source: { configMap: 'cm', secret: 's' } } });
  });

  it('applies inside elements of a merge,retainKeys list', () => {
    const original = { spec: { claims: [{ name: 'c', resourceClaimName: 'r' }, { name: 'd', resourceClaimName: 'q' }] } };
    const out = pdb(original, {
      spec: { claims: [{ name: 'c', resourceClaimTemplateName: 't', $retainKeys: ['name', 'resourceClaimTemplateName'] }] },
    });
    expect(out).toEqual({ spec: { claims: [{ name: 'c', resourceClaimTemplateName: 't' }, { name: 'd', resourceClaimName: 'q' }] } });
  });

  it('refuses patch keys missing from the list and a list that is not one (400)', () => {
    const original = { spec: { source: { configMap: 'cm' } } };
    const expected = { code: 400, reason: 'BadRequest', message: 'invalid patch format of retainKeys' };
    expect(statusOf(() => pdb(original, { spec: { source: { $retainKeys: ['secret'], emptyDir: 'e' } } }))).toMatchObject(expected);
    expect(statusOf(() => pdb(original, { spec: { source: { $retainKeys: 'secret' } } }))).toMatchObject(expected);
    // null members and parallel-list directives need not be listed
    expect(pdb(original, { spec: { source: { $retainKeys: ['secret'], emptyDir: null, secret: 's' } } })).toEqual({ spec: { source: { secret: 's' } } });
  });
});

describe('directive keys never reach the result', () => {
  it('strips them from merged, replaced, appended and newly added values', () => {
    const original = { metadata: { name: 'x', finalizers: ['a'] }, spec: { selector: { matchLabels: { a: 'b' } } }, status: {} };
    const patch = {
      metadata: { '$setElementOrder/finalizers': ['a', 'b'], finalizers: ['b'], labels: { l: '1', '$retainKeys': ['l'] } },
      spec: { selector: { matchLabels: { c: 'd' }, $retainKeys: ['matchLabels'] }, args: [], claims: [{ name: 'n', $retainKeys: ['name'] }] },
      status: { conditions: [{ type: 'T', status: 'True', '$setElementOrder/x': [] }, { type: 'U', $patch: 'delete' }] },
    };
    const out = pdb(original, patch);
    expect(allKeys(out).filter((k) => k.startsWith('$'))).toEqual([]);
    expect(out).toEqual({
      metadata: { name: 'x', finalizers: ['a', 'b'], labels: { l: '1' } },
      spec: { selector: { matchLabels: { c: 'd' } }, args: [], claims: [{ name: 'n' }] },
      status: { conditions: [{ type: 'T', status: 'True' }] },
    });
  });

  it('keeps the generic 422 shape for lists of lists', () => {
    expect(statusOf(() => pdb({ spec: { matrix: [['a']] } }, { spec: { matrix: [['b']] } }))).toEqual(GENERIC_422);
  });
});
