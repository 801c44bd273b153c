/** fieldValidation=Ignore|Warn|Strict on JSON, merge and strategic merge patches (apimachinery.md §6). */
import { backends, CacheServer, cmPath, configMap, send, startWriteServer, MERGE } from './write-helpers';

const base = cmPath();
const JSONPATCH = 'application/json-patch+json';
const SMP = 'application/strategic-merge-patch+json';

describe.each(backends)('fieldValidation on patches (%s)', (backend) => {
  let s: CacheServer;
  let rv: string;
  beforeAll(async () => {
    s = await startWriteServer(backend);
    rv = (await send(s, 'POST', base, configMap('fv', { a: '1' }))).json.metadata.resourceVersion;
  });
  afterAll(async () => {
    await s.close();
  });

  test('Strict: 422 on the "patch" field showing the patched object (merge) or the patch map (strategic)', async () => {
    const merge = await send(s, 'PATCH', `${base}/fv?fieldValidation=Strict`, { bogus: 1 }, MERGE);
    expect(merge.status).toBe(422);
    expect(merge.json.reason).toBe('Invalid');
    expect(merge.json.details.causes).toEqual([{ reason: 'FieldValueInvalid', field: 'patch', message: expect.stringMatching(/^Invalid value: "\{.*\}": strict decoding error: unknown field "bogus"$/) }]);
    expect(merge.json.message).toMatch(/^ "" is invalid: patch: Invalid value: "\{\\"apiVersion\\":\\"v1\\",\\"bogus\\":1,\\"data\\":\{\\"a\\":\\"1\\"\},.*\}": strict decoding error: unknown field "bogus"$/);

    const smp = await send(s, 'PATCH', `${base}/fv?fieldValidation=Strict`, { bogus: { x: 1 }, data: { b: '2' } }, SMP);
    expect(smp.status).toBe(422);
    expect(smp.json.message).toBe(' "" is invalid: patch: Invalid value: "map[bogus:map[x:1] data:map[b:2]]": strict decoding error: unknown field "bogus"');

    const dup = await send(s, 'PATCH', `${base}/fv?fieldValidation=Strict`, '{"data":{"a":"1"},"data":{"b":"2"}}', MERGE);
    expect(dup.status).toBe(422);
    expect(dup.json.message).toMatch(/strict decoding error: duplicate field "data"$/);

    const json = await send(s, 'PATCH', `${base}/fv?fieldValidation=Strict`, '[{"op":"add","op":"add","path":"/data/x","value":"y"}]', JSONPATCH);
    expect(json.status).toBe(422);
    expect(json.json.message).toMatch(/strict decoding error: json patch duplicate field "op"$/);
    expect((await send(s, 'GET', `${base}/fv`)).json.metadata.resourceVersion).toBe(rv);
  });

  test('Warn (the default): the patch applies, unknown fields are dropped, one Warning each', async () => {
    const r = await send(s, 'PATCH', `${base}/fv`, { bogus: 1, data: { w: 'x' } }, MERGE);
    expect(r.status).toBe(200);
    expect(r.headers.get('warning')).toBe('299 - "unknown field \\"bogus\\""');
    expect(r.json.bogus).toBeUndefined();
    expect(r.json.data.w).toBe('x');
  });

  test('Ignore: no warning', async () => {
    const r = await send(s, 'PATCH', `${base}/fv?fieldValidation=Ignore`, [{ op: 'add', path: '/bogus', value: 1 }], JSONPATCH);
    expect(r.status).toBe(200);
    expect(r.headers.get('warning')).toBeNull();
  });

  test('a patched object of the wrong shape is a 422 whatever the directive', async () => {
    const r = await send(s, 'PATCH', `${base}/fv?fieldValidation=Ignore`, { data: { a: 1 } }, MERGE);
    expect(r.status).toBe(422);
    expect(r.json.details.causes[0].field).toBe('patch');
  });

  test('a null list item of struct type is the zero struct, as Go decodes it: validation reports it, no 500', async () => {
    const pdbs = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
    const r = await send(s, 'POST', pdbs, { metadata: { name: 'nulls' }, spec: { selector: { matchExpressions: [null] } } });
    expect(r.status).toBe(422);
    const fields = new Set(r.json.details.causes.map((c: { field: string }) => c.field));
    expect([...fields]).toEqual(['spec.selector.matchExpressions[0].operator', 'spec.selector.matchExpressions[0].key']);
  });
});
