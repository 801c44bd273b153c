/**
 * Small bodies that stand for huge objects. A YAML body of a few hundred bytes whose aliases stand for 387 million
 * nodes used to keep the server busy (and growing by gigabytes) for as long as anyone waited, and an anchor that
 * contains itself made a cycle: both are now a 400 with go-yaml's words, as a create and as a server-side apply. A
 * JSON patch of a few KB whose copies double the object did the same: copies may now add 3 MiB at most (upstream's
 * JSONPatchMaxCopyBytes), past which the patch is upstream's generic 422. Fields named like Object.prototype's members
 * (`constructor`, `toString`, `__proto__`) used to pass as known fields, and were stored; they are unknown fields now.
 */
import { laughs } from '../support/yaml-bombs';
import { apply, CacheServer, cmPath, MERGE, send, startWriteServer } from './write-helpers';

const bomb = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  labels:\n${laughs(9, 9, '    ')}`;

describe('hostile bodies (lmdb)', () => {
  let s: CacheServer;
  beforeAll(async () => {
    s = await startWriteServer('lmdb');
  });
  afterAll(async () => {
    await s.close();
  });

  test('a billion laughs is refused, as a create and as an apply, and nothing is stored', async () => {
    const created = await send(s, 'POST', cmPath(), bomb('laughs'), 'application/yaml');
    expect([created.status, created.json?.reason, created.json?.message]).toEqual([400, 'BadRequest', 'error decoding YAML: yaml: document contains excessive aliasing']);
    const applied = await apply(s, `${cmPath()}/laughs`, bomb('laughs'), 'fieldManager=x');
    expect([applied.status, applied.json?.message]).toEqual([400, 'error decoding YAML: yaml: document contains excessive aliasing']);
    expect((await send(s, 'GET', `${cmPath()}/laughs`)).status).toBe(404);
  }, 20_000);

  test('an anchor that contains itself is a 400, not a failure of the server', async () => {
    const r = await apply(s, `${cmPath()}/loop`, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: loop\n  labels: &l {a: *l}\n', 'fieldManager=x');
    expect([r.status, r.json?.message]).toEqual([400, "error decoding YAML: yaml: anchor 'l' value contains itself"]);
  });

  test('ordinary aliases still work', async () => {
    const r = await send(s, 'POST', cmPath(), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: aliased\n  labels: &l {a: b}\n  annotations: *l\n', 'application/yaml');
    expect(r.status).toBe(201);
    expect(r.json.metadata).toMatchObject({ labels: { a: 'b' }, annotations: { a: 'b' } });
  });

  test('a JSON patch whose copies double the object is a 422 and changes nothing', async () => {
    expect((await send(s, 'POST', cmPath(), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'copies' }, data: { a: '1' } })).status).toBe(201);
    const ops = [
      { op: 'add', path: '/metadata/annotations', value: { v: 'x'.repeat(1000) } },
      ...Array.from({ length: 12 }, (_, i) => ({ op: 'copy', from: '/metadata/annotations', path: `/metadata/annotations/c${i}` })),
    ];
    const r = await send(s, 'PATCH', `${cmPath()}/copies`, ops, 'application/json-patch+json');
    expect([r.status, r.json?.reason, r.json?.message]).toEqual([422, 'Invalid', 'the server rejected our request due to an error in our request']);
    const got = await send(s, 'GET', `${cmPath()}/copies`);
    expect(got.json.metadata.annotations).toBeUndefined();
  });

  test('a long field manager of bad characters is one error for them, not one each (each with the whole name)', async () => {
    const managedFields = [{ manager: '\u007f'.repeat(200), operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} }];
    const r = await send(s, 'POST', cmPath(), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'manager', managedFields } });
    expect(r.status).toBe(422);
    expect(r.json.details.causes.map((c: { reason: string }) => c.reason)).toEqual(['FieldValueTooLong', 'FieldValueInvalid']);
  });

  test('a quarter of a million duplicate keys is one warning, not a failure of the server', async () => {
    const body = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dups"},"data":{${'"a":"1",'.repeat(250_000)}"a":"1"}}`;
    const r = await send(s, 'POST', cmPath(), body);
    expect(r.status).toBe(201);
    expect(r.headers.get('warning')).toBe('299 - "duplicate field \\"data.a\\""');
  });

  test('so are a quarter of a million duplicate keys in a merge patch', async () => {
    expect((await send(s, 'POST', cmPath(), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'patch-dups' } })).status).toBe(201);
    const r = await send(s, 'PATCH', `${cmPath()}/patch-dups`, `{"data":{${'"a":"1",'.repeat(250_000)}"a":"1"}}`, MERGE);
    expect(r.status).toBe(200);
    expect(r.json.data).toEqual({ a: '1' });
    expect(r.headers.get('warning')).toBe('299 - "duplicate field \\"data.a\\""');
  });
  test('fields named like Object.prototype members are unknown fields, refused or dropped, never stored', async () => {
    const body = (name: string) => `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}","toString":"x"},"constructor":"x","__proto__":{"data":{"b":"2"}},"data":{"constructor":"kept"}}`;
    const strict = await send(s, 'POST', `${cmPath()}?fieldValidation=Strict`, body('proto-strict'));
    expect([strict.status, strict.json?.message]).toEqual([
      400,
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "metadata.toString", unknown field "constructor", unknown field "__proto__"',
    ]);
    expect((await send(s, 'GET', `${cmPath()}/proto-strict`)).status).toBe(404);
    const warned = await send(s, 'POST', `${cmPath()}?fieldValidation=Warn`, body('proto-warn'));
    expect(warned.status).toBe(201);
    expect(warned.headers.get('warning')).toBe('299 - "unknown field \\"metadata.toString\\"", 299 - "unknown field \\"constructor\\"", 299 - "unknown field \\"__proto__\\""');
    const stored = await send(s, 'GET', `${cmPath()}/proto-warn`);
    expect(Object.keys(stored.json).sort()).toEqual(['apiVersion', 'data', 'kind', 'metadata']);
    expect(stored.json.data).toEqual({ constructor: 'kept' });
    expect(stored.text).not.toContain('toString');
  });

  test('a field selector on such a name is an unknown field selector', async () => {
    const r = await send(s, 'GET', `${cmPath()}?fieldSelector=constructor%3Dx`);
    expect([r.status, r.json?.message]).toEqual([400, '"constructor" is not a known field selector: only "metadata.name", "metadata.namespace"']);
  });
});

