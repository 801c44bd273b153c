/**
 * Which webhooks a request reaches (upstream's ShouldCallHook): rules, the
 * svc.io/k8s.io names and equivalent resources, the exemption of the
 * admission configuration kinds, namespace and object selectors, match
 * conditions, and reading the configurations only when they changed.
 */
import { ValidatingAdmissionWebhook } from '../../../../src/admission/webhooks';
import { ruleMatches, type RuleTarget } from '../../../../src/admission/webhooks/rules';
import { ApiError } from '../../../../src/machinery/status';
import { clusterRoleDefinition } from '../../../../src/resources/cluster-role';
import { configMapDefinition } from '../../../../src/resources/config-map';
import { coreEventDefinition } from '../../../../src/resources/event';
import { namespaceDefinition } from '../../../../src/resources/namespace';
import { roleDefinition } from '../../../../src/resources/role';
import { allow, attributes, configMap, configuration, envOf, FakeRegistry, FakeWebhooks, hook } from './fakes';
import type { WebhookJson } from '../../../../src/admission/webhooks/configuration';
import type { AdmissionAttributes } from '../../../../src/registry/admission-chain';
import { alwaysAllow, type AuthzAttributes } from '../../../../src/ports/authorizer.port';

function setup(...hooks: WebhookJson[]) {
  const registry = new FakeRegistry();
  registry.put('validating', configuration('config', hooks));
  const port = new FakeWebhooks();
  for (const h of hooks) port.on(h.clientConfig!.url!, (review) => allow(review));
  const plugin = new ValidatingAdmissionWebhook(envOf(registry), port);
  const called = async (a: AdmissionAttributes) => {
    const before = port.posted.length;
    await plugin.validate(a);
    return port.posted.slice(before).map((p) => p.url.pathname);
  };
  return { registry, port, plugin, called };
}

const createCm = (labels?: Record<string, string>, ns = 'default') => attributes(configMapDefinition, 'CREATE', { object: configMap('cm', labels, ns) });

describe('rules', () => {
  const target = (resource: string, subresource = '', namespace = 'default', group = ''): RuleTarget => ({
    operation: 'UPDATE',
    resource: { group, version: 'v1', resource },
    subresource,
    namespace,
  });
  const rule = (resources: string[], scope = '*') => ({ operations: ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources, scope });

  it('matches resources and subresources as upstream spells them', () => {
    expect(ruleMatches(rule(['*']), target('pods'))).toBe(true);
    expect(ruleMatches(rule(['*']), target('pods', 'status'))).toBe(false);
    expect(ruleMatches(rule(['pods/*']), target('pods', 'status'))).toBe(true);
    expect(ruleMatches(rule(['pods/*']), target('pods'))).toBe(true);
    expect(ruleMatches(rule(['*/status']), target('pods', 'status'))).toBe(true);
    expect(ruleMatches(rule(['*/status']), target('pods', 'scale'))).toBe(false);
    expect(ruleMatches(rule(['pods']), target('configmaps'))).toBe(false);
    expect(ruleMatches(rule(['pods/status']), target('pods', 'status'))).toBe(true);
  });

  it('matches operations, groups and versions exactly or by wildcard', () => {
    expect(ruleMatches({ ...rule(['*']), operations: ['CREATE'] }, target('pods'))).toBe(false);
    expect(ruleMatches({ ...rule(['*']), operations: ['*'] }, target('pods'))).toBe(true);
    expect(ruleMatches({ ...rule(['*']), apiGroups: ['apps'] }, target('pods'))).toBe(false);
    expect(ruleMatches({ ...rule(['*']), apiVersions: ['v2', '*'] }, target('pods'))).toBe(true);
  });

  it('counts namespaces as cluster-scoped and needs a namespace for Namespaced', () => {
    expect(ruleMatches(rule(['*'], 'Namespaced'), target('pods'))).toBe(true);
    expect(ruleMatches(rule(['*'], 'Namespaced'), target('nodes', '', ''))).toBe(false);
    expect(ruleMatches(rule(['*'], 'Cluster'), target('nodes', '', ''))).toBe(true);
    expect(ruleMatches(rule(['*'], 'Cluster'), target('namespaces', '', 'kube-system'))).toBe(true);
    expect(ruleMatches(rule(['*'], 'Namespaced'), target('namespaces', '', 'kube-system'))).toBe(false);
    expect(ruleMatches(rule(['*'], 'Bogus'), target('pods'))).toBe(false);
  });
});

