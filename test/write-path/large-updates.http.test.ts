/**
 * Updates of a large object start from the value this process kept decoded when it wrote it (decoded-writes.ts):
 * PUTs, merge and JSON patches and an unchanged PUT give the same answers, stored values and managedFields as the same
 * updates decoded from the stored bytes, on both backends.
 */
import * as decodedWrites from '../../src/registry/decoded-writes';
import { backends, CacheServer, cmPath, MERGE, send, startWriteServer } from './write-helpers';

const big = (c: string) => c.repeat(100 * 1024);

/** An answer without what differs between two objects of other names written at other times. */
function comparable(json: any) {
  const { name: _n, uid: _u, resourceVersion: _r, creationTimestamp: _c, managedFields, ...meta } = json.metadata;
  return { ...json, metadata: { ...meta, managedFields: managedFields?.map(({ time: _t, ...e }: { time?: string }) => e) } };
}

describe.each(backends)('updates of a large object (%s)', (backend) => {
  let s: CacheServer;
  beforeAll(async () => {
    s = await startWriteServer(backend);
  });
  afterAll(async () => {
    await s.close();
  });

  /** The same updates of one object; with `forget`, nothing kept decoded before each of them. */
  async function updates(name: string, forget: boolean) {
    const step = async (method: string, path: string, body: unknown, contentType?: string) => {
      if (forget) decodedWrites.forgetDecoded();
      const r = await send(s, method, path, body, contentType);
      expect([r.status, r.json?.message]).toEqual([method === 'POST' ? 201 : 200, undefined]);
      return r.json;
    };
    const path = `${cmPath()}/${name}`;
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'big' } }, data: { a: big('a'), b: big('é'), c: 'small' } };
    const answers: any[] = [await step('POST', cmPath(), body)];
    const put = { ...body, metadata: { ...body.metadata, resourceVersion: answers[0].metadata.resourceVersion }, data: { ...body.data, a: big('A') } };
    answers.push(await step('PUT', path, put));
    answers.push(await step('PATCH', path, { data: { b: big('ü'), c: null }, metadata: { annotations: { note: 'patched' } } }, MERGE));
    answers.push(await step('PATCH', path, [{ op: 'test', path: '/data/a', value: big('A') }, { op: 'add', path: '/data/d', value: 'd' }], 'application/json-patch+json'));
    const last = answers.at(-1);
    // The same content again: nothing is written, the resourceVersion stays.
    const unchanged = await step('PUT', path, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { ...last.metadata, managedFields: undefined }, data: last.data });
    expect(unchanged.metadata.resourceVersion).toBe(last.metadata.resourceVersion);
    answers.push(unchanged);
    const got = await send(s, 'GET', path);
    expect(got.text).toBe(JSON.stringify(unchanged));
    return answers.map(comparable);
  }

  test('answer as the same updates decoded from the stored bytes', async () => {
    const hits = jest.spyOn(decodedWrites, 'writtenCopier');
    const kept = await updates('kept', false);
    // The PUTs and patches start from the value kept.
    expect(hits.mock.results.filter((r) => r.value !== undefined).length).toBeGreaterThanOrEqual(4);
    hits.mockClear();
    const decoded = await updates('decoded', true);
    expect(hits.mock.results.filter((r) => r.value !== undefined)).toEqual([]);
    hits.mockRestore();
    expect(kept).toEqual(decoded);
    expect(kept[3].data).toEqual({ a: big('A'), b: big('ü'), d: 'd' });
    expect(kept[3].metadata.annotations).toEqual({ note: 'patched' });
    expect(kept[3].metadata.managedFields).toHaveLength(1);
  });
});
