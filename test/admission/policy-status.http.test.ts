/**
 * The ValidatingAdmissionPolicy status controller in an assembled server, on both stores:
 * a policy whose expression names a field ConfigMaps do not have gets a type-checking
 * warning and its observedGeneration; fixing the expression clears the warning.
 */
import { backends, startTestServer, type TestServer } from '../support/test-server';
import { until } from '../support/until';

const policies = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies';

async function call(s: TestServer, method: string, path: string, body?: unknown, contentType = 'application/json') {
  const res = await fetch(s.url + path, { method, headers: { 'content-type': contentType }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as { status?: Record<string, never> } & Record<string, unknown> };
}

const spec = (expression: string) => ({
  matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], operations: ['CREATE'] }] },
  validations: [{ expression: 'object.metadata.name.size() < 64' }, { expression }],
});

describe.each(backends)('ValidatingAdmissionPolicy status (%s)', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(backend);
  });
  afterAll(async () => {
    await s.close();
  });

  async function statusAt(generation: number) {
    let status: { observedGeneration?: number; typeChecking?: { expressionWarnings?: Array<{ fieldRef: string; warning: string }> } } = {};
    await until(`status.observedGeneration ${generation}`, async () => {
      status = (await call(s, 'GET', `${policies}/typed`)).json.status ?? {};
      return status.observedGeneration === generation;
    });
    return status;
  }

  test('a field the matched kind lacks is a warning until the expression is fixed', async () => {
    const created = await call(s, 'POST', policies, { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'typed' }, spec: spec('object.spec.replicas > 1') });
    expect(created.status).toBe(201);
    const first = await statusAt(1);
    expect(first.typeChecking?.expressionWarnings).toEqual([
      { fieldRef: 'spec.validations[1].expression', warning: expect.stringContaining("/v1, Kind=ConfigMap: ERROR: <input>:1:7: undefined field 'spec'") },
    ]);
    const fixed = await call(s, 'PATCH', `${policies}/typed`, { spec: { validations: spec("object.data.a == 'b'").validations } }, 'application/merge-patch+json');
    expect(fixed.status).toBe(200);
    const second = await statusAt(2);
    expect(second.typeChecking?.expressionWarnings ?? []).toEqual([]);
  });
});
