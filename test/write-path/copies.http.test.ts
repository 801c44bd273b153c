/**
 * Issue 14: the write path copies an object once per request. A patch decodes the stored object once (its patch
 * functions never change their inputs), and server-side apply copies the request's configuration once (it used to be
 * copied four times, five for a no-op), while a forced retry after conflicts still starts from an unchanged copy.
 * Counted in-process: deepCopy and structuredClone calls whose value names the test's object (deepCopy's own
 * recursion is not counted), and decodings of its stored key.
 */
import * as codec from '../../src/registry/codec';
import * as object from '../../src/machinery/object';
import { apply, backends, CacheServer, cmPath, configMap, MERGE, send, startWriteServer } from './write-helpers';

const base = cmPath();

describe.each(backends)('copies per write (%s)', (backend) => {
  let s: CacheServer;
  beforeAll(async () => {
    s = await startWriteServer(backend);
  });
  afterAll(async () => {
    await s.close();
  });
  afterEach(() => jest.restoreAllMocks());

  /** Runs `write` and counts what it copied and decoded of the ConfigMap `name`. */
  async function counted(name: string, write: () => Promise<{ status: number }>): Promise<{ status: number; clones: number; decodes: number }> {
    const clone = jest.spyOn(globalThis, 'structuredClone');
    const copy = jest.spyOn(object, 'deepCopy');
    const decode = jest.spyOn(codec, 'decodeKeyValue');
    const { status } = await write();
    const clones = [...clone.mock.calls, ...copy.mock.calls].filter(([v]) => JSON.stringify(v ?? null).includes(`"${name}"`)).length;
    const decodes = decode.mock.calls.filter(([, kv]) => kv.key.endsWith(`/${name}`)).length;
    jest.restoreAllMocks();
    return { status, clones, decodes };
  }

  test('server-side apply copies its configuration once, forced or not, and a no-op does not copy the object', async () => {
    expect((await apply(s, `${base}/copies-apply`, configMap('copies-apply', { a: '1' }), 'fieldManager=alice')).status).toBe(201);
    const forced = await counted('copies-apply', () => apply(s, `${base}/copies-apply`, configMap('copies-apply', { a: '2' }), 'fieldManager=alice&force=true'));
    expect(forced).toEqual({ status: 200, clones: 1, decodes: 2 });
    const plain = await counted('copies-apply', () => apply(s, `${base}/copies-apply`, configMap('copies-apply', { a: '3' }), 'fieldManager=alice'));
    expect(plain).toEqual({ status: 200, clones: 1, decodes: 2 });
    const noop = await counted('copies-apply', () => apply(s, `${base}/copies-apply`, configMap('copies-apply', { a: '3' }), 'fieldManager=alice'));
    expect(noop).toEqual({ status: 200, clones: 1, decodes: 2 });
  });

  test('a forced retry after conflicts starts from an unchanged configuration', async () => {
    // kubectl may take over what its last-applied annotation lists: the first run fails with conflicts, and the
    // second, forced, must see the configuration as the client sent it.
    const last = JSON.stringify(configMap('copies-retry', { a: '1', b: '1' }));
    const annotations = { 'kubectl.kubernetes.io/last-applied-configuration': last };
    expect((await send(s, 'POST', `${base}?fieldManager=kubectl-client-side-apply`, configMap('copies-retry', { a: '1', b: '1' }, { annotations }))).status).toBe(201);
    const r = await apply(s, `${base}/copies-retry`, configMap('copies-retry', { a: '2', b: '1' }), 'fieldManager=kubectl');
    expect(r.status).toBe(200);
    expect(r.json.data).toEqual({ a: '2', b: '1' });
    const own = r.json.metadata.managedFields.find((e: { manager: string; operation: string }) => e.manager === 'kubectl' && e.operation === 'Apply');
    expect(own.fieldsV1['f:data']).toEqual({ 'f:a': {}, 'f:b': {} });
  });

  test.each([
    ['merge', MERGE, { data: { b: '2' } }],
    ['strategic merge', 'application/strategic-merge-patch+json', { data: { b: '2' } }],
    ['JSON', 'application/json-patch+json', [{ op: 'add', path: '/data/b', value: '2' }]],
  ])('a %s patch decodes the stored object once and copies it once', async (_, type, patch) => {
    const name = `copies-${type.split('/')[1].split('-')[0]}`;
    expect((await send(s, 'POST', base, configMap(name, { a: '1' }))).status).toBe(201);
    const patched = await counted(name, () => send(s, 'PATCH', `${base}/${name}`, patch, type));
    expect(patched).toEqual({ status: 200, clones: 1, decodes: 1 });
    const got = await send(s, 'GET', `${base}/${name}`);
    expect(got.json.data).toEqual({ a: '1', b: '2' });
  });
});