describe('svc.io groups answer to their k8s.io names', () => {
  const rbacRule = { operations: ['CREATE'], apiGroups: ['rbac.authorization.k8s.io'], apiVersions: ['v1'], resources: ['roles'] };
  const role = { apiVersion: 'rbac.authorization.svc.io/v1', kind: 'Role', metadata: { name: 'r', namespace: 'default' }, rules: [] };

  it.each(['Exact', 'Equivalent'])('a rule for rbac.authorization.k8s.io matches our Roles (matchPolicy %s), shown under that name', async (matchPolicy) => {
    const { called, port } = setup(hook('rbac', { rules: [rbacRule], matchPolicy }));
    expect(await called(attributes(roleDefinition, 'CREATE', { object: structuredClone(role) }))).toEqual(['/rbac']);
    const req = port.posted[0].review.request;
    expect(req.kind).toEqual({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'Role' });
    expect(req.resource).toEqual({ group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'roles' });
    expect(req.requestKind).toEqual({ group: 'rbac.authorization.svc.io', version: 'v1', kind: 'Role' });
    expect(req.requestResource).toEqual({ group: 'rbac.authorization.svc.io', version: 'v1', resource: 'roles' });
    expect(req.object.apiVersion).toBe('rbac.authorization.k8s.io/v1');
  });

  it('a rule naming our own group shows the request as it is', async () => {
    const { called, port } = setup(hook('ours', { rules: [{ ...rbacRule, apiGroups: ['rbac.authorization.svc.io'] }] }));
    expect(await called(attributes(roleDefinition, 'CREATE', { object: structuredClone(role) }))).toEqual(['/ours']);
    expect(port.posted[0].review.request.kind.group).toBe('rbac.authorization.svc.io');
    expect(port.posted[0].review.request.object.apiVersion).toBe('rbac.authorization.svc.io/v1');
  });

  it('matchPolicy Equivalent reaches kinds kept in the same storage: core Events for an events.k8s.io rule', async () => {
    const eventsRule = { operations: ['CREATE'], apiGroups: ['events.k8s.io'], apiVersions: ['v1'], resources: ['events'] };
    const event = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e', namespace: 'default' }, message: 'hello', reason: 'Test', involvedObject: { kind: 'Pod', name: 'p' } };
    const exact = setup(hook('exact', { rules: [eventsRule], matchPolicy: 'Exact' }));
    expect(await exact.called(attributes(coreEventDefinition, 'CREATE', { object: structuredClone(event) }))).toEqual([]);
    const equivalent = setup(hook('equivalent', { rules: [eventsRule] }));
    expect(await equivalent.called(attributes(coreEventDefinition, 'CREATE', { object: structuredClone(event) }))).toEqual(['/equivalent']);
    const req = equivalent.port.posted[0].review.request;
    expect(req.kind).toEqual({ group: 'events.k8s.io', version: 'v1', kind: 'Event' });
    expect(req.requestKind).toEqual({ group: '', version: 'v1', kind: 'Event' });
    // Shown in events.k8s.io's form: message is `note` there.
    expect(req.object).toMatchObject({ apiVersion: 'events.k8s.io/v1', note: 'hello' });
  });
});

it('no webhook sees writes of the admission configuration kinds', async () => {
  const { called, registry } = setup(hook('all', { rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }] }));
  const kinds = [...new Set([registry.kinds.mutating, registry.kinds.validating, ...registry.definitions.filter((d) => d.group === 'admissionregistration.svc.io')])];
  for (const def of kinds) {
    expect(await called(attributes(def, 'CREATE', { object: { apiVersion: 'admissionregistration.svc.io/v1', kind: def.kind, metadata: { name: 'c' } } }))).toEqual([]);
  }
  expect(await called(attributes(configMapDefinition, 'CREATE', { object: configMap('x') }))).toEqual(['/all']);
});

