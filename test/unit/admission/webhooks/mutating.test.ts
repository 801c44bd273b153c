/**
 * MutatingAdmissionWebhook with a fake WebhookPort: webhooks in order, each
 * seeing the last one's changes, reinvocation of IfNeeded webhooks, patches,
 * denials, failure policies, dry runs, timeouts, warnings and annotations.
 */
import { MutatingAdmissionWebhook } from '../../../../src/admission/webhooks';
import type { WebhookJson } from '../../../../src/admission/webhooks/configuration';
import { configMapDefinition } from '../../../../src/resources/config-map';
import { WebhookCallError } from '../../../../src/ports/webhook.port';
import { roleDefinition } from '../../../../src/resources/role';
import type { AdmissionAttributes } from '../../../../src/registry/admission-chain';
import { allow, attributes, configMap, configuration, deny, envOf, FakeRegistry, FakeWebhooks, hook, patch, type Posted } from './fakes';

const addLabel = (key: string, value = 'yes') => (review: Posted['review']) =>
  review.request.object.metadata.labels?.[key] === value ? allow(review) : patch(review, [{ op: 'add', path: `/metadata/labels/${key}`, value }]);

function setup(hooks: WebhookJson[], handlers: Record<string, (review: Posted['review']) => unknown>) {
  const registry = new FakeRegistry();
  registry.put('mutating', configuration('config', hooks));
  const port = new FakeWebhooks();
  for (const [path, h] of Object.entries(handlers)) port.on(`https://hooks.test${path}`, h);
  return { registry, port, plugin: new MutatingAdmissionWebhook(envOf(registry), port) };
}

const createCm = (extra: Partial<AdmissionAttributes> = {}) => attributes(configMapDefinition, 'CREATE', { object: configMap('cm', {}) }, extra);

it('calls the webhooks in order, each seeing what the ones before changed, and changes the object in place', async () => {
  const { plugin, port } = setup([hook('a'), hook('b')], { '/a': addLabel('a'), '/b': addLabel('b') });
  const a = createCm();
  const object = a.object!;
  await plugin.admit(a);
  expect(port.paths()).toEqual(['/a', '/b']);
  expect(port.posted[1].review.request.object.metadata.labels).toEqual({ a: 'yes' });
  expect(a.object).toBe(object);
  expect(object.metadata.labels).toEqual({ a: 'yes', b: 'yes' });
  expect(a.options.auditAnnotations).toEqual({
    'mutation.webhook.admission.k8s.io/round_0_index_0': '{"configuration":"config","webhook":"a.hooks.test","mutated":true}',
    'mutation.webhook.admission.k8s.io/round_0_index_1': '{"configuration":"config","webhook":"b.hooks.test","mutated":true}',
  });
});

describe('reinvocationPolicy IfNeeded', () => {
  it('calls an earlier webhook once more when a later one changed the object', async () => {
    const { plugin, port } = setup([hook('first', { reinvocationPolicy: 'IfNeeded' }), hook('second')], { '/first': (r) => allow(r), '/second': addLabel('second') });
    const a = createCm();
    await plugin.admit(a);
    expect(port.paths()).toEqual(['/first', '/second', '/first']);
    expect(port.posted[2].review.request.object.metadata.labels).toEqual({ second: 'yes' });
    expect(Object.keys(a.options.auditAnnotations!)).toContain('mutation.webhook.admission.k8s.io/round_1_index_0');
  });

  it('does not call again webhooks with Never, nor one whose own change came last', async () => {
    const never = setup([hook('first'), hook('second')], { '/first': (r) => allow(r), '/second': addLabel('second') });
    await never.plugin.admit(createCm());
    expect(never.port.paths()).toEqual(['/first', '/second']);
    const own = setup([hook('first', { reinvocationPolicy: 'IfNeeded' }), hook('second')], { '/first': addLabel('first'), '/second': (r) => allow(r) });
    await own.plugin.admit(createCm());
    expect(own.port.paths()).toEqual(['/first', '/second']);
  });

  it('calls in the second round the IfNeeded webhooks after one that changes the object again', async () => {
    // first changes the object on its second call only; third follows it in order and is called again then.
    let firstCalls = 0;
    const { plugin, port } = setup([hook('first', { reinvocationPolicy: 'IfNeeded' }), hook('second'), hook('third', { reinvocationPolicy: 'IfNeeded' })], {
      '/first': (r) => (++firstCalls === 2 ? addLabel('again')(r) : allow(r)),
      '/second': addLabel('second'),
      '/third': (r) => allow(r),
    });
    await plugin.admit(createCm());
    expect(port.paths()).toEqual(['/first', '/second', '/third', '/first', '/third']);
  });
});

