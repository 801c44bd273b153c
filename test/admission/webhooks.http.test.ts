/**
 * Admission webhooks end to end on both stores: a real HTTPS webhook server
 * started here (its own CA and serving certificate), the real
 * HttpsWebhookClient, and the two plugins in the server's default admission chain.
 * Configurations are written through the registry (the real kinds when the
 * server has them, else test-only definitions of the same group and plural);
 * each webhook selects its own objects by a `scenario` label.
 */
import type { KObject } from '../../src/machinery/object';
import type { ResourceDefinition } from '../../src/machinery/resource-definition';
import { backends, startTestServer, type TestServer } from '../support/test-server';
import { until } from '../support/until';
import { webhookConfigurationKinds } from '../support/webhook-configuration-kinds';
import { answer, closedPort, hang, startWebhookServer, type WebhookServer } from '../support/webhook-server';
import { selfSignedCa } from '../../src/adapters/pki';

const admin = { user: { username: 'system:admin', groups: ['system:masters', 'system:authenticated'] }, dryRun: false, fieldValidation: 'Ignore' as const, warnings: [], fieldManager: 'test' };
const addLabel = [{ op: 'add', path: '/metadata/labels/added-by-webhook', value: 'yes' }];

const selecting = (scenario: string) => ({ matchLabels: { scenario } });
const rule = { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] };

function webhook(name: string, url: string, caBundle: string, scenario: string, extra: Record<string, unknown> = {}) {
  return { name: `${name}.hooks.test`, clientConfig: { url, caBundle }, rules: [rule], objectSelector: selecting(scenario), sideEffects: 'None', admissionReviewVersions: ['v1'], ...extra };
}

async function call(s: TestServer, method: string, path: string, body?: unknown) {
  const res = await fetch(s.url + path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined, warning: res.headers.get('warning') };
}

const configMap = (name: string, scenario: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { scenario } }, data: { a: 'b' } });

