import * as jsonValues from '../../../src/machinery/patch/json-values';
/** Strategic merge patch: field strategies (maps, replace, merge-by-key, sets, plain lists). */
import { applyStrategicMergePatch } from '../../../src/machinery/patch/strategic-merge';
import { budgetSchema, serviceAccountSchema } from './patch-test-schemas';
import { statusOf } from './helpers';

const sa = (original: object, patch: object) => applyStrategicMergePatch(original, patch, serviceAccountSchema());
const pdb = (original: object, patch: object) => applyStrategicMergePatch(original, patch, budgetSchema());

describe('strategic merge: maps and scalars', () => {
  it('merges maps recursively and deletes keys set to null', () => {
    const original = { metadata: { name: 'sa', labels: { a: '1', b: '2' }, annotations: { keep: 'x' } } };
    const out = sa(original, { metadata: { labels: { b: null, c: '3' } }, automountServiceAccountToken: false });
    expect(out).toEqual({
      metadata: { name: 'sa', labels: { a: '1', c: '3' }, annotations: { keep: 'x' } },
      automountServiceAccountToken: false,
    });
  });

  it('deletes a whole field set to null and ignores nulls for fields it does not have', () => {
    const out = sa({ metadata: { name: 'sa', labels: { a: '1' } } }, { metadata: { labels: null, annotations: null } });
    expect(out).toEqual({ metadata: { name: 'sa' } });
  });

  it('drops null members inside values the original lacks', () => {
    const out = sa({ metadata: { name: 'sa' } }, { metadata: { labels: { a: '1', gone: null } } });
    expect(out).toEqual({ metadata: { name: 'sa', labels: { a: '1' } } });
  });

  it('replaces scalars and values whose JSON type changed', () => {
    const out = pdb({ spec: { minAvailable: 1, args: ['a'] } }, { spec: { minAvailable: 2, args: 'now-a-string' } });
    expect(out).toEqual({ spec: { minAvailable: 2, args: 'now-a-string' } });
  });

  it('treats fields the schema does not declare as plain: maps merge, lists replace', () => {
    const original = { extra: { a: 1, nested: { x: 1 } }, extraList: [{ name: 'a' }, { name: 'b' }] };
    const out = sa(original, { extra: { nested: { y: 2 }, a: null }, extraList: [{ name: 'c' }] });
    expect(out).toEqual({ extra: { nested: { x: 1, y: 2 } }, extraList: [{ name: 'c' }] });
  });

  it('does not mutate its inputs', () => {
    const original = { metadata: { labels: { a: '1' } }, secrets: [{ name: 'a' }] };
    const patch = { metadata: { labels: { a: null } }, secrets: [{ name: 'a', $patch: 'delete' }] };
    const before = JSON.stringify([original, patch]);
    sa(original, patch);
    expect(JSON.stringify([original, patch])).toBe(before);
  });

  it('keeps a __proto__ key as data without touching prototypes', () => {
    const patch = JSON.parse('{"extra":{"__proto__":{"polluted":true}}}');
    const out = sa({ extra: {} }, patch) as { extra: Record<string, unknown> };
    expect(Object.keys(out.extra)).toEqual(['__proto__']);
    expect(out.extra.polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('strategic merge: lists', () => {
  it('merges ServiceAccount secrets by name: changed merged, absent kept, new placed ahead of server-only ones', () => {
    const original = { secrets: [{ name: 'a', namespace: 'x' }, { name: 'b' }] };
    expect(sa(original, { secrets: [{ name: 'b', kind: 'Secret' }] })).toEqual({
      secrets: [{ name: 'a', namespace: 'x' }, { name: 'b', kind: 'Secret' }],
    });
    // upstream orders new patch elements before server-only ones (mergeSortedSlice), it does not append
    expect(sa(original, { secrets: [{ name: 'c' }] })).toEqual({ secrets: [{ name: 'c' }, { name: 'a', namespace: 'x' }, { name: 'b' }] });
    expect(sa(original, { secrets: [{ name: 'a' }, { name: 'c' }] })).toEqual({
      secrets: [{ name: 'a', namespace: 'x' }, { name: 'c' }, { name: 'b' }],
    });
  });

  it('adds a merge list the original lacks', () => {
    expect(sa({ metadata: { name: 'sa' } }, { imagePullSecrets: [{ name: 'reg' }] })).toEqual({
      metadata: { name: 'sa' },
      imagePullSecrets: [{ name: 'reg' }],
    });
  });

  it('merges status conditions by type', () => {
    const original = {
      status: {
        conditions: [
          { type: 'Ready', status: 'False', reason: 'Init' },
          { type: 'Synced', status: 'True' },
        ],
      },
    };
    const out = pdb(original, { status: { conditions: [{ type: 'Ready', status: 'True', reason: 'Ok', message: 'fine' }] } });
    expect(out).toEqual({
      status: {
        conditions: [
          { type: 'Ready', status: 'True', reason: 'Ok', message: 'fine' },
          { type: 'Synced', status: 'True' },
        ],
      },
    });
    const added = pdb(original, { status: { conditions: [{ type: 'DisruptionAllowed', status: 'True' }] } }) as {
      status: { conditions: { type: string }[] };
    };
    expect(added.status.conditions.map((c) => c.type)).toEqual(['DisruptionAllowed', 'Ready', 'Synced']);
  });

  it('merges nested merge lists inside merged elements', () => {
    const original = { metadata: { ownerReferences: [{ uid: 'u1', name: 'one' }, { uid: 'u2', name: 'two' }] } };
    const out = sa(original, { metadata: { ownerReferences: [{ uid: 'u2', controller: true }] } });
    expect(out).toEqual({ metadata: { ownerReferences: [{ uid: 'u1', name: 'one' }, { uid: 'u2', name: 'two', controller: true }] } });
  });

  it('unions merged primitive lists without duplicates', () => {
    const out = pdb({ metadata: { finalizers: ['a', 'b'] }, spec: { ports: [80, 443] } }, {
      metadata: { finalizers: ['b', 'c', 'c'] },
      spec: { ports: [8080, 80] },
    });
    expect(out).toEqual({ metadata: { finalizers: ['a', 'b', 'c'] }, spec: { ports: [8080, 80, 443] } });
    // duplicates already in the live list collapse as well
    expect(pdb({ spec: { tags: ['a', 'a'] } }, { spec: { tags: ['b'] } })).toEqual({ spec: { tags: ['b', 'a'] } });
  });

  it('replaces lists without a merge strategy wholesale', () => {
    const original = {
      spec: {
        args: ['a', 'b'],
        plainSelector: { matchExpressions: [{ key: 'k', operator: 'In', values: ['1'] }] },
      },
    };
    const out = pdb(original, { spec: { args: ['c'], plainSelector: { matchExpressions: [{ key: 'j', operator: 'Exists' }] } } });
    expect(out).toEqual({ spec: { args: ['c'], plainSelector: { matchExpressions: [{ key: 'j', operator: 'Exists' }] } } });
  });

  it('replaces a patchStrategy=replace field wholesale although it is an object', () => {
    const original = { spec: { selector: { matchLabels: { app: 'x', tier: 'web' } }, plainSelector: { matchLabels: { app: 'x' } } } };
    const out = pdb(original, {
      spec: { selector: { matchLabels: { app: 'y' } }, plainSelector: { matchLabels: { tier: 'web' } } },
    });
    expect(out).toEqual({
      spec: { selector: { matchLabels: { app: 'y' } }, plainSelector: { matchLabels: { app: 'x', tier: 'web' } } },
    });
  });

  it('clears a replace-strategy field with null and sets one the original lacks', () => {
    expect(pdb({ spec: { selector: { matchLabels: { a: 'b' } } } }, { spec: { selector: null } })).toEqual({ spec: {} });
    expect(pdb({ spec: {} }, { spec: { selector: { matchLabels: { a: 'b' } } } })).toEqual({ spec: { selector: { matchLabels: { a: 'b' } } } });
  });

  it('leaves an empty merge of empty lists alone', () => {
    expect(sa({ secrets: [] }, { secrets: [] })).toEqual({ secrets: [] });
  });
});

describe('strategic merge: malformed merges', () => {
  it('refuses a merge-by-key element without its key with the upstream Go-formatted text, as a 400 (upstream: 500)', () => {
    const s = statusOf(() => sa({ secrets: [{ name: 'a' }] }, { secrets: [{ namespace: 'x' }] }));
    expect(s.code).toBe(400);
    expect(s.reason).toBe('BadRequest');
    expect(s.message).toBe('map: map[namespace:x] does not contain declared merge key: name');
  });

  it('answers lists of lists with the generic 422', () => {
    const s = statusOf(() => pdb({ spec: { matrix: [['a']] } }, { spec: { matrix: [['b']] } }));
    expect(s).toMatchObject({ code: 422, reason: 'Invalid', message: 'the server rejected our request due to an error in our request' });
  });

  it('refuses mixed element types in a merged list', () => {
    const s = statusOf(() => pdb({ spec: { tags: ['a'] } }, { spec: { tags: [1] } }));
    expect(s.code).toBe(400);
    expect(s.message).toBe('list element types are not identical: [[a] [1]]');
  });

  it('refuses a patch body that is not a JSON object, and treats null as no change', () => {
    const s = statusOf(() => applyStrategicMergePatch({}, [1] as unknown as object, serviceAccountSchema()));
    expect(s).toMatchObject({ code: 400, reason: 'BadRequest', message: 'json: cannot unmarshal array into Go value of type map[string]interface {}' });
    expect(applyStrategicMergePatch({ a: 1 }, null as unknown as object, serviceAccountSchema())).toEqual({ a: 1 });
  });
});

describe('long lists of scalars', () => {
  afterEach(() => jest.restoreAllMocks());
  // Merging, deleting from and ordering such a list compared every pair: 48,000 finalizers took 56 s.
  test('merge, delete and reorder without comparing every pair', () => {
    const compared = jest.spyOn(jsonValues, 'same');
    const names = Array.from({ length: 3000 }, (_, i) => `example.com/f${i}`);
    const cm = (finalizers: string[]) => ({ metadata: { name: 'x', finalizers } });
    const schema = serviceAccountSchema();
    expect(applyStrategicMergePatch(cm(['a/keep']), { metadata: { finalizers: names } }, schema)).toEqual(cm([...names, 'a/keep']));
    expect(applyStrategicMergePatch(cm(names), { metadata: { '$deleteFromPrimitiveList/finalizers': names.slice(1) } }, schema)).toEqual(cm(names.slice(0, 1)));
    const reversed = [...names].reverse();
    expect(applyStrategicMergePatch(cm(names), { metadata: { '$setElementOrder/finalizers': reversed } }, schema)).toEqual(cm(reversed));
    expect(compared.mock.calls.length).toBeLessThan(10 * names.length);
  });
});
