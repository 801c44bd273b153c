/**
 * The ValidatingAdmissionPolicy plugin in an assembled server, over HTTP, on both stores:
 * a policy denying ConfigMaps with a forbidden label (upstream's message), a Warn policy
 * (the `Warning` header) and a param-driven policy reading a ConfigMap, all stored
 * through the served admissionregistration kinds.
 */
import { backends, startTestServer, type TestServer } from '../support/test-server';
import { binding, configMapRules, policy } from '../support/policy-objects';
import { until } from '../support/until';

const kinds = '/apis/admissionregistration.svc.io/v1';
const configMaps = '/api/v1/namespaces/default/configmaps';

async function call(s: TestServer, method: string, path: string, body?: unknown, contentType = 'application/json') {
  const res = await fetch(s.url + path, { method, headers: { 'content-type': contentType }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, warning: res.headers.get('warning'), json: text ? JSON.parse(text) : undefined };
}

const cm = (name: string, labels: Record<string, string> = {}, data: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data });

/** Stores policy and binding, then waits until a dry-run create shows the plugin sees them. */
async function install(s: TestServer, p: object, b: object, probe: () => Promise<boolean>) {
  expect((await call(s, 'POST', `${kinds}/validatingadmissionpolicies`, p)).status).toBe(201);
  expect((await call(s, 'POST', `${kinds}/validatingadmissionpolicybindings`, b)).status).toBe(201);
  await until('the policy to be in force', probe);
}

describe.each(backends)('ValidatingAdmissionPolicy over HTTP (%s)', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(backend);
  });
  afterAll(async () => {
    await s.close();
  });

  test('a policy denies ConfigMaps with a forbidden label, on create, update, patch and dry run', async () => {
    const expression = "!has(object.metadata.labels) || !('forbidden' in object.metadata.labels)";
    const dryRunDenied = async () => (await call(s, 'POST', `${configMaps}?dryRun=All`, cm('probe', { forbidden: 'yes' }))).status === 422;
    await install(
      s,
      policy('no-forbidden-label', { failurePolicy: 'Fail', matchConstraints: configMapRules(), validations: [{ expression, message: 'the forbidden label is not allowed' }] }),
      binding('no-forbidden-label-binding', { policyName: 'no-forbidden-label', validationActions: ['Deny'] }),
      dryRunDenied,
    );
    const message = "ValidatingAdmissionPolicy 'no-forbidden-label' with binding 'no-forbidden-label-binding' denied request: the forbidden label is not allowed";
    const denied = await call(s, 'POST', configMaps, cm('bad', { forbidden: 'yes' }));
    expect(denied).toMatchObject({
      status: 422,
      json: { kind: 'Status', status: 'Failure', reason: 'Invalid', code: 422, message: `configmaps "bad" is forbidden: ${message}`, details: { name: 'bad', kind: 'configmaps', causes: [{ message }] } },
    });
    expect((await call(s, 'GET', `${configMaps}/bad`)).status).toBe(404);

    expect((await call(s, 'POST', configMaps, cm('good', { fine: 'yes' }))).status).toBe(201);
    const patched = await call(s, 'PATCH', `${configMaps}/good`, { metadata: { labels: { forbidden: 'now' } } }, 'application/merge-patch+json');
    expect(patched).toMatchObject({ status: 422, json: { message: `configmaps "good" is forbidden: ${message}` } });
    const current = (await call(s, 'GET', `${configMaps}/good`)).json;
    expect(current.metadata.labels).toEqual({ fine: 'yes' });
    const replaced = await call(s, 'PUT', `${configMaps}/good`, { ...current, metadata: { ...current.metadata, labels: { forbidden: 'x' } } });
    expect(replaced.status).toBe(422);
    // Deleting is not an operation the policy names.
    expect((await call(s, 'DELETE', `${configMaps}/good`)).status).toBe(200);
  });

  test('a Warn binding admits and answers with a Warning header', async () => {
    const warned = async () => !!(await call(s, 'POST', `${configMaps}?dryRun=All`, cm('probe', {}, { big: 'x'.repeat(20) }))).warning;
    await install(
      s,
      policy('small-values', { matchConstraints: configMapRules(), validations: [{ expression: 'object.data.all(k, size(object.data[k]) <= 10)', messageExpression: "'values of ' + object.metadata.name + ' must be short'" }] }),
      binding('small-values-warn', { policyName: 'small-values', validationActions: ['Warn'] }),
      warned,
    );
    const created = await call(s, 'POST', configMaps, cm('long', {}, { big: 'x'.repeat(20) }));
    expect(created.status).toBe(201);
    expect(created.warning).toBe(`299 - "Validation failed for ValidatingAdmissionPolicy 'small-values' with binding 'small-values-warn': values of long must be short"`);
    expect((await call(s, 'POST', configMaps, cm('short', {}, { small: 'x' }))).warning).toBeNull();
  });

  test('a param-driven policy reads its limit from a ConfigMap, and follows it when it changes', async () => {
    expect((await call(s, 'POST', configMaps, cm('key-limit', {}, { maxKeys: '2' }))).status).toBe(201);
    const threeKeys = cm('three', {}, { a: '1', b: '2', c: '3' });
    await install(
      s,
      policy('max-keys', {
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        matchConstraints: { ...configMapRules(), objectSelector: { matchLabels: { limited: 'true' } } },
        validations: [{ expression: 'size(object.data) <= int(params.data.maxKeys)', messageExpression: "'at most ' + params.data.maxKeys + ' keys'", reason: 'Forbidden' }],
      }),
      binding('max-keys-binding', { policyName: 'max-keys', validationActions: ['Deny'], paramRef: { name: 'key-limit', parameterNotFoundAction: 'Deny' } }),
      async () => (await call(s, 'POST', `${configMaps}?dryRun=All`, { ...threeKeys, metadata: { name: 'p', labels: { limited: 'true' } } })).status === 403,
    );
    const limited = { ...threeKeys, metadata: { name: 'limited', labels: { limited: 'true' } } };
    expect(await call(s, 'POST', configMaps, limited)).toMatchObject({
      status: 403,
      json: { reason: 'Forbidden', message: `configmaps "limited" is forbidden: ValidatingAdmissionPolicy 'max-keys' with binding 'max-keys-binding' denied request: at most 2 keys` },
    });
    // Unlabelled ConfigMaps (the param itself among them) are not the policy's business.
    expect((await call(s, 'POST', configMaps, threeKeys)).status).toBe(201);
    const raised = await call(s, 'PATCH', `${configMaps}/key-limit`, { data: { maxKeys: '3' } }, 'application/merge-patch+json');
    expect(raised.status).toBe(200);
    let last: unknown;
    await until('the raised limit to admit three keys', async () => {
      const r = await call(s, 'POST', `${configMaps}?dryRun=All`, limited);
      last = r.json;
      return r.status === 201;
    }, { onTimeout: () => JSON.stringify(last) });
    expect((await call(s, 'POST', configMaps, limited)).status).toBe(201);
  });
});
