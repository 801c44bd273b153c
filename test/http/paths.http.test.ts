/**
 * The resource paths the server answers, and what it answers for the
 * paths next to them: every shape of §4.1, namespaces named like path
 * words, trailing and doubled slashes, escapes, HEAD and methods not allowed.
 */
import { startTestServer, TestServer } from '../support/test-server';
import { call as callUrl } from '../watch/harness';

const call = (s: TestServer, method: string, path: string, body?: unknown) => callUrl(s.url, method, path, body);

describe('resource paths', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer('lmdb');
    for (const ns of ['watch', 'namespaces', 'paths']) {
      expect((await call(s, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'x' } })).status).toBe(201);
    }
  });
  afterAll(() => s.close());

  test('a namespace named "watch" lists its objects rather than watching them', async () => {
    const r = await call(s, 'GET', '/api/v1/namespaces/watch/configmaps');
    expect(r.status).toBe(200);
    expect(r.json.kind).toBe('ConfigMapList');
    expect(r.json.items.map((i: any) => i.metadata.name)).toContain('x');
  });

  test('a namespace named "namespaces" holds objects like any other', async () => {
    const r = await call(s, 'GET', '/api/v1/namespaces/namespaces/configmaps/x');
    expect(r.status).toBe(200);
    expect(r.json.metadata).toMatchObject({ name: 'x', namespace: 'namespaces' });
  });

  test('the Namespace kind and its subresources sit beside the namespaced paths', async () => {
    expect((await call(s, 'GET', '/api/v1/namespaces/paths')).json).toMatchObject({ kind: 'Namespace', metadata: { name: 'paths' } });
    expect((await call(s, 'GET', '/api/v1/namespaces/paths/status')).json).toMatchObject({ kind: 'Namespace', status: { phase: 'Active' } });
    expect((await call(s, 'GET', '/api/v1/namespaces/paths/nothing')).status).toBe(404);
    expect((await call(s, 'GET', '/api/v1/namespaces/paths/configmaps/x/nothing')).status).toBe(404);
  });

  test('every list shape: namespaced, across namespaces, cluster-scoped, with a trailing slash', async () => {
    expect((await call(s, 'GET', '/api/v1/configmaps')).json.items.length).toBeGreaterThanOrEqual(3);
    expect((await call(s, 'GET', '/api/v1/namespaces/paths/configmaps/')).json.kind).toBe('ConfigMapList');
    expect((await call(s, 'GET', '/apis/storage.svc.io/v1/csidrivers')).json.kind).toBe('CSIDriverList');
  });

  // Upstream's NotFoundHandler: a Status, never the plain-text "404 page not found".
  test.each([
    '/api/v1/namespaces/paths/nothing',
    '/apis/example.com/v1/widgets',
    '/apis/storage.svc.io/v9/csidrivers',
    '/apis/unknown.group',
    '/apis/unknown.group/v1',
    '/api/v1/namespaces/paths/configmaps/x/nothing',
    '/nothing/here',
  ])('an unknown path %s answers a NotFound Status', async (path) => {
    const r = await call(s, 'GET', path);
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server could not find the requested resource',
      reason: 'NotFound',
      details: {},
      code: 404,
    });
  });

  test('a doubled slash names nothing', async () => {
    expect((await call(s, 'GET', '/api/v1/namespaces//configmaps')).status).toBe(404);
    expect((await call(s, 'GET', '/api/v1/namespaces/paths//x')).status).toBe(404);
  });

  test('names are percent-decoded; a malformed escape is a 400', async () => {
    expect((await call(s, 'GET', '/api/v1/namespaces/paths/configmaps/%78')).json.metadata?.name).toBe('x');
    const bad = await call(s, 'GET', '/api/v1/namespaces/paths/configmaps/%zz');
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ kind: 'Status', reason: 'BadRequest', message: 'invalid URL escape "%zz"' });
  });

  test('HEAD answers like GET without a body; other methods are 405 with a Status', async () => {
    const head = await call(s, 'HEAD', '/api/v1/namespaces/paths/configmaps/x');
    expect([head.status, head.text]).toEqual([200, '']);
    const post = await call(s, 'POST', '/api/v1/namespaces/paths/configmaps/x', {});
    expect(post.status).toBe(405);
    expect(post.json).toMatchObject({ kind: 'Status', reason: 'MethodNotAllowed', code: 405 });
    expect((await call(s, 'PUT', '/api/v1/namespaces/paths/configmaps', {})).status).toBe(405);
    expect((await call(s, 'DELETE', '/api/v1/watch/namespaces/paths/configmaps')).status).toBe(405);
  });

  test('the deprecated /watch/ paths stream events; a single-object watch is limited to that name', async () => {
    const res = await fetch(`${s.url}/api/v1/watch/namespaces/paths/configmaps/x`, { signal: AbortSignal.timeout(5000) });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = JSON.parse(Buffer.from((await reader.read()).value!).toString().split('\n')[0]);
    expect(first).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'x', namespace: 'paths' } } });
    await reader.cancel();
    const conflict = await call(s, 'GET', '/api/v1/watch/namespaces/paths/configmaps/x?fieldSelector=metadata.name%3Dy');
    expect(conflict.status).toBe(400);
  });
});