describe.each(backends)('admission webhooks over HTTPS (%s)', (backend) => {
  let s: TestServer;
  let hooks: WebhookServer;

  beforeAll(async () => {
    hooks = await startWebhookServer({
      '/add-label': (r) => answer(r, { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(addLabel)).toString('base64'), warnings: ['a label was added'] }),
      '/reject': (r) => answer(r, { allowed: false, status: { code: 403, reason: 'Forbidden', message: 'configmaps labelled reject are not allowed here' } }),
      '/slow': () => hang,
    });
    s = await startTestServer(backend);
    const kinds = webhookConfigurationKinds(s.registry.served);
    const down = `https://127.0.0.1:${await closedPort()}/down`;
    const otherCa = Buffer.from((await selfSignedCa('not-the-webhooks-ca', new Date())).certPem).toString('base64');
    await create(kinds.mutating, 'mutating', [webhook('add-label', hooks.url('/add-label'), hooks.caBundle, 'mutate')]);
    await create(kinds.validating, 'validating', [
      webhook('reject', hooks.url('/reject'), hooks.caBundle, 'reject'),
      webhook('down-ignored', down, hooks.caBundle, 'down', { failurePolicy: 'Ignore' }),
      webhook('down', down, hooks.caBundle, 'down-fail'),
      webhook('slow', hooks.url('/slow'), hooks.caBundle, 'slow', { timeoutSeconds: 1 }),
      webhook('untrusted', hooks.url('/reject'), otherCa, 'untrusted'),
    ]);
    // Admission reads them from the watch cache: wait until it has both.
    for (const def of [kinds.mutating, kinds.validating]) {
      await until(`${def.plural} in the watch cache`, async () => (await s.registry.list(def, { resourceVersion: '0' })).items.length === 1);
    }
  });

  async function create(def: ResourceDefinition, name: string, webhooks: unknown[]) {
    await s.registry.create(def, undefined, { metadata: { name }, webhooks } as KObject, { ...admin, warnings: [] });
  }

  afterAll(async () => {
    await s?.close();
    await hooks?.close();
  });

  test('a mutating webhook adds a label, and its warning reaches the client', async () => {
    const res = await call(s, 'POST', '/api/v1/namespaces/default/configmaps', configMap('mutated', 'mutate'));
    expect(res.status).toBe(201);
    expect(res.json.metadata.labels).toEqual({ scenario: 'mutate', 'added-by-webhook': 'yes' });
    expect(res.warning).toBe('299 - "a label was added"');
    expect((await call(s, 'GET', '/api/v1/namespaces/default/configmaps/mutated')).json.metadata.labels).toEqual({ scenario: 'mutate', 'added-by-webhook': 'yes' });
    const { review } = hooks.reviews.find((r) => r.review.request.name === 'mutated')!;
    expect(review).toMatchObject({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' });
    expect(review.request).toMatchObject({
      kind: { group: '', version: 'v1', kind: 'ConfigMap' },
      resource: { group: '', version: 'v1', resource: 'configmaps' },
      namespace: 'default',
      operation: 'CREATE',
      dryRun: false,
      object: { metadata: { name: 'mutated', labels: { scenario: 'mutate' } }, data: { a: 'b' } },
      oldObject: null,
      options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
    });
  });

  test('a dry run reaches the webhook (sideEffects None), which is told so, and stores nothing', async () => {
    const res = await call(s, 'POST', '/api/v1/namespaces/default/configmaps?dryRun=All', configMap('dry', 'mutate'));
    expect(res.status).toBe(201);
    expect(res.json.metadata.labels['added-by-webhook']).toBe('yes');
    expect(hooks.reviews.find((r) => r.review.request.name === 'dry')!.review.request.dryRun).toBe(true);
    expect((await call(s, 'GET', '/api/v1/namespaces/default/configmaps/dry')).status).toBe(404);
  });

  test("a validating webhook rejects, and the client sees its status as upstream shows it", async () => {
    const res = await call(s, 'POST', '/api/v1/namespaces/default/configmaps', configMap('rejected', 'reject'));
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      message: 'admission webhook "reject.hooks.test" denied the request: configmaps labelled reject are not allowed here',
    });
    expect((await call(s, 'GET', '/api/v1/namespaces/default/configmaps/rejected')).status).toBe(404);
  });

  test('failurePolicy Ignore lets the write through with the webhook down; Fail refuses it', async () => {
    expect((await call(s, 'POST', '/api/v1/namespaces/default/configmaps', configMap('ignored', 'down'))).status).toBe(201);
    const res = await call(s, 'POST', '/api/v1/namespaces/default/configmaps', configMap('failed', 'down-fail'));
    expect(res.status).toBe(500);
    expect(res.json.reason).toBe('InternalError');
    expect(res.json.message).toMatch(/^Internal error occurred: failed calling webhook "down\.hooks\.test": failed to call webhook: Post "https:\/\/127\.0\.0\.1:\d+\/down\?timeout=10s": dial tcp 127\.0\.0\.1:\d+: connect: connection refused$/);
  });

  test('a slow webhook hits its timeoutSeconds', async () => {
    const started = Date.now();
    const res = await call(s, 'POST', '/api/v1/namespaces/default/configmaps', configMap('too-slow', 'slow'));
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(res.status).toBe(500);
    expect(res.json.message).toBe(`Internal error occurred: failed calling webhook "slow.hooks.test": failed to call webhook: Post "${hooks.url('/slow')}?timeout=1s": context deadline exceeded`);
    expect(hooks.reviews.some((r) => r.review.request.name === 'too-slow')).toBe(true);
  });

  test("a webhook whose certificate does not chain to the caBundle is not called", async () => {
    const res = await call(s, 'POST', '/api/v1/namespaces/default/configmaps', configMap('untrusted', 'untrusted'));
    expect(res.status).toBe(500);
    expect(res.json.message).toContain('failed calling webhook "untrusted.hooks.test": failed to call webhook: Post "');
    expect(res.json.message).toContain('tls: failed to verify certificate: x509: certificate signed by unknown authority');
    expect(hooks.reviews.some((r) => r.review.request.name === 'untrusted')).toBe(false);
  });
});
