/**
 * Namespaces over HTTP on both backends: system namespaces, auto-provisioning
 * and NamespaceExists, NamespaceLifecycle, the kind's own deletion (first
 * DELETE marks Terminating, the controller empties the namespace and
 * finalizes it, conditions while finalizers hold content), /finalize.
 */
import { backends, startTestServer, TestServer } from '../support/test-server';
import { encodeForStorage } from '../../src/registry/codec';
import { until } from '../support/until';

async function call(s: TestServer, method: string, path: string, body?: unknown, contentType = 'application/json') {
  const res = await fetch(s.url + path, { method, headers: { 'content-type': contentType }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

/** GETs `path` until `check` holds for the response, and answers that response; a timeout shows the last one. */
async function eventually(s: TestServer, path: string, check: (r: { status: number; json: any }) => boolean): Promise<{ status: number; json: any }> {
  let last: { status: number; json: any } | undefined;
  const probe = async () => {
    last = await call(s, 'GET', path);
    return check(last) && last;
  };
  return until(`GET ${path} to pass its check`, probe, { timeoutMs: 20_000, intervalMs: 100, onTimeout: () => JSON.stringify(last) });
}

const cm = (name: string, extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...extra }, data: { a: 'b' } });

describe.each(backends)('Namespaces over HTTP (%s)', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(backend);
  });
  afterAll(async () => {
    await s.close();
  });

  test('the four system namespaces exist, Active, labelled with their name', async () => {
    const list = await call(s, 'GET', '/api/v1/namespaces');
    const byName = Object.fromEntries(list.json.items.map((n: any) => [n.metadata.name, n]));
    for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      expect(byName[name]).toMatchObject({ status: { phase: 'Active' }, spec: { finalizers: ['kubernetes'] }, metadata: { labels: { 'kubernetes.io/metadata.name': name } } });
    }
  });

  test('creating in a missing namespace creates it first (not for dry runs)', async () => {
    expect((await call(s, 'GET', '/api/v1/namespaces/auto-a')).status).toBe(404);
    expect((await call(s, 'POST', '/api/v1/namespaces/auto-a/configmaps', cm('one'))).status).toBe(201);
    expect((await call(s, 'GET', '/api/v1/namespaces/auto-a')).json).toMatchObject({ kind: 'Namespace', status: { phase: 'Active' } });
    const dry = await call(s, 'POST', '/api/v1/namespaces/auto-dry/configmaps?dryRun=All', cm('one'));
    expect(dry.status).toBe(404);
    expect(dry.json).toMatchObject({ reason: 'NotFound', message: 'namespaces "auto-dry" not found', details: { name: 'auto-dry', kind: 'namespaces' } });
  });

  test('the system namespaces cannot be deleted', async () => {
    for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      const res = await call(s, 'DELETE', `/api/v1/namespaces/${name}`);
      expect(res.status).toBe(403);
      expect(res.json).toMatchObject({ reason: 'Forbidden', message: `namespaces "${name}" is forbidden: this namespace may not be deleted`, details: { name, kind: 'namespaces' } });
    }
  });

  test('no deletecollection, and /finalize takes only PUT', async () => {
    expect((await call(s, 'DELETE', '/api/v1/namespaces')).status).toBe(405);
    expect((await call(s, 'GET', '/api/v1/namespaces/default/finalize')).status).toBe(405);
    const discovery = await call(s, 'GET', '/api/v1');
    const verbs = (name: string) => discovery.json.resources.find((r: any) => r.name === name)?.verbs;
    expect(verbs('namespaces')).not.toContain('deletecollection');
    expect(verbs('namespaces/finalize')).toEqual(['update']);
    expect(verbs('namespaces/status')).toEqual(['get', 'patch', 'update']);
  });

  test('DELETE marks Terminating; the controller removes the content, then the namespace', async () => {
    const ns = 'doomed';
    expect((await call(s, 'POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
    expect((await call(s, 'POST', `/api/v1/namespaces/${ns}/configmaps`, cm('c1'))).status).toBe(201);
    expect((await call(s, 'POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'sa1' } })).status).toBe(201);
    expect((await call(s, 'POST', `/apis/coordination.svc.io/v1/namespaces/${ns}/leases`, { metadata: { name: 'l1' } })).status).toBe(201);
    const del = await call(s, 'DELETE', `/api/v1/namespaces/${ns}`);
    expect(del.status).toBe(200);
    expect(del.json).toMatchObject({ kind: 'Namespace', metadata: { name: ns }, status: { phase: 'Terminating' } });
    expect(del.json.metadata.deletionTimestamp).toBeDefined();
    expect(del.json.metadata.deletionGracePeriodSeconds).toBeUndefined();
    const gone = await eventually(s, `/api/v1/namespaces/${ns}`, (r) => r.status === 404);
    expect(gone.status).toBe(404);
    expect((await call(s, 'GET', `/api/v1/namespaces/${ns}/configmaps`)).json.items).toEqual([]);
    expect((await call(s, 'GET', `/api/v1/namespaces/${ns}/serviceaccounts`)).json.items).toEqual([]);
    expect((await call(s, 'GET', `/apis/coordination.svc.io/v1/namespaces/${ns}/leases`)).json.items).toEqual([]);
  });

  test('a Terminating namespace takes no new content; finalizers hold it, with upstream\'s conditions', async () => {
    const ns = 'held';
    expect((await call(s, 'POST', `/api/v1/namespaces/${ns}/configmaps`, cm('pinned', { finalizers: ['example.com/hold'] }))).status).toBe(201);
    expect((await call(s, 'DELETE', `/api/v1/namespaces/${ns}`)).status).toBe(200);
    const created = await call(s, 'POST', `/api/v1/namespaces/${ns}/configmaps`, cm('late'));
    expect(created.status).toBe(403);
    expect(created.json).toMatchObject({
      reason: 'Forbidden',
      message: `configmaps "late" is forbidden: unable to create new content in namespace ${ns} because it is being terminated`,
      details: { name: 'late', kind: 'configmaps', causes: [{ reason: 'NamespaceTerminating', message: `namespace ${ns} is being terminated`, field: 'metadata.namespace' }] },
    });
    // Updates of what is there still pass (the holder removes its finalizer that way).
    const reported = await eventually(s, `/api/v1/namespaces/${ns}`, (r) =>
      (r.json?.status?.conditions ?? []).some((c: any) => c.type === 'NamespaceFinalizersRemaining' && c.status === 'True'),
    );
    const conditions = Object.fromEntries(reported.json.status.conditions.map((c: any) => [c.type, c]));
    expect(conditions).toMatchObject({
      NamespaceDeletionDiscoveryFailure: { status: 'False', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
      NamespaceDeletionGroupVersionParsingFailure: { status: 'False', reason: 'ParsedGroupVersions' },
      NamespaceDeletionContentFailure: { status: 'False', reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
      NamespaceContentRemaining: { status: 'True', reason: 'SomeResourcesRemain', message: 'Some resources are remaining: configmaps. has 1 resource instances' },
      NamespaceFinalizersRemaining: { status: 'True', reason: 'SomeFinalizersRemain', message: 'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances' },
    });
    expect(reported.json.spec.finalizers).toEqual(['kubernetes']);
    // A second DELETE answers with the namespace as it is.
    const again = await call(s, 'DELETE', `/api/v1/namespaces/${ns}`);
    expect([again.status, again.json.status.phase]).toEqual([200, 'Terminating']);

    const pinned = await call(s, 'GET', `/api/v1/namespaces/${ns}/configmaps/pinned`);
    expect(pinned.json.metadata.deletionTimestamp).toBeDefined();
    const released = await call(s, 'PATCH', `/api/v1/namespaces/${ns}/configmaps/pinned`, { metadata: { finalizers: null } }, 'application/merge-patch+json');
    expect(released.status).toBe(200);
    expect((await eventually(s, `/api/v1/namespaces/${ns}`, (r) => r.status === 404)).status).toBe(404);
  }, 40_000);

  test('/status writes keep a Terminating namespace; emptying spec.finalizers through /finalize removes it', async () => {
    const ns = 'manual';
    // With the kubernetes finalizer gone before deletion, the controller has nothing to do: the finalizer below holds it.
    const created = await call(s, 'POST', '/api/v1/namespaces', { metadata: { name: ns }, spec: { finalizers: ['example.com/mine'] } });
    expect(created.json.spec.finalizers).toEqual(['example.com/mine', 'kubernetes']);
    const finalized = await call(s, 'PUT', `/api/v1/namespaces/${ns}/finalize`, { ...created.json, spec: { finalizers: ['example.com/mine'] } });
    expect([finalized.status, finalized.json.spec.finalizers, finalized.json.status.phase]).toEqual([200, ['example.com/mine'], 'Active']);
    expect((await call(s, 'DELETE', `/api/v1/namespaces/${ns}`)).status).toBe(200);
    const current = (await call(s, 'GET', `/api/v1/namespaces/${ns}`)).json;
    const status = await call(s, 'PUT', `/api/v1/namespaces/${ns}/status`, { ...current, status: { ...current.status, conditions: [{ type: 'Custom', status: 'True' }] } });
    expect(status.status).toBe(200);
    expect((await call(s, 'GET', `/api/v1/namespaces/${ns}`)).status).toBe(200);
    const bad = await call(s, 'PUT', `/api/v1/namespaces/${ns}/status`, { ...status.json, status: { phase: 'Active' } });
    expect(bad.status).toBe(422);
    expect(bad.json.details.causes).toEqual([{ reason: 'FieldValueInvalid', message: "Invalid value: \"Active\": may only be 'Terminating' if `deletionTimestamp` is not empty", field: 'status.Phase' }]);
    const done = await call(s, 'PUT', `/api/v1/namespaces/${ns}/finalize`, { ...status.json, spec: { finalizers: [] } });
    expect(done.status).toBe(200);
    expect((await call(s, 'GET', `/api/v1/namespaces/${ns}`)).status).toBe(404);
  });

  test('field selector status.phase; unknown fields are rejected as upstream\'s converter words it', async () => {
    const active = await call(s, 'GET', '/api/v1/namespaces?fieldSelector=status.phase%3DActive');
    expect(active.json.items.map((n: any) => n.metadata.name)).toContain('default');
    const bad = await call(s, 'GET', '/api/v1/namespaces?fieldSelector=spec.x%3Dy');
    expect([bad.status, bad.json.message]).toEqual([400, 'field label not supported: spec.x']);
  });
});

describe.each(backends)('NamespaceExists instead of auto-provisioning (%s)', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(backend, {}, { admissionPlugins: ['NamespaceLifecycle', 'NamespaceExists'] });
  });
  afterAll(async () => {
    await s.close();
  });

  test('a write into a missing namespace is a 404 and creates nothing', async () => {
    const res = await call(s, 'POST', '/api/v1/namespaces/nowhere/configmaps', cm('one'));
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ reason: 'NotFound', message: 'namespaces "nowhere" not found' });
    expect((await call(s, 'GET', '/api/v1/namespaces/nowhere')).status).toBe(404);
    expect((await call(s, 'POST', '/api/v1/namespaces', { metadata: { name: 'nowhere' } })).status).toBe(201);
    expect((await call(s, 'POST', '/api/v1/namespaces/nowhere/configmaps', cm('one'))).status).toBe(201);
  });
});

describe.each(backends)('objects stored before namespaces were served (%s)', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    const legacy = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'old', namespace: 'legacy', uid: 'u-old', creationTimestamp: '2025-01-01T00:00:00Z' }, data: { a: 'b' } };
    s = await startTestServer(backend, {}, { seed: async (storage) => void (await storage.create('/configmaps/legacy/old', encodeForStorage({}, legacy))) });
  });
  afterAll(async () => {
    await s.close();
  });

  test('get a namespace at start, so that NamespaceLifecycle lets them be updated', async () => {
    const ns = await call(s, 'GET', '/api/v1/namespaces/legacy');
    expect([ns.status, ns.json?.status?.phase]).toEqual([200, 'Active']);
    const patched = await call(s, 'PATCH', '/api/v1/namespaces/legacy/configmaps/old', { data: { a: 'c' } }, 'application/merge-patch+json');
    expect([patched.status, patched.json.data]).toEqual([200, { a: 'c' }]);
  });
});
