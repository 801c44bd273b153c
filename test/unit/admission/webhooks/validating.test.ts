/**
 * ValidatingAdmissionWebhook with a fake WebhookPort: webhooks called at
 * once, the first error back refusing the request, failure policies, the
 * answer's checks, AdmissionReview versions and the request's deadline.
 */
import { admissionWebhookPlugins, ValidatingAdmissionWebhook } from '../../../../src/admission/webhooks';
import type { WebhookJson } from '../../../../src/admission/webhooks/configuration';
import { configMapDefinition } from '../../../../src/resources/config-map';
import type { AdmissionAttributes } from '../../../../src/registry/admission-chain';
import { allow, attributes, configMap, configuration, deny, envOf, FakeRegistry, FakeWebhooks, hook, type Posted } from './fakes';

function setup(hooks: WebhookJson[], handlers: Record<string, (review: Posted['review']) => unknown>) {
  const registry = new FakeRegistry();
  registry.put('validating', configuration('config', hooks));
  const port = new FakeWebhooks();
  for (const [path, h] of Object.entries(handlers)) port.on(`https://hooks.test${path}`, h);
  return { registry, port, plugin: new ValidatingAdmissionWebhook(envOf(registry), port) };
}

const createCm = (extra: Partial<AdmissionAttributes> = {}) => attributes(configMapDefinition, 'CREATE', { object: configMap('cm', { a: 'b' }) }, extra);

/** Resolves once `n` calls are waiting; fails a call that waits more than 5 s for the others. */
function barrier(n: number) {
  const waiting: Array<() => void> = [];
  return (answer: () => unknown) =>
    new Promise((resolve, reject) => {
      waiting.push(() => resolve(answer()));
      if (waiting.length === n) waiting.forEach((go) => go());
      else setTimeout(() => reject(new Error('the other webhooks were not called meanwhile')), 5000).unref();
    });
}

it('calls the matching webhooks at once, and allows when all allow', async () => {
  const together = barrier(2);
  const { plugin, port } = setup([hook('a'), hook('b')], { '/a': (r) => together(() => allow(r)), '/b': (r) => together(() => allow(r)) });
  await plugin.validate(createCm());
  expect(port.paths().sort()).toEqual(['/a', '/b']);
});

it('refuses with the first error to come back', async () => {
  let releaseSlow!: () => void;
  const slowMayAnswer = new Promise<void>((resolve) => (releaseSlow = resolve));
  const { plugin } = setup([hook('slow'), hook('fast')], {
    '/slow': async (r) => {
      await slowMayAnswer;
      return deny(r, { message: 'slow says no' });
    },
    '/fast': (r) => {
      setImmediate(releaseSlow);
      return deny(r, { message: 'fast says no', code: 403 });
    },
  });
  await expect(plugin.validate(createCm())).rejects.toMatchObject({ status: { code: 403, message: 'admission webhook "fast.hooks.test" denied the request: fast says no' } });
});