describe('namespaceSelector', () => {
  const selector = { matchLabels: { env: 'prod' } };

  it('reads the namespace labels through the registry', async () => {
    const { called, registry } = setup(hook('ns', { namespaceSelector: selector }));
    registry.addNamespace('prod-ns', { env: 'prod' });
    registry.addNamespace('dev-ns', { env: 'dev' });
    expect(await called(createCm(undefined, 'prod-ns'))).toEqual(['/ns']);
    expect(await called(createCm(undefined, 'dev-ns'))).toEqual([]);
  });

  it('answers a missing namespace with its 404 when the rules match', async () => {
    const { plugin } = setup(hook('ns', { namespaceSelector: selector }));
    await expect(plugin.validate(createCm(undefined, 'nowhere'))).rejects.toMatchObject({ status: { code: 404, message: 'namespaces "nowhere" not found' } });
  });

  it('always matches cluster-scoped objects other than namespaces', async () => {
    const rules = [{ operations: ['CREATE'], apiGroups: ['*'], apiVersions: ['*'], resources: ['clusterroles', 'namespaces'] }];
    const { called } = setup(hook('ns', { rules, namespaceSelector: selector }));
    const cr = { apiVersion: 'rbac.authorization.svc.io/v1', kind: 'ClusterRole', metadata: { name: 'cr' } };
    expect(await called(attributes(clusterRoleDefinition, 'CREATE', { object: cr }))).toEqual(['/ns']);
    // A namespace being created is selected by the labels it is created with.
    const ns = (labels: Record<string, string>) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', labels } });
    expect(await called(attributes(namespaceDefinition, 'CREATE', { object: ns({ env: 'prod' }) }))).toEqual(['/ns']);
    expect(await called(attributes(namespaceDefinition, 'CREATE', { object: ns({ env: 'dev' }) }))).toEqual([]);
  });

  it('is an internal error when it does not parse, only for requests its rules match', async () => {
    const bad = { matchExpressions: [{ key: 'env', operator: 'Near', values: ['x'] }] };
    const { plugin } = setup(hook('bad', { namespaceSelector: bad }));
    await expect(plugin.validate(createCm())).rejects.toMatchObject({ status: { code: 500, message: 'Internal error occurred: "Near" is not a valid label selector operator' } });
    await expect(plugin.validate(attributes(configMapDefinition, 'DELETE', { oldObject: configMap('cm') }))).resolves.toBeUndefined();
  });
});

it('objectSelector matches the new or the old object', async () => {
  const rules = [{ operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }];
  const { called } = setup(hook('obj', { rules, objectSelector: { matchLabels: { watched: 'yes' } } }));
  expect(await called(createCm({ watched: 'yes' }))).toEqual(['/obj']);
  expect(await called(createCm({ watched: 'no' }))).toEqual([]);
  expect(await called(attributes(configMapDefinition, 'DELETE', { oldObject: configMap('cm', { watched: 'yes' }) }))).toEqual(['/obj']);
  const update = attributes(configMapDefinition, 'UPDATE', { object: configMap('cm'), oldObject: configMap('cm', { watched: 'yes' }) });
  expect(await called(update)).toEqual(['/obj']);
});

describe('matchConditions', () => {
  const condition = (expression: string) => [{ name: 'c', expression }];

  it('skip the webhook when one is false and call it when all hold, with object and request to read', async () => {
    const { called } = setup(
      hook('labelled', { matchConditions: condition("has(object.metadata.labels) && object.metadata.labels['team'] == 'a'") }),
      hook('alice', { matchConditions: [...condition("request.userInfo.username == 'alice'"), { name: 'op', expression: "request.operation == 'CREATE' && request.namespace == 'default'" }] }),
    );
    expect(await called(createCm({ team: 'a' }))).toEqual(['/labelled', '/alice']);
    expect(await called(createCm({ team: 'b' }))).toEqual(['/alice']);
  });

  it('that fail to evaluate refuse the request under failurePolicy Fail, with upstream message', async () => {
    const { plugin } = setup(hook('failing', { matchConditions: condition("object.metadata.labels['missing'] == 'x'") }));
    await expect(plugin.validate(createCm({ a: 'b' }))).rejects.toMatchObject({
      status: { code: 403, reason: 'Forbidden', message: `configmaps "cm" is forbidden: expression 'object.metadata.labels['missing'] == 'x'' resulted in error: no such key: missing` },
    });
  });

  it('ask the authorizer as the request user, about any resource or the request own', async () => {
    const { called, registry } = setup(
      hook('may-delete', { matchConditions: condition("authorizer.group('').resource('configmaps').namespace('default').check('delete').allowed()") }),
      hook('may-patch-own', { matchConditions: condition("authorizer.requestResource.check('patch').allowed()") }),
    );
    const asked: AuthzAttributes[] = [];
    registry.deps.authorizer = { ...alwaysAllow, authorize: (attrs) => (asked.push(attrs), { allowed: attrs.verb === 'patch', reason: '' }) };
    expect(await called(createCm())).toEqual(['/may-patch-own']);
    expect(asked).toEqual([
      expect.objectContaining({ user: expect.objectContaining({ username: 'alice' }), verb: 'delete', apiGroup: '', resource: 'configmaps', namespace: 'default', name: undefined }),
      expect.objectContaining({ verb: 'patch', apiGroup: '', resource: 'configmaps', namespace: 'default', name: 'cm' }),
    ]);
  });

  it('that fail are ignored under failurePolicy Ignore, and a false one wins over an error', async () => {
    const erring = condition("object.metadata.labels['missing'] == 'x'");
    const { called } = setup(
      hook('ignore', { failurePolicy: 'Ignore', matchConditions: erring }),
      hook('false-wins', { matchConditions: [...erring, { name: 'f', expression: 'false' }] }),
    );
    expect(await called(createCm({ a: 'b' }))).toEqual([]);
  });
});

