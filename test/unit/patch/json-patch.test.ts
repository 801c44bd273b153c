/** JSON Patch (RFC 6902) with upstream's error mapping. */
import { MAX_JSON_PATCH_COPY_BYTES, MAX_JSON_PATCH_OPERATIONS, applyJsonPatch } from '../../../src/machinery/patch/json-patch';
import { ApiError } from '../../../src/machinery/status';
import { GENERIC_422, statusOf } from './helpers';

const doc = () => ({ metadata: { name: 'cm', labels: { app: 'x' } }, data: { a: '1', 'k/1': 'slash', 'k~1': 'tilde' }, list: [1, 2, 3] });

describe('JSON patch operations', () => {
  it('applies add, remove and replace in order', () => {
    const out = applyJsonPatch(doc(), [
      { op: 'add', path: '/data/b', value: '2' },
      { op: 'replace', path: '/data/a', value: 'one' },
      { op: 'remove', path: '/metadata/labels/app' },
    ]);
    expect(out).toEqual({ metadata: { name: 'cm', labels: {} }, data: { a: 'one', b: '2', 'k/1': 'slash', 'k~1': 'tilde' }, list: [1, 2, 3] });
  });

  it('inserts into arrays by index and appends with -', () => {
    const out = applyJsonPatch(doc(), [
      { op: 'add', path: '/list/0', value: 0 },
      { op: 'add', path: '/list/-', value: 4 },
      { op: 'remove', path: '/list/2' },
    ]) as { list: number[] };
    expect(out.list).toEqual([0, 1, 3, 4]);
  });

  it('unescapes ~1 and ~0 in paths', () => {
    const out = applyJsonPatch(doc(), [
      { op: 'replace', path: '/data/k~11', value: 'S' },
      { op: 'remove', path: '/data/k~01' },
    ]) as { data: Record<string, string> };
    expect(out.data).toEqual({ a: '1', 'k/1': 'S' });
  });

  it('moves and copies, the copy being independent of its source', () => {
    const out = applyJsonPatch(doc(), [
      { op: 'copy', from: '/metadata/labels', path: '/data/labels' },
      { op: 'add', path: '/data/labels/extra', value: 'y' },
      { op: 'move', from: '/data/a', path: '/metadata/a' },
    ]) as { metadata: Record<string, unknown>; data: Record<string, unknown> };
    expect(out.metadata).toEqual({ name: 'cm', labels: { app: 'x' }, a: '1' });
    expect(out.data.labels).toEqual({ app: 'x', extra: 'y' });
    expect(out.data.a).toBeUndefined();
  });

  it('passes a matching test, compares structurally, and treats null as matching an absent key (json-patch v4)', () => {
    const ops = [
      { op: 'test', path: '/metadata', value: { labels: { app: 'x' }, name: 'cm' } },
      { op: 'test', path: '/data/missing', value: null },
      { op: 'add', path: '/data/ok', value: 'yes' },
    ];
    expect((applyJsonPatch(doc(), ops) as { data: { ok: string } }).data.ok).toBe('yes');
  });

  it('mutates neither the document nor the patch', () => {
    const d = doc();
    const patch = [
      { op: 'add', path: '/data/obj', value: { inner: [] as number[] } },
      { op: 'add', path: '/data/obj/inner/-', value: 1 },
    ];
    const before = JSON.stringify([d, patch]);
    applyJsonPatch(d, patch);
    expect(JSON.stringify([d, patch])).toBe(before);
  });

  it('treats a JSON null body as an empty patch and accepts raw bytes', () => {
    expect(applyJsonPatch(doc(), null)).toEqual(doc());
    const out = applyJsonPatch(doc(), Buffer.from('[{"op":"remove","path":"/list"}]')) as Record<string, unknown>;
    expect(out.list).toBeUndefined();
  });
});

