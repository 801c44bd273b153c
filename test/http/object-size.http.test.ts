/**
 * One object-size limit on both backends: what etcd's default
 * --max-request-bytes allows (1.5 MiB less room for the key), a 413 beyond
 * it, nothing stored; managedFields are dropped when only they push an
 * object over, as upstream does.
 */
import { maxStoredObjectBytes } from '../../src/registry/object-size';
import { backends, startTestServer, TestServer } from '../support/test-server';

const ns = 'n'.repeat(63);
const roles = `/apis/rbac.authorization.svc.io/v1/namespaces/${ns}/roles`;
const cms = `/api/v1/namespaces/${ns}/configmaps`;

async function send(s: TestServer, method: string, path: string, body: unknown) {
  const res = await fetch(s.url + path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text) };
}

/** Bytes of the object as stored (its JSON without resourceVersion). */
const storedSize = (o: any) => Buffer.byteLength(JSON.stringify({ ...o, metadata: { ...o.metadata, resourceVersion: undefined } }));
const role = (name: string, padding: number) => ({
  metadata: { name },
  rules: [{ apiGroups: [''], verbs: ['get'], resources: ['configmaps'], resourceNames: ['x'.repeat(padding)] }],
});

describe.each(backends)('object size limit (%s)', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(backend);
    expect((await send(s, 'POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
  });
  afterAll(() => s.close());

  test('an object just under the limit, with the longest key, is stored', async () => {
    const name = `r${'a'.repeat(252)}`;
    const probe = await send(s, 'POST', `${roles}?dryRun=All`, role(name, 1000));
    expect(probe.status).toBe(201);
    const padding = 1000 + (maxStoredObjectBytes - 64 - storedSize(probe.json));
    const created = await send(s, 'POST', roles, role(name, padding));
    expect(created.status).toBe(201);
    expect(storedSize(created.json)).toBeGreaterThan(maxStoredObjectBytes - 200);
    expect(storedSize(created.json)).toBeLessThanOrEqual(maxStoredObjectBytes);
  });

  test('a 1.6 MB and a 2.9 MB Role are both a 413 on this backend, and not stored', async () => {
    for (const [name, size] of [['big', 1_600_000], ['bigger', 2_900_000]] as const) {
      const res = await send(s, 'POST', roles, role(name, size));
      expect([name, res.status]).toEqual([name, 413]);
      expect(res.json).toMatchObject({ kind: 'Status', reason: 'RequestEntityTooLarge', code: 413 });
      expect(res.json.message).toMatch(/^Request entity too large: the object would take \d+ bytes in storage, more than the limit of 1564672/);
      const got = await fetch(`${s.url}${roles}/${name}`);
      expect(got.status).toBe(404);
    }
  });

  test('an update past the limit is a 413 and leaves the object as it was', async () => {
    const small = await send(s, 'POST', roles, role('grows', 10));
    const grown = await send(s, 'PUT', `${roles}/grows`, { ...small.json, ...role('grows', 1_600_000) });
    expect(grown.status).toBe(413);
    const now = (await (await fetch(`${s.url}${roles}/grows`)).json()) as any;
    expect(now.metadata.resourceVersion).toBe(small.json.metadata.resourceVersion);
  });

  test('when managedFields alone push an object over, it is stored without them', async () => {
    // 40,000 keys: about 1 MB of data, and about as much again of managedFields naming every key.
    const data: Record<string, string> = {};
    for (let i = 0; i < 40_000; i++) data[`key-${String(i).padStart(6, '0')}-${'k'.repeat(10)}`] = 'v';
    const res = await send(s, 'POST', cms, { metadata: { name: 'many-keys' }, data });
    expect(res.status).toBe(201);
    expect(res.json.metadata.managedFields).toBeUndefined();
    expect(Object.keys(res.json.data)).toHaveLength(40_000);
  });
});