describe('configurations', () => {
  it('are decoded and compiled again only when their list changed, and ordered by name', async () => {
    const { registry } = setup(hook('b'));
    const port = new FakeWebhooks().on('https://hooks.test/a', (r) => allow(r)).on('https://hooks.test/b', (r) => allow(r));
    const plugin = new ValidatingAdmissionWebhook(envOf(registry), port);
    await plugin.validate(createCm());
    const decodes = registry.decodes;
    // Nothing matches a DELETE of a ConfigMap, and nothing was decoded for it.
    await plugin.validate(attributes(configMapDefinition, 'DELETE', { oldObject: configMap('cm') }));
    expect(registry.decodes).toBe(decodes);
    registry.put('validating', configuration('a-first', [hook('a')]));
    await plugin.validate(createCm());
    expect(registry.decodes).toBe(decodes + 1);
    expect(port.paths()).toEqual(['/b', '/a', '/b']);
  });

  it('are not decoded again when only other kinds were written (the cache resourceVersion moved)', async () => {
    const { registry } = setup(hook('b'));
    const plugin = new ValidatingAdmissionWebhook(envOf(registry), new FakeWebhooks().on('https://hooks.test/b', (r) => allow(r)));
    await plugin.validate(createCm());
    const decodes = registry.decodes;
    registry.unrelatedWrite();
    await plugin.validate(createCm());
    registry.unrelatedWrite();
    await plugin.validate(createCm());
    expect(registry.decodes).toBe(decodes);
  });

  it('are not even listed while the cache says their kind did not change', async () => {
    const { registry } = setup(hook('b'));
    let changed = () => {};
    const env = { ...envOf(registry), changes: (_def: unknown, c: () => void) => ((changed = c), () => undefined) };
    const plugin = new ValidatingAdmissionWebhook(env, new FakeWebhooks().on('https://hooks.test/b', (r) => allow(r)).on('https://hooks.test/a', (r) => allow(r)));
    await plugin.validate(createCm());
    const lists = registry.lists;
    await plugin.validate(createCm());
    expect(registry.lists).toBe(lists);
    registry.put('validating', configuration('a-first', [hook('a')]));
    changed();
    await plugin.validate(createCm());
    expect(registry.lists).toBe(lists + 1);
  });

  it('cost one list read and nothing else when there are none', async () => {
    const registry = new FakeRegistry();
    const plugin = new ValidatingAdmissionWebhook(envOf(registry), new FakeWebhooks());
    await plugin.validate(createCm());
    await plugin.validate(createCm());
    expect({ lists: registry.lists, decodes: registry.decodes, namespaceReads: registry.namespaceReads }).toEqual({ lists: 2, decodes: 1, namespaceReads: 0 });
  });
});

it('a webhook without a usable client config fails to call as upstream says', async () => {
  const { plugin } = setup(hook('nowhere', { clientConfig: {} }));
  const err = (await (async () => plugin.validate(createCm()))().catch((e: unknown) => e)) as ApiError;
  expect(err.status.message).toBe('Internal error occurred: failed calling webhook "nowhere.hooks.test": could not get REST client: webhook has no url and no service');
});
