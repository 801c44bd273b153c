/** ConfigMap end to end over HTTP, against both storage backends. */
import { backends, startTestServer, TestServer } from '../support/test-server';

const ns = 'default';
const base = `/api/v1/namespaces/${ns}/configmaps`;

async function call(s: TestServer, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(s.url + path, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

describe.each(backends)('ConfigMap over HTTP (%s)', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(backend);
  });
  afterAll(async () => {
    await s.close();
  });

  test('create, get, list, replace, delete', async () => {
    const created = await call(s, 'POST', base, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'one' }, data: { a: 'b' } });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'one', namespace: ns }, data: { a: 'b' } });
    expect(created.json.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.json.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Number(created.json.metadata.resourceVersion)).toBeGreaterThan(0);
    expect(created.json.metadata.generation).toBeUndefined();

    const got = await call(s, 'GET', `${base}/one`);
    expect(got.json).toEqual(created.json);

    const list = await call(s, 'GET', base);
    expect(list.json.kind).toBe('ConfigMapList');
    expect(list.json.items.map((i: any) => i.metadata.name)).toContain('one');
    expect(Number(list.json.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(created.json.metadata.resourceVersion));
    const all = await call(s, 'GET', '/api/v1/configmaps');
    expect(all.json.items.map((i: any) => i.metadata.name)).toContain('one');

    const replaced = await call(s, 'PUT', `${base}/one`, { ...created.json, data: { a: 'c' } });
    expect(replaced.status).toBe(200);
    expect(Number(replaced.json.metadata.resourceVersion)).toBeGreaterThan(Number(created.json.metadata.resourceVersion));

    const stale = await call(s, 'PUT', `${base}/one`, { ...created.json, data: { a: 'd' } });
    expect(stale.status).toBe(409);
    expect(stale.json).toMatchObject({
      kind: 'Status',
      reason: 'Conflict',
      code: 409,
      message: 'Operation cannot be fulfilled on configmaps "one": the object has been modified; please apply your changes to the latest version and try again',
    });

    const unconditional = await call(s, 'PUT', `${base}/one`, { metadata: { name: 'one' }, data: { z: '1' } });
    expect(unconditional.status).toBe(200);
    expect(unconditional.json.data).toEqual({ z: '1' });

    const same = await call(s, 'PUT', `${base}/one`, unconditional.json);
    expect(same.json.metadata.resourceVersion).toBe(unconditional.json.metadata.resourceVersion);

    const deleted = await call(s, 'DELETE', `${base}/one`);
    expect(deleted.status).toBe(200);
    expect(deleted.json).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'one', kind: 'configmaps', uid: created.json.metadata.uid } });
    const missing = await call(s, 'GET', `${base}/one`);
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "one" not found',
      reason: 'NotFound',
      details: { name: 'one', kind: 'configmaps' },
      code: 404,
    });
  });

  test('already exists, missing on PUT, name and namespace mismatches', async () => {
    await call(s, 'POST', base, { metadata: { name: 'dup' } });
    const again = await call(s, 'POST', base, { metadata: { name: 'dup' } });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ reason: 'AlreadyExists', message: 'configmaps "dup" already exists' });
    expect((await call(s, 'PUT', `${base}/nope`, { metadata: { name: 'nope' } })).status).toBe(404);
    const nameMismatch = await call(s, 'PUT', `${base}/dup`, { metadata: { name: 'other' } });
    expect(nameMismatch.status).toBe(400);
    expect(nameMismatch.json.message).toBe('the name of the object (other) does not match the name on the URL (dup)');
    const nsMismatch = await call(s, 'POST', base, { metadata: { name: 'x', namespace: 'elsewhere' } });
    expect(nsMismatch.status).toBe(400);
    expect(nsMismatch.json).toMatchObject({ reason: 'BadRequest', message: 'the namespace of the provided object does not match the namespace sent on the request' });
  });

  test('validation errors carry upstream paths and messages', async () => {
    const bad = await call(s, 'POST', base, {
      metadata: { name: 'Bad_Name' },
      data: { 'bad key': 'x', shared: '1' },
      binaryData: { shared: 'AQI=' },
    });
    expect(bad.status).toBe(422);
    expect(bad.json.reason).toBe('Invalid');
    expect(bad.json.details.kind).toBe('ConfigMap');
    const fields = bad.json.details.causes.map((c: any) => c.field);
    expect(fields).toEqual(expect.arrayContaining(['metadata.name', 'data[bad key]', 'data[shared]']));
    expect(bad.json.message).toMatch(/^ConfigMap "Bad_Name" is invalid: \[metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/);
    const dup = bad.json.details.causes.find((c: any) => c.field === 'data[shared]');
    expect(dup).toEqual({ reason: 'FieldValueInvalid', message: 'Invalid value: "shared": duplicate of key present in binaryData', field: 'data[shared]' });

    const noName = await call(s, 'POST', base, { metadata: {} });
    expect(noName.json.message).toBe('ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required');

    const big = await call(s, 'POST', base, { metadata: { name: 'big' }, data: { a: 'x'.repeat(1024 * 1024 + 1) } });
    expect(big.status).toBe(422);
    expect(big.json.details.causes[0]).toMatchObject({ reason: 'FieldValueTooLong', field: '' });
  });

  test('immutable ConfigMaps keep their data but not their metadata', async () => {
    const c = await call(s, 'POST', base, { metadata: { name: 'frozen' }, data: { a: 'b' }, immutable: true });
    const change = await call(s, 'PUT', `${base}/frozen`, { ...c.json, data: { a: 'c' } });
    expect(change.status).toBe(422);
    expect(change.json.details.causes).toEqual([
      { reason: 'FieldValueForbidden', message: 'Forbidden: field is immutable when `immutable` is set', field: 'data' },
    ]);
    const unset = await call(s, 'PUT', `${base}/frozen`, { ...c.json, immutable: false });
    expect(unset.json.details.causes[0].field).toBe('immutable');
    const relabel = await call(s, 'PUT', `${base}/frozen`, { ...c.json, metadata: { ...c.json.metadata, labels: { x: 'y' } } });
    expect(relabel.status).toBe(200);
  });

  test('generateName, system fields and resourceVersion on create', async () => {
    const g = await call(s, 'POST', base, { metadata: { generateName: 'gen-', uid: 'client-set' } });
    expect(g.status).toBe(201);
    expect(g.json.metadata.name).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(g.json.metadata.uid).not.toBe('client-set');
    const rv = await call(s, 'POST', base, { metadata: { name: 'with-rv', resourceVersion: '5' } });
    expect(rv.status).toBe(500);
    expect(rv.json.message).toBe('resourceVersion should not be set on objects to be created');
    expect((await call(s, 'GET', `${base}/with-rv`)).status).toBe(404);
  });

  test('bad bodies get a Status and change nothing', async () => {
    const malformed = await call(s, 'POST', base, '{"metadata": {"name": "broken"');
    expect(malformed.status).toBe(400);
    expect(malformed.json).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
    const huge = await call(s, 'POST', base, JSON.stringify({ metadata: { name: 'huge' }, data: { a: 'x'.repeat(3 * 1024 * 1024) } }));
    expect(huge.status).toBe(413);
    expect(huge.json).toMatchObject({ reason: 'RequestEntityTooLarge', message: 'Request entity too large: limit is 3145728' });
    const wrongType = await call(s, 'POST', base, { metadata: { name: 'typed' }, data: { a: 1 } });
    expect(wrongType.status).toBe(400);
    for (const name of ['broken', 'huge', 'typed']) expect((await call(s, 'GET', `${base}/${name}`)).status).toBe(404);
    const text = await call(s, 'POST', base, 'x', { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    expect(text.json.reason).toBe('UnsupportedMediaType');
    const notAcceptable = await call(s, 'GET', base, undefined, { accept: 'text/html' });
    expect(notAcceptable.status).toBe(406);
    expect(notAcceptable.json.reason).toBe('NotAcceptable');
    const method = await call(s, 'POST', `${base}/x`, {});
    expect(method.status).toBe(405);
    expect(method.json).toMatchObject({ reason: 'MethodNotAllowed', code: 405 });
  });

  test('YAML in and out, pretty output', async () => {
    const yamlBody = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yml\ndata:\n  k: v\n';
    const res = await fetch(`${s.url}${base}`, { method: 'POST', headers: { 'content-type': 'application/yaml', accept: 'application/yaml' }, body: yamlBody });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/yaml');
    const text = await res.text();
    expect(text).toMatch(/^apiVersion: v1\ndata:\n  k: v\nkind: ConfigMap\nmetadata:\n/);
    const pretty = await call(s, 'GET', `${base}/yml?pretty=true`);
    expect(pretty.text).toContain('\n  "kind": "ConfigMap"');
  });

  test('unknown fields warn by default, fail with Strict, vanish with Ignore', async () => {
    const warn = await call(s, 'POST', base, { metadata: { name: 'warn' }, bogus: 1 });
    expect(warn.status).toBe(201);
    expect(warn.headers.get('warning')).toBe('299 - "unknown field \\"bogus\\""');
    expect(warn.json.bogus).toBeUndefined();
    const strict = await call(s, 'POST', `${base}?fieldValidation=Strict`, '{"metadata":{"name":"strict"},"bogus":1,"data":{},"data":{}}');
    expect(strict.status).toBe(400);
    expect(strict.json.message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "bogus", duplicate field "data"',
    );
    const ignore = await call(s, 'POST', `${base}?fieldValidation=Ignore`, { metadata: { name: 'ignore' }, bogus: 1 });
    expect(ignore.status).toBe(201);
    expect(ignore.headers.get('warning')).toBeNull();
  });
});