it('fails closed under Fail and open under Ignore, noting the webhook by its place among those called', async () => {
  const closed = setup([hook('up'), hook('down')], { '/up': (r) => allow(r) });
  await expect(closed.plugin.validate(createCm())).rejects.toMatchObject({
    status: { code: 500, message: 'Internal error occurred: failed calling webhook "down.hooks.test": failed to call webhook: Post "https://hooks.test/down?timeout=10s": dial tcp hooks.test: connect: connection refused' },
  });
  const other = hook('other', { rules: [{ operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] });
  const open = setup([other, hook('up'), hook('down', { failurePolicy: 'Ignore' })], { '/up': (r) => allow(r) });
  const a = createCm();
  await open.plugin.validate(a);
  expect(a.options.auditAnnotations).toEqual({ 'failed-open.validating.webhook.admission.k8s.io/round_0_index_1': 'down.hooks.test' });
});

describe('answers', () => {
  const refusal = async (answer: (r: Posted['review']) => unknown) => {
    const { plugin } = setup([hook('x')], { '/x': answer });
    const err = await (async () => plugin.validate(createCm()))().catch((e) => e);
    return err?.status?.message;
  };
  const prefix = 'Internal error occurred: failed calling webhook "x.hooks.test": received invalid webhook response: ';

  it("must carry the request's uid and be a v1 AdmissionReview", async () => {
    expect(await refusal((r) => ({ ...(allow(r) as object), response: { uid: 'other', allowed: true } }))).toBe(`${prefix}expected response.uid="${'uid-1'}", got "other"`);
    expect(await refusal((r) => ({ response: { uid: r.request.uid, allowed: true } }))).toBe(`${prefix}expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got /, Kind=`);
    expect(await refusal(() => ({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }))).toBe(`${prefix}webhook response was absent`);
  });

  it('may not carry a patch from a validating webhook', async () => {
    expect(await refusal((r) => allow(r, { patch: Buffer.from('[]').toString('base64') }))).toBe(`${prefix}validating webhook may not return response.patch`);
    expect(await refusal((r) => allow(r, { patchType: 'JSONPatch' }))).toBe(`${prefix}validating webhook may not return response.patchType`);
  });

  it('that do not decode are call failures', async () => {
    expect(await refusal((r) => allow(r, { allowed: 'yes' }))).toBe(
      'Internal error occurred: failed calling webhook "x.hooks.test": failed to call webhook: json: cannot unmarshal string into Go struct field AdmissionResponse.response.allowed of type bool',
    );
  });
});

it('speaks v1beta1 to a webhook that only takes it, without checking its uid or kind', async () => {
  const { plugin, port } = setup([hook('old', { admissionReviewVersions: ['v1beta1'] })], { '/old': () => ({ response: { allowed: true } }) });
  await plugin.validate(createCm());
  expect(port.posted[0].review.apiVersion).toBe('admission.k8s.io/v1beta1');
  const none = setup([hook('future', { admissionReviewVersions: ['v2'] })], {});
  await expect(none.plugin.validate(createCm())).rejects.toMatchObject({
    status: { message: 'Internal error occurred: failed calling webhook "future.hooks.test": could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)' },
  });
});

it('sends the request as upstream builds it', async () => {
  const { plugin, port } = setup([hook('x')], { '/x': (r) => allow(r) });
  await plugin.validate(createCm());
  const review = port.posted[0].review;
  expect(review.apiVersion).toBe('admission.k8s.io/v1');
  expect(review.kind).toBe('AdmissionReview');
  expect(review.request).toEqual({
    uid: 'uid-1',
    kind: { group: '', version: 'v1', kind: 'ConfigMap' },
    resource: { group: '', version: 'v1', resource: 'configmaps' },
    requestKind: { group: '', version: 'v1', kind: 'ConfigMap' },
    requestResource: { group: '', version: 'v1', resource: 'configmaps' },
    name: 'cm',
    namespace: 'default',
    operation: 'CREATE',
    userInfo: { username: 'alice', groups: ['dev', 'system:authenticated'] },
    object: configMap('cm', { a: 'b' }),
    oldObject: null,
    dryRun: false,
    options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'kubectl', fieldValidation: 'Strict' },
  });
  expect(Object.keys(review.request)).toEqual(['uid', 'kind', 'resource', 'requestKind', 'requestResource', 'name', 'namespace', 'operation', 'userInfo', 'object', 'oldObject', 'dryRun', 'options']);
});

it('shares the request deadline with the mutating phase, and refuses without calling once it passed', async () => {
  const registry = new FakeRegistry();
  registry.put('mutating', configuration('m', [hook('m')]));
  registry.put('validating', configuration('v', [hook('v')]));
  const port = new FakeWebhooks()
    .on('https://hooks.test/m', (r) => {
      registry.nowMs += 2_000;
      return allow(r);
    })
    .on('https://hooks.test/v', (r) => allow(r));
  const { mutating, validating } = admissionWebhookPlugins(envOf(registry), port, { requestTimeoutMs: 7_000 });
  const a = createCm();
  await mutating.admit(a);
  await validating.validate(a);
  expect(port.posted.map((p) => p.timeoutMs)).toEqual([7_000, 5_000]);
  registry.nowMs += 5_000;
  await expect(validating.validate(a)).rejects.toMatchObject({ status: { code: 504, message: 'Timeout: request did not complete within requested timeout' } });
  expect(port.posted).toHaveLength(2);
});
