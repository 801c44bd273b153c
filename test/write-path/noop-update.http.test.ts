/** A write whose content equals what is stored, key order and Go-omitted empties aside, stores nothing. */
import { backends, CacheServer, cmPath, configMap, send, startWriteServer } from './write-helpers';

const base = cmPath();

describe.each(backends)('no-op updates (%s)', (backend) => {
  let s: CacheServer;
  beforeAll(async () => {
    s = await startWriteServer(backend);
  });
  afterAll(() => s.close());

  test('a PUT of the same content in another key order, with empty labels, keeps the resourceVersion', async () => {
    const created = await send(s, 'POST', base, configMap('same', { a: '1', b: '2' }));
    expect(created.status).toBe(201);
    const { metadata, data, ...rest } = created.json;
    const reordered = { data: { b: data.b, a: data.a }, ...rest, metadata: { labels: {}, ...metadata } };
    const put = await send(s, 'PUT', `${base}/same`, reordered);
    expect(put.status).toBe(200);
    expect(put.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
    const changed = await send(s, 'PUT', `${base}/same`, { ...reordered, data: { a: '1', b: '3' } });
    expect(changed.json.metadata.resourceVersion).not.toBe(created.json.metadata.resourceVersion);
  });
});