describe('patches', () => {
  it('of a Role shown under rbac.authorization.k8s.io leave it in our group', async () => {
    const rules = [{ operations: ['CREATE'], apiGroups: ['rbac.authorization.k8s.io'], apiVersions: ['v1'], resources: ['roles'] }];
    const { plugin, port } = setup([hook('rbac', { rules })], { '/rbac': addLabel('seen') });
    const role = { apiVersion: 'rbac.authorization.svc.io/v1', kind: 'Role', metadata: { name: 'r', namespace: 'default', labels: {} }, rules: [] };
    const a = attributes(roleDefinition, 'CREATE', { object: role });
    await plugin.admit(a);
    expect(port.posted[0].review.request.object.apiVersion).toBe('rbac.authorization.k8s.io/v1');
    expect(a.object).toMatchObject({ apiVersion: 'rbac.authorization.svc.io/v1', metadata: { labels: { seen: 'yes' } } });
  });

  it('lose the fields the kind does not have, and are an internal error when a value has the wrong type', async () => {
    const unknown = setup([hook('x')], { '/x': (r) => patch(r, [{ op: 'add', path: '/bogus', value: 1 }, { op: 'add', path: '/data/b', value: '2' }]) });
    const a = createCm();
    await unknown.plugin.admit(a);
    expect(a.object).not.toHaveProperty('bogus');
    expect(a.object!.data).toEqual({ a: '1', b: '2' });
    const wrong = setup([hook('x')], { '/x': (r) => patch(r, [{ op: 'replace', path: '/data', value: 'text' }]) });
    await expect(wrong.plugin.admit(createCm())).rejects.toMatchObject({ status: { code: 500, reason: 'InternalError' } });
  });

  it('of a DELETE are refused, as there is no object to change', async () => {
    const rules = [{ operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }];
    const { plugin } = setup([hook('d', { rules })], { '/d': (r) => patch(r, [{ op: 'add', path: '/metadata/labels', value: {} }]) });
    await expect(plugin.admit(attributes(configMapDefinition, 'DELETE', { oldObject: configMap('cm') }))).rejects.toMatchObject({
      status: { code: 500, message: 'Internal error occurred: admission webhook "d.hooks.test" attempted to modify the object, which is not supported for this operation' },
    });
  });

  it('without a patchType, or undecodable, are call failures that the failure policy decides', async () => {
    const noType = (r: Posted['review']) => allow(r, { patch: Buffer.from('[]').toString('base64') });
    const fail = setup([hook('x')], { '/x': noType });
    await expect(fail.plugin.admit(createCm())).rejects.toMatchObject({
      status: { code: 500, message: 'Internal error occurred: failed calling webhook "x.hooks.test": received invalid webhook response: webhook returned response.patch but not response.patchType' },
    });
    const notAList = setup([hook('x')], { '/x': (r) => allow(r, { patchType: 'JSONPatch', patch: Buffer.from('{}').toString('base64') }) });
    await expect(notAList.plugin.admit(createCm())).rejects.toMatchObject({
      status: { message: 'Internal error occurred: failed calling webhook "x.hooks.test": received undecodable patch in webhook response: json: cannot unmarshal object into Go value of type jsonpatch.Patch' },
    });
    const ignore = setup([hook('x', { failurePolicy: 'Ignore' })], { '/x': noType });
    const a = createCm();
    await ignore.plugin.admit(a);
    expect(a.options.auditAnnotations).toMatchObject({ 'failed-open.mutation.webhook.admission.k8s.io/round_0_index_0': 'x.hooks.test' });
  });
});

describe('denials', () => {
  it("carry the webhook's status with upstream's message, at least a 400", async () => {
    const { plugin } = setup([hook('no'), hook('after')], { '/no': (r) => deny(r, { message: 'labels are required', reason: 'Invalid', code: 422 }), '/after': (r) => allow(r) });
    await expect(plugin.admit(createCm())).rejects.toMatchObject({
      status: { kind: 'Status', status: 'Failure', code: 422, reason: 'Invalid', message: 'admission webhook "no.hooks.test" denied the request: labels are required' },
    });
    const bare = setup([hook('no')], { '/no': (r) => deny(r, { code: 200 }) });
    const err = await (async () => bare.plugin.admit(createCm()))().catch((e) => e);
    expect(err.status).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 400, message: 'admission webhook "no.hooks.test" denied the request without explanation' });
  });
});

