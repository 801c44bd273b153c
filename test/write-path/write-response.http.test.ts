/**
 * Every write answers with the bytes it stored plus its revision (the object is not encoded twice): the same bytes a
 * GET of it returns, on both backends; kinds stored as another kind, pretty output and dry runs are encoded as before.
 */
import { backends, CacheServer, cmPath, configMap, send, startWriteServer, until } from './write-helpers';

describe.each(backends)('write responses (%s)', (backend) => {
  let s: CacheServer;
  beforeAll(async () => {
    s = await startWriteServer(backend);
  });
  afterAll(async () => {
    await s.close();
  });

  test('the created object is answered with the bytes a GET of it returns', async () => {
    const labels = { 'example.com/x': 'y' };
    const annotations = { note: 'braces } and { quotes " and \\ and "metadata": {}', unicode: 'é ü 中文 😀' };
    const created = await send(s, 'POST', cmPath(), configMap('bytes', { metadata: '{"resourceVersion":"1"}' }, { labels, annotations }));
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toBe('application/json');
    expect(created.json.metadata).toMatchObject({ name: 'bytes', labels, annotations, resourceVersion: expect.stringMatching(/^\d+$/) });
    expect(Object.keys(created.json.metadata).at(-1)).toBe('resourceVersion');
    expect(created.json.data).toEqual({ metadata: '{"resourceVersion":"1"}' });
    expect(created.text).toBe(JSON.stringify(created.json));
    const rv = created.json.metadata.resourceVersion;
    let got = '';
    await until('a GET of the created object', async () => {
      const r = await send(s, 'GET', `${cmPath()}/bytes?resourceVersion=${rv}`);
      got = r.text;
      return r.status === 200;
    });
    expect(created.text).toBe(got);
  });

  test('a whole answer carries its Content-Length and no chunked encoding: an object, a Status, a HEAD', async () => {
    const created = await send(s, 'POST', cmPath(), configMap('length', { v: 'ü中😀' }));
    expect(created.status).toBe(201);
    const lengthOf = (r: { headers: Headers; text: string }) => ({
      length: r.headers.get('content-length'),
      chunked: r.headers.get('transfer-encoding'),
      type: r.headers.get('content-type'),
    });
    const expected = (text: string) => ({ length: String(Buffer.byteLength(text)), chunked: null, type: 'application/json' });
    expect(lengthOf(created)).toEqual(expected(created.text));
    const got = await send(s, 'GET', `${cmPath()}/length`);
    expect(got.text).toBe(created.text);
    expect(lengthOf(got)).toEqual(expected(got.text));
    // A name that is not valid: a 422 Status that names it, text with characters of two bytes.
    const invalid = await send(s, 'POST', cmPath(), configMap('length-é', {}));
    expect(invalid.status).toBe(422);
    expect(lengthOf(invalid)).toEqual(expected(invalid.text));
    const missing = await send(s, 'GET', `${cmPath()}/${encodeURIComponent('absent-中')}`);
    expect(missing.status).toBe(404);
    expect(lengthOf(missing)).toEqual(expected(missing.text));
    const head = await fetch(`${s.url}${cmPath()}/${encodeURIComponent('absent-中')}`, { method: 'HEAD' });
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(missing.text)));
    expect(head.headers.get('transfer-encoding')).toBeNull();
  });

  test('a large object is answered in pieces with the same bytes and one right Content-Length', async () => {
    const big = { a: 'x'.repeat(150_000), b: 'é'.repeat(40_000) };
    const created = await send(s, 'POST', cmPath(), configMap('large-answer', big));
    expect(created.status).toBe(201);
    expect(created.json.data).toEqual(big);
    const replaced = await send(s, 'PUT', `${cmPath()}/large-answer`, { ...created.json, data: { ...big, c: 'more' } });
    expect(replaced.status).toBe(200);
    expect(Number(replaced.headers.get('content-length'))).toBe(Buffer.byteLength(replaced.text));
    expect(Object.keys(replaced.json.metadata).at(-1)).toBe('resourceVersion');
    const rv = replaced.json.metadata.resourceVersion;
    let got = '';
    await until('a GET of the replaced object', async () => {
      const r = await send(s, 'GET', `${cmPath()}/large-answer?resourceVersion=${rv}`);
      got = r.text;
      return r.status === 200 && JSON.parse(r.text).metadata.resourceVersion === rv;
    });
    expect(replaced.text).toBe(got);
  });

  test('a kind stored as another answers in its own version', async () => {
    const created = await send(s, 'POST', '/apis/events.svc.io/v1/namespaces/default/events', {
      kind: 'Event',
      apiVersion: 'events.svc.io/v1',
      metadata: { name: 'stored-as-core' },
      eventTime: '2026-03-01T10:00:00.123456Z',
      reportingController: 'example.com/c',
      reportingInstance: 'c-1',
      action: 'Reconcile',
      reason: 'Done',
      type: 'Normal',
      regarding: { kind: 'ConfigMap', namespace: 'default', name: 'bytes' },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ kind: 'Event', apiVersion: 'events.svc.io/v1', reportingController: 'example.com/c' });
    expect(created.json.metadata.resourceVersion).toMatch(/^\d+$/);
  });

  test("the registry's JSON of a written object is the object's encoding, revision last in metadata", async () => {
    const def = (plural: string) => s.registry.definitions.find((d) => d.plural === plural)!;
    const user = { username: 'system:admin', groups: ['system:masters'] };
    const opts = (dryRun = false) => ({ user, dryRun, fieldValidation: 'Strict' as const, warnings: [], fieldManager: 'test' });
    const body = configMap('registry', { a: '}' }, { annotations: { b: '"}' } });
    const created = await s.registry.create(def('configmaps'), 'default', structuredClone(body), opts());
    expect(String(created.json)).toBe(JSON.stringify(created.object));
    expect(Object.keys(JSON.parse(String(created.json)).metadata).at(-1)).toBe('resourceVersion');
    const dry = await s.registry.create(def('configmaps'), 'default', { ...structuredClone(body), metadata: { name: 'registry-dry' } }, opts(true));
    expect(dry.json).toBe(JSON.stringify(dry.object));
    const lease = await s.registry.create(def('leases'), 'default', { apiVersion: 'coordination.svc.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec: { holderIdentity: 'h' } }, opts());
    expect(String(lease.json)).toBe(JSON.stringify(lease.object));
    const events = s.registry.definitions.find((d) => d.plural === 'events' && d.group === 'events.svc.io')!;
    const event = await s.registry.create(events, 'default', {
      apiVersion: 'events.svc.io/v1', kind: 'Event', metadata: { name: 'e' }, eventTime: '2026-03-01T10:00:00.123456Z',
      reportingController: 'example.com/c', reportingInstance: 'c-1', action: 'A', reason: 'R', type: 'Normal',
    }, opts());
    // Stored as a core Event: its stored bytes are not its answer, which is encoded from the object.
    expect(JSON.parse(String(event.json))).toMatchObject({ kind: 'Event', apiVersion: 'events.svc.io/v1', reportingController: 'example.com/c' });
    const updated = await s.registry.update(def('configmaps'), 'default', 'registry', { ...structuredClone(body), data: { a: '{' } }, opts());
    expect(JSON.parse(String(updated.json))).toEqual(updated.object);
    expect(Object.keys(JSON.parse(String(updated.json)).metadata).at(-1)).toBe('resourceVersion');
  });

  // Each write encodes its object once, for storage; the answer is those bytes (counted by watching JSON.stringify).
  test.each([
    ['PUT', 'PUT', (rv: string) => ({ body: configMap('once', { v: '2' }, { resourceVersion: rv, labels: { l: '1' } }), type: 'application/json', query: '' })],
    ['merge PATCH', 'PATCH', () => ({ body: { data: { v: '3' } }, type: 'application/merge-patch+json', query: '' })],
    ['server-side apply', 'PATCH', () => ({ body: configMap('once', { v: '4' }), type: 'application/apply-patch+yaml', query: '?fieldManager=once&force=true' })],
  ])('a %s encodes the object once', async (_verb, method, request) => {
    const existing = await send(s, 'GET', `${cmPath()}/once`);
    const rv = existing.status === 200 ? existing.json.metadata.resourceVersion : (await send(s, 'POST', cmPath(), configMap('once', { v: '1' }))).json.metadata.resourceVersion;
    const { body, type, query } = request(rv);
    const payload = JSON.stringify(body);
    const stringify = JSON.stringify;
    let encodings = 0;
    JSON.stringify = ((value: unknown, ...rest: unknown[]) => {
      const v = value as { kind?: string; metadata?: { name?: string } } | undefined;
      if (v?.kind === 'ConfigMap' && v.metadata?.name === 'once') encodings++;
      return (stringify as (...a: unknown[]) => string)(value, ...rest);
    }) as typeof JSON.stringify;
    let r;
    try {
      r = await send(s, method, `${cmPath()}/once${query}`, payload, type);
    } finally {
      JSON.stringify = stringify;
    }
    expect(r.status).toBe(200);
    expect(encodings).toBe(1);
    let got = '';
    await until('a GET of the written object', async () => {
      const g = await send(s, 'GET', `${cmPath()}/once?resourceVersion=${r.json.metadata.resourceVersion}`);
      got = g.text;
      return g.status === 200 && g.json.metadata.resourceVersion === r.json.metadata.resourceVersion;
    });
    expect(r.text).toBe(got);
  });

  test('pretty output and dry runs are encoded from the object', async () => {
    const pretty = await send(s, 'POST', `${cmPath()}?pretty=true`, configMap('pretty', { a: '1' }));
    expect(pretty.status).toBe(201);
    expect(pretty.text).toBe(`${JSON.stringify(pretty.json, null, 2)}\n`);
    const dry = await send(s, 'POST', `${cmPath()}?dryRun=All`, configMap('dry', { a: '1' }));
    expect(dry.status).toBe(201);
    expect(dry.json.metadata).toMatchObject({ name: 'dry', uid: expect.any(String) });
    expect((await send(s, 'GET', `${cmPath()}/dry`)).status).toBe(404);
  });
});
