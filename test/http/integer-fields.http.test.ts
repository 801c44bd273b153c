/**
 * Integer fields hold what their Go type holds: out of range or not an
 * integer is upstream's 400 decode error, int64 beyond 2^53 is refused rather
 * than rounded, and nothing is stored.
 */
import { backends, startTestServer, TestServer } from '../support/test-server';

const leases = '/apis/coordination.svc.io/v1/namespaces/default/leases';
const pdbs = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
const drivers = '/apis/storage.svc.io/v1/csidrivers';

async function send(s: TestServer, method: string, path: string, raw?: string, contentType = 'application/json') {
  const res = await fetch(s.url + path, { method, headers: { 'content-type': contentType }, body: raw });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

const lease = (name: string, duration: string) => `{"metadata":{"name":"${name}"},"spec":{"holderIdentity":"a","leaseDurationSeconds":${duration}}}`;

describe.each(backends)('integer fields (%s)', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(backend);
  });
  afterAll(() => s.close());

  test.each([
    ['2147483648', 'json: cannot unmarshal number 2147483648 into Go struct field LeaseSpec.spec.leaseDurationSeconds of type int32'],
    ['-2147483649', 'json: cannot unmarshal number -2147483649 into Go struct field LeaseSpec.spec.leaseDurationSeconds of type int32'],
    ['1e300', 'json: cannot unmarshal number 1e+300 into Go struct field LeaseSpec.spec.leaseDurationSeconds of type int32'],
    ['1.5', 'json: cannot unmarshal number 1.5 into Go struct field LeaseSpec.spec.leaseDurationSeconds of type int32'],
  ])('Lease leaseDurationSeconds %s is a 400 and is not stored', async (value, message) => {
    const name = `l${value.replace(/[^0-9a-z]/g, 'x')}`;
    const res = await send(s, 'POST', leases, lease(name, value));
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400, message: `Lease in version "v1" cannot be handled as a Lease: ${message}` });
    expect((await send(s, 'GET', `${leases}/${name}`)).status).toBe(404);
  });

  test('the int32 limits themselves are stored', async () => {
    const res = await send(s, 'POST', leases, lease('max', '2147483647'));
    expect(res.status).toBe(201);
    expect(res.json.spec.leaseDurationSeconds).toBe(2147483647);
  });

  // Patches: upstream's 422 on the field `patch` carrying the decode error; apply answers the decode error itself.
  test('a patch cannot put an out-of-range number in; the object stays as it was', async () => {
    const created = await send(s, 'POST', leases, lease('patched', '15'));
    expect(created.status).toBe(201);
    for (const [type, body, code] of [
      ['application/merge-patch+json', '{"spec":{"leaseTransitions":4294967296}}', 422],
      ['application/json-patch+json', '[{"op":"add","path":"/spec/leaseTransitions","value":4294967296}]', 422],
      ['application/strategic-merge-patch+json', '{"spec":{"leaseTransitions":4294967296}}', 422],
      ['application/apply-patch+yaml', 'apiVersion: coordination.svc.io/v1\nkind: Lease\nmetadata:\n  name: patched\nspec:\n  leaseTransitions: 4294967296\n', 400],
    ] as const) {
      const path = `${leases}/patched${type.includes('apply') ? '?fieldManager=t' : ''}`;
      const res = await send(s, 'PATCH', path, body, type);
      expect([type, res.status]).toEqual([type, code]);
      expect(res.json.message).toContain('cannot unmarshal number 4294967296 into Go struct field LeaseSpec.spec.leaseTransitions of type int32');
    }
    const now = await send(s, 'GET', `${leases}/patched`);
    expect(now.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
    expect(now.json.spec.leaseTransitions).toBeUndefined();
  });

  test('PDB minAvailable (IntOrString) is an int32', async () => {
    const res = await send(s, 'POST', pdbs, '{"metadata":{"name":"huge"},"spec":{"minAvailable":1099511627776}}');
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(
      'PodDisruptionBudget in version "v1" cannot be handled as a PodDisruptionBudget: json: cannot unmarshal number 1099511627776 into Go struct field PdbSpec.spec.minAvailable of type int32',
    );
    expect((await send(s, 'GET', `${pdbs}/huge`)).status).toBe(404);
  });

  test('int64 beyond 2^53 is refused, not rounded; within it is kept exactly', async () => {
    const tooBig = await send(s, 'POST', drivers, '{"metadata":{"name":"big.example.com"},"spec":{"tokenRequests":[{"audience":"a","expirationSeconds":9007199254740993}]}}');
    expect(tooBig.status).toBe(400);
    expect(tooBig.json.message).toMatch(/^CSIDriver in version "v1" cannot be handled as a CSIDriver: json: cannot unmarshal number beyond 2\^53 into Go struct field CsiDriverTokenRequest\.spec\.tokenRequests\[0\]\.expirationSeconds of type int64/);
    expect((await send(s, 'GET', `${drivers}/big.example.com`)).status).toBe(404);
    const ok = await send(s, 'POST', drivers, '{"metadata":{"name":"ok.example.com"},"spec":{"nodeAllocatableUpdatePeriodSeconds":9007199254740991}}');
    expect(ok.status).toBe(201);
    expect(ok.json.spec.nodeAllocatableUpdatePeriodSeconds).toBe(9007199254740991);
  });

  test('metadata.generation is an int64 too', async () => {
    const res = await send(s, 'POST', leases, '{"metadata":{"name":"gen","generation":1e19},"spec":{}}');
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('Lease in version "v1" cannot be handled as a Lease: json: cannot unmarshal number 10000000000000000000 into Go struct field ObjectMeta.metadata.generation of type int64');
  });
});