describe('failurePolicy', () => {
  it('Fail refuses the request when the webhook cannot be reached, in upstream words', async () => {
    const { plugin } = setup([hook('down')], {});
    await expect(plugin.admit(createCm())).rejects.toMatchObject({
      status: {
        code: 500,
        reason: 'InternalError',
        message: 'Internal error occurred: failed calling webhook "down.hooks.test": failed to call webhook: Post "https://hooks.test/down?timeout=10s": dial tcp hooks.test: connect: connection refused',
      },
    });
  });

  it('Ignore goes on without the webhook and notes it in the audit annotations', async () => {
    const { plugin, port } = setup([hook('down', { failurePolicy: 'Ignore' }), hook('up')], { '/up': addLabel('up') });
    const a = createCm();
    await plugin.admit(a);
    expect(port.paths()).toEqual(['/down', '/up']);
    expect(a.object!.metadata.labels).toEqual({ up: 'yes' });
    expect(a.options.auditAnnotations!['failed-open.mutation.webhook.admission.k8s.io/round_0_index_0']).toBe('down.hooks.test');
  });
});

describe('dry run', () => {
  it('is refused with a 400 by a webhook that may have side effects, whatever its failure policy', async () => {
    const { plugin, port } = setup([hook('effects', { sideEffects: 'Some', failurePolicy: 'Ignore' })], { '/effects': (r) => allow(r) });
    await expect(plugin.admit(createCm({ dryRun: true }))).rejects.toMatchObject({
      status: { code: 400, reason: 'BadRequest', message: 'admission webhook "effects.hooks.test" does not support dry run' },
    });
    expect(port.posted).toHaveLength(0);
  });

  it('reaches webhooks with sideEffects None or NoneOnDryRun, which are told it is one', async () => {
    const { plugin, port } = setup([hook('none'), hook('onDryRun', { sideEffects: 'NoneOnDryRun' })], { '/none': (r) => allow(r), '/onDryRun': (r) => allow(r) });
    const a = createCm({ dryRun: true });
    a.options.dryRun = true;
    await plugin.admit(a);
    expect(port.posted.map((p) => p.review.request.dryRun)).toEqual([true, true]);
    expect(port.posted[0].review.request.options).toEqual({ kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', dryRun: ['All'], fieldManager: 'kubectl', fieldValidation: 'Strict' });
  });
});

it('passes on warnings and audit annotations, as upstream keys and filters them', async () => {
  const { plugin } = setup([hook('talk')], {
    '/talk': (r) => allow(r, { warnings: ['mind the gap', '', 'bad\nline'], auditAnnotations: { decision: 'ok', 'not/valid': 'x' } }),
  });
  const a = createCm();
  await plugin.admit(a);
  expect(a.options.warnings).toEqual(['mind the gap']);
  expect(a.options.auditAnnotations).toMatchObject({ 'talk.hooks.test/decision': 'ok' });
  expect(Object.keys(a.options.auditAnnotations!)).not.toContain('talk.hooks.test/not/valid');
});

describe('timeouts', () => {
  it("bound each call by the webhook's timeoutSeconds and what the request has left", async () => {
    const { plugin, port, registry } = setup([hook('slow', { timeoutSeconds: 5 }), hook('next', { timeoutSeconds: 30 })], {
      '/slow': (r) => {
        registry.nowMs += 45_000; // the call took most of the request's minute
        return allow(r);
      },
      '/next': (r) => allow(r),
    });
    await plugin.admit(createCm());
    expect(port.posted.map((p) => [p.timeoutMs, p.url.searchParams.get('timeout')])).toEqual([
      [5000, '5s'],
      [15_000, '15s'],
    ]);
  });

  it('end a request whose time ran out, even when the failed webhook is ignored', async () => {
    const { plugin, registry } = setup([hook('slow', { failurePolicy: 'Ignore' })], {
      '/slow': () => {
        registry.nowMs += 61_000;
        throw new WebhookCallError('timeout', 'context deadline exceeded');
      },
    });
    await expect(plugin.admit(createCm())).rejects.toMatchObject({ status: { code: 504, reason: 'Timeout', message: 'Timeout: request did not complete within requested timeout' } });
  });
});
