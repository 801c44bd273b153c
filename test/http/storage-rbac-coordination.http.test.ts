/** CSIDriver, CSIStorageCapacity, Role, Lease and ServiceAccount behaviour over HTTP that the generic tester does not cover. */
import { backends, startTestServer, TestServer } from '../support/test-server';

const ns = 'default';
const drivers = '/apis/storage.svc.io/v1/csidrivers';
const capacities = `/apis/storage.svc.io/v1/namespaces/${ns}/csistoragecapacities`;
const roles = `/apis/rbac.authorization.svc.io/v1/namespaces/${ns}/roles`;
const leases = `/apis/coordination.svc.io/v1/namespaces/${ns}/leases`;
const accounts = `/api/v1/namespaces/${ns}/serviceaccounts`;

async function call(s: TestServer, method: string, path: string, body?: unknown, contentType = 'application/json', accept?: string) {
  const res = await fetch(s.url + path, {
    method,
    headers: { 'content-type': contentType, ...(accept ? { accept } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

describe.each(backends)('storage, rbac, coordination kinds over HTTP (%s)', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(backend);
  });
  afterAll(async () => {
    await s.close();
  });

  test('CSIDriver: defaults, generation 1, bumped on spec change only, immutable attachRequired', async () => {
    const created = await call(s, 'POST', drivers, { metadata: { name: 'Driver.Example.com' } });
    expect(created.status).toBe(201);
    expect(created.json.metadata.generation).toBe(1);
    expect(created.json.spec).toEqual({
      attachRequired: true,
      podInfoOnMount: false,
      volumeLifecycleModes: ['Persistent'],
      storageCapacity: false,
      fsGroupPolicy: 'ReadWriteOnceWithFSType',
      requiresRepublish: false,
      seLinuxMount: false,
      preventPodSchedulingIfMissing: false,
    });
    const item = `${drivers}/Driver.Example.com`;
    const labelled = await call(s, 'PATCH', item, { metadata: { labels: { a: 'b' } } }, 'application/merge-patch+json');
    expect(labelled.json.metadata.generation).toBe(1);
    const changed = await call(s, 'PATCH', item, { spec: { podInfoOnMount: true } }, 'application/merge-patch+json');
    expect(changed.json.metadata.generation).toBe(2);
    const immutable = await call(s, 'PATCH', item, { spec: { attachRequired: false } }, 'application/merge-patch+json');
    expect(immutable.status).toBe(422);
    expect(immutable.json.details.causes).toEqual([
      { reason: 'FieldValueInvalid', message: 'Invalid value: false: field is immutable', field: 'spec.attachedRequired' },
    ]);
    const noRv = { ...changed.json, metadata: { ...changed.json.metadata, resourceVersion: undefined } };
    expect((await call(s, 'PUT', item, noRv)).status).toBe(422);
    const table = await call(s, 'GET', drivers, undefined, 'application/json', 'application/json;as=Table;g=meta.k8s.io;v=v1');
    expect(table.json.rows[0].cells.slice(0, 7)).toEqual(['Driver.Example.com', true, true, false, '<unset>', false, 'Persistent']);
  });

  test('CSIStorageCapacity: canonical quantities, 400 on a bad quantity, immutable storageClassName', async () => {
    const created = await call(s, 'POST', capacities, { metadata: { generateName: 'csisc-' }, storageClassName: 'fast', capacity: '1.5Gi', maximumVolumeSize: 1000 });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ capacity: '1536Mi', maximumVolumeSize: '1k' });
    expect(created.json.metadata.name).toMatch(/^csisc-[a-z0-9]{5}$/);
    const bad = await call(s, 'POST', capacities, { metadata: { name: 'bad' }, storageClassName: 'fast', capacity: 'lots' });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/^CSIStorageCapacity in version "v1" cannot be handled as a CSIStorageCapacity: quantities must match/);
    const item = `${capacities}/${created.json.metadata.name}`;
    const moved = await call(s, 'PUT', item, { ...created.json, storageClassName: 'slow' });
    expect(moved.status).toBe(422);
    expect(moved.json.details.causes[0]).toMatchObject({ field: 'storageClassName', message: 'Invalid value: "slow": field is immutable' });
  });

  test('Role: PUT creates, unconditional update, rules null when absent', async () => {
    const put = await call(s, 'PUT', `${roles}/empty`, { metadata: { name: 'empty' } });
    expect(put.status).toBe(201);
    expect(put.json.rules).toBeNull();
    const again = await call(s, 'PUT', `${roles}/empty`, { metadata: { name: 'empty' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] });
    expect(again.status).toBe(200);
    expect(again.json.rules).toHaveLength(1);
    const bad = await call(s, 'POST', roles, { metadata: { name: 'bad' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }] });
    expect(bad.status).toBe(422);
    expect(bad.json.message).toBe(
      'Role.rbac.authorization.svc.io "bad" is invalid: rules[0].nonResourceURLs: Invalid value: []string{"/metrics"}: namespaced rules cannot apply to non-resource URLs',
    );
  });

  test('Lease: PUT creates, microseconds kept, bad times are 400, updates need a resourceVersion', async () => {
    const put = await call(s, 'PUT', `${leases}/holder`, { metadata: { name: 'holder' }, spec: { holderIdentity: 'a', renewTime: '2026-01-02T03:04:05.123456Z', acquireTime: '2026-01-02T03:04:05Z' } });
    expect(put.status).toBe(201);
    expect(put.json.spec).toMatchObject({ renewTime: '2026-01-02T03:04:05.123456Z', acquireTime: '2026-01-02T03:04:05.000000Z' });
    const noRv = await call(s, 'PUT', `${leases}/holder`, { metadata: { name: 'holder' }, spec: { holderIdentity: 'b' } });
    expect(noRv.status).toBe(422);
    expect(noRv.json.details.causes[0]).toMatchObject({ field: 'metadata.resourceVersion' });
    const bad = await call(s, 'PATCH', `${leases}/holder`, { spec: { renewTime: 'now' } }, 'application/merge-patch+json');
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe(
      'Lease in version "v1" cannot be handled as a Lease: parsing time "now" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "now" as "2006"',
    );
    const gated = await call(s, 'PATCH', `${leases}/holder`, { spec: { strategy: 'OldestEmulationVersion', preferredHolder: 'x' } }, 'application/merge-patch+json');
    expect(gated.status).toBe(200);
    expect(gated.json.spec.strategy).toBeUndefined();
  });

  test('ServiceAccount: secret references trimmed, merged by name, DELETE returns the object', async () => {
    const created = await call(s, 'POST', accounts, { metadata: { name: 'builder' }, secrets: [{ name: 'one', namespace: ns, uid: 'x' }] });
    expect(created.status).toBe(201);
    expect(created.json.secrets).toEqual([{ name: 'one' }]);
    const merged = await call(s, 'PATCH', `${accounts}/builder`, { secrets: [{ name: 'two' }] }, 'application/strategic-merge-patch+json');
    expect(merged.status).toBe(200);
    expect(merged.json.secrets.map((r: { name: string }) => r.name).sort()).toEqual(['one', 'two']);
    const deleted = await call(s, 'DELETE', `${accounts}/builder`);
    expect(deleted.status).toBe(200);
    expect(deleted.json).toMatchObject({ kind: 'ServiceAccount', metadata: { name: 'builder' } });
  });
});