describe('JSON patch errors', () => {
  it('answers a failed test with the generic 422 and no detail', () => {
    expect(statusOf(() => applyJsonPatch(doc(), [{ op: 'test', path: '/data/a', value: '2' }]))).toEqual(GENERIC_422);
  });

  it.each([
    ['remove of a missing path', { op: 'remove', path: '/data/nope' }],
    ['replace of a missing path', { op: 'replace', path: '/nope', value: 1 }],
    ['add under a missing parent', { op: 'add', path: '/nope/deeper', value: 1 }],
    ['move from a missing path', { op: 'move', from: '/nope', path: '/data/x' }],
    ['an index past the end', { op: 'add', path: '/list/9', value: 1 }],
    ['an unknown op', { op: 'frobnicate', path: '/data' }],
    ["fast-json-patch's non-RFC _get", { op: '_get', path: '/data' }],
    ['a missing value', { op: 'add', path: '/data/x' }],
    ['a path without a leading slash', { op: 'add', path: 'data', value: 1 }],
    ['a null operation', null],
  ])('answers %s with the generic 422', (_what, op) => {
    expect(statusOf(() => applyJsonPatch(doc(), [op]))).toEqual(GENERIC_422);
  });

  it('applies nothing when a later operation fails', () => {
    const d = doc();
    statusOf(() => applyJsonPatch(d, [{ op: 'add', path: '/data/x', value: 1 }, { op: 'test', path: '/data/a', value: 'no' }]));
    expect(d).toEqual(doc());
  });

  it('refuses more than 10000 operations with 413, before applying any', () => {
    const op = { op: 'test', path: '/metadata/name', value: 'cm' };
    expect(applyJsonPatch(doc(), new Array(MAX_JSON_PATCH_OPERATIONS).fill(op))).toEqual(doc());
    const s = statusOf(() => applyJsonPatch(doc(), new Array(MAX_JSON_PATCH_OPERATIONS + 1).fill({ op: 'remove', path: '/nope' })));
    expect(s).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001',
      reason: 'RequestEntityTooLarge',
      code: 413,
    });
  });

  // Each copy of the map into itself doubles it: without a limit, forty such operations (3.5 KB) would need terabytes.
  const doubling = (times: number, value = 'x'.repeat(1000)) => [
    { op: 'add', path: '/grow', value: { v: value } },
    ...Array.from({ length: times }, (_, i) => ({ op: 'copy', from: '/grow', path: `/grow/c${i}` })),
  ];

  it('refuses copies that add up to more than 3 MiB with the generic 422, as upstream (JSONPatchMaxCopyBytes)', () => {
    let err: unknown;
    try {
      applyJsonPatch(doc(), doubling(12));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toEqual(GENERIC_422);
    expect(String((err as ApiError).cause)).toMatch(/^Unable to complete the copy, the accumulated size increase of copy is \d+, exceeding the limit 3145728$/);
  });

  it('counts each copy by the JSON it copies, as Go writes it', () => {
    // 1,000-byte values: {"v":"..."} is 1,008 bytes, and the nth copy copies 2^(n-1) times that plus the keys added.
    const out = applyJsonPatch(doc(), doubling(10)) as { grow: Record<string, unknown> };
    expect(Buffer.byteLength(JSON.stringify(out.grow))).toBeLessThan(MAX_JSON_PATCH_COPY_BYTES);
    // Go writes < as \u003c: 300,000 of them are 1.8 MB, so the second copy passes 3 MiB; as many a's copy three times.
    expect(statusOf(() => applyJsonPatch(doc(), doubling(3, '<'.repeat(300_000))))).toEqual(GENERIC_422);
    expect(applyJsonPatch(doc(), doubling(3, 'a'.repeat(300_000)))).toBeDefined();
  });

  it('refuses bodies that are not an array of objects with 400', () => {
    expect(statusOf(() => applyJsonPatch(doc(), { op: 'add' }))).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    });
    expect(statusOf(() => applyJsonPatch(doc(), [1])).message).toBe('json: cannot unmarshal number into Go value of type jsonpatch.Operation');
    expect(statusOf(() => applyJsonPatch(doc(), Buffer.from('[{')))).toMatchObject({ code: 400, message: 'invalid JSON patch' });
  });
});
