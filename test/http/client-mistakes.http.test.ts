/**
 * Client mistakes get the 4xx upstream gives (never a 500) and change
 * nothing in storage: deep nesting, bad URL escapes, overlong names, bodies
 * that are not what their Content-Encoding says, unknown patch directives,
 * out-of-range resourceVersions and bad timeouts.
 */
import { connect } from 'node:net';
import { gzipSync, brotliCompressSync } from 'node:zlib';
import { backends, startTestServer, TestServer } from '../support/test-server';

const cms = '/api/v1/namespaces/default/configmaps';

async function send(s: TestServer, method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}) {
  const res = await fetch(s.url + path, { method, headers: { 'content-type': 'application/json', ...headers }, body });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

const nested = (depth: number, leaf = '{}') => '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);
const nestedArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe.each(backends)('client mistakes (%s)', (backend) => {
  let s: TestServer;
  let rv: string;
  beforeAll(async () => {
    s = await startTestServer(backend);
    const created = await send(s, 'POST', cms, JSON.stringify({ metadata: { name: 'target' }, data: { a: 'b' } }));
    expect(created.status).toBe(201);
    rv = created.json.metadata.resourceVersion;
  });
  afterAll(() => s.close());

  const unchanged = async () => {
    const now = await send(s, 'GET', `${cms}/target`);
    expect(now.status).toBe(200);
    expect(now.json.metadata.resourceVersion).toBe(rv);
    expect(now.json.data).toEqual({ a: 'b' });
  };

  test.each([
    ['application/merge-patch+json', `{"data":${nested(100_000)}}`],
    ['application/strategic-merge-patch+json', `{"metadata":{"labels":${nested(100_000)}}}`],
    ['application/json-patch+json', `[{"op":"add","path":"/data/x","value":${nestedArray(100_000)}}]`],
    ['application/apply-patch+yaml', `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"target"},"data":${nested(100_000)}}`],
  ])('a %s patch nested 100,000 levels is a 400', async (type, body) => {
    const res = await send(s, 'PATCH', `${cms}/target?fieldManager=deep`, body, { 'content-type': type });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
    expect(res.json.message).toMatch(/max ?depth/i);
    await unchanged();
  });

  test('a create body nested 100,000 levels is a 400; 1,000 levels is an ordinary answer', async () => {
    const deep = await send(s, 'POST', cms, `{"metadata":{"name":"deep"},"data":${nested(100_000)}}`);
    expect(deep.status).toBe(400);
    expect(deep.json.message).toContain('exceeded max depth');
    const limit = await send(s, 'PATCH', `${cms}/target`, `{"data":${nested(998)}}`, { 'content-type': 'application/merge-patch+json' });
    expect(limit.status).toBe(422);
    const smp = await send(s, 'PATCH', `${cms}/target`, `{"metadata":{"labels":${nested(997)}}}`, { 'content-type': 'application/strategic-merge-patch+json' });
    expect(smp.status).toBe(422);
    const json = await send(s, 'PATCH', `${cms}/target`, `[{"op":"add","path":"/data/x","value":${nestedArray(997)}}]`, { 'content-type': 'application/json-patch+json' });
    expect(json.status).toBe(422);
    expect((await send(s, 'GET', `${cms}/deep`)).status).toBe(404);
    await unchanged();
  });

  test.each(['%', '%zz', '%e2%82'])('a name with the bad escape %s is a 400', async (bad) => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await send(s, method, `${cms}/${bad}`, method === 'PUT' ? '{}' : undefined);
      expect([method, res.status]).toEqual([method, 400]);
      expect(res.json).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
    }
    const ns = await send(s, 'GET', `/api/v1/namespaces/${bad}/configmaps`);
    expect(ns.status).toBe(400);
  });

  test('bad escapes are named as Go names them', async () => {
    expect((await send(s, 'GET', `${cms}/%zz`)).json.message).toBe('invalid URL escape "%zz"');
    expect((await send(s, 'GET', `${cms}/a%`)).json.message).toBe('invalid URL escape "%"');
  });

  test('a 10,000-character name and a 5,000-character namespace are simply not found', async () => {
    const name = 'n'.repeat(10_000);
    const ns = 's'.repeat(5_000);
    expect((await send(s, 'GET', `${cms}/${name}`)).status).toBe(404);
    expect((await send(s, 'DELETE', `${cms}/${name}`)).status).toBe(404);
    expect((await send(s, 'PATCH', `${cms}/${name}`, '{}', { 'content-type': 'application/merge-patch+json' })).status).toBe(404);
    expect((await send(s, 'GET', `/api/v1/namespaces/${ns}/configmaps/x`)).status).toBe(404);
    const list = await send(s, 'GET', `/api/v1/namespaces/${ns}/configmaps`);
    expect(list.status).toBe(200);
    expect(list.json.items).toEqual([]);
    // Refused by namespace admission (the namespace cannot exist) or by validation: a 4xx either way.
    const create = await send(s, 'POST', `/api/v1/namespaces/${ns}/configmaps`, JSON.stringify({ metadata: { name: 'x' } }));
    expect([403, 422]).toContain(create.status);
    const lease = await send(s, 'PUT', `/apis/coordination.svc.io/v1/namespaces/default/leases/${name}`, JSON.stringify({ metadata: { name } }));
    expect(lease.status).toBe(422);
  });

  test.each(['gzip', 'br', 'deflate'])('Content-Encoding %s on a plain body is a 400 and stores nothing', async (encoding) => {
    const res = await send(s, 'POST', cms, JSON.stringify({ metadata: { name: `plain-${encoding}` } }), { 'content-encoding': encoding });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
    expect(res.json.message).toContain(`Content-Encoding: ${encoding}`);
    expect((await send(s, 'GET', `${cms}/plain-${encoding}`)).status).toBe(404);
  });

  test('an unknown Content-Encoding is a 415; bodies really compressed are read', async () => {
    const zstd = await send(s, 'POST', cms, JSON.stringify({ metadata: { name: 'zstd' } }), { 'content-encoding': 'zstd' });
    expect(zstd.status).toBe(415);
    expect(zstd.json).toMatchObject({ reason: 'UnsupportedMediaType', code: 415 });
    const gz = await send(s, 'POST', cms, gzipSync(JSON.stringify({ metadata: { name: 'gz' } })), { 'content-encoding': 'gzip' });
    expect(gz.status).toBe(201);
    const br = await send(s, 'POST', cms, brotliCompressSync(JSON.stringify({ metadata: { name: 'br' } })), { 'content-encoding': 'br' });
    expect(br.status).toBe(201);
  });

  test('a strategic merge patch with $patch: frob is a 400', async () => {
    const res = await send(s, 'PATCH', `${cms}/target`, '{"$patch":"frob"}', { 'content-type': 'application/strategic-merge-patch+json' });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ reason: 'BadRequest', message: 'unknown patch type: frob in map: map[$patch:frob]' });
    await unchanged();
  });

  test('a resourceVersion beyond uint64 (or 2^53) is a 400 at once, on get, list and watch', async () => {
    for (const path of [`${cms}/target`, cms, `${cms}?watch=1`]) {
      const sep = path.includes('?') ? '&' : '?';
      const started = Date.now();
      const huge = await send(s, 'GET', `${path}${sep}resourceVersion=1180591620717411303424`);
      expect([path, huge.status]).toEqual([path, 400]);
      expect(huge.json.message).toBe('invalid resource version: strconv.ParseUint: parsing "1180591620717411303424": value out of range');
      expect(Date.now() - started).toBeLessThan(2500); // not the 3 s wait for a future revision
      const beyond = await send(s, 'GET', `${path}${sep}resourceVersion=9007199254740993`);
      expect([path, beyond.status]).toEqual([path, 400]);
    }
  });

  test.each([
    ['abc', 'strconv.ParseInt: parsing "abc": invalid syntax'],
    ['-1', 'invalid timeoutSeconds -1: must be 0 (no timeout of its own) or more'],
    ['1e3', 'strconv.ParseInt: parsing "1e3": invalid syntax'],
  ])('timeoutSeconds=%s is a 400 on watch and list', async (value, message) => {
    for (const path of [`${cms}?watch=1&timeoutSeconds=${value}`, `${cms}?timeoutSeconds=${value}`]) {
      const res = await send(s, 'GET', path);
      expect([path, res.status]).toEqual([path, 400]);
      expect(res.json).toMatchObject({ reason: 'BadRequest', message });
    }
  });

  test('limit=abc is a 400', async () => {
    const res = await send(s, 'GET', `${cms}?limit=abc`);
    expect(res.status).toBe(400);
  });

  test('a client that goes away halfway through its body stores nothing, and the server serves on', async () => {
    const { hostname, port } = new URL(s.url);
    const socket = connect(Number(port), hostname);
    await new Promise((resolve) => socket.once('connect', resolve));
    const body = JSON.stringify({ metadata: { name: 'half-sent' }, data: { a: 'b' } });
    socket.write(`POST ${cms} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 20)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await new Promise((resolve) => socket.destroy().once('close', resolve));
    expect((await send(s, 'GET', `${cms}/half-sent`)).status).toBe(404);
    await unchanged();
  });

  test('a URL without a query string reads as an empty query, one with ?pretty=true as pretty', async () => {
    const plain = await send(s, 'GET', `${cms}/target`, undefined, { 'user-agent': 'test' });
    expect(plain.text.startsWith('{"kind"')).toBe(true);
    const pretty = await send(s, 'GET', `${cms}/target?pretty=true`, undefined, { 'user-agent': 'test' });
    expect(pretty.text.startsWith('{\n  "kind"')).toBe(true);
  });
});
