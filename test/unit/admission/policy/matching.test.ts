/** Which requests a policy and its bindings apply to. */
import { attributes, configMap, harness, outcome } from './harness';
import { namespaceDefinition } from '../../../../src/resources/namespace';
import { roleDefinition } from '../../../../src/resources/role';
import { coreEventDefinition, eventsEventDefinition } from '../../../../src/resources/event';
import { validatingAdmissionPolicyDefinition } from '../../../../src/resources/validating-admission-policy';
import type { KObject } from '../../../../src/machinery/object';

/** A policy that denies everything it matches, bound without further matching; returns whether `a` is denied. */
function denyAll(matchConstraints: Record<string, unknown>, bindingMatch?: Record<string, unknown>) {
  const h = harness();
  h.addPolicy('p', { matchConstraints, validations: [{ expression: 'false' }] });
  h.addBinding('b', { policyName: 'p', validationActions: ['Deny'], ...(bindingMatch ? { matchResources: bindingMatch } : {}) });
  return { h, denied: async (a: Parameters<typeof outcome>[1]) => (await outcome(h.plugin, a)) !== undefined };
}

const rule = (r: Record<string, unknown>) => ({ resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], operations: ['*'], ...r }] });
const role = (name: string): KObject => ({ apiVersion: 'rbac.authorization.svc.io/v1', kind: 'Role', metadata: { name, namespace: 'default' } }) as KObject;

describe('policy matching', () => {
  it('matches operations, groups, versions and resources as written', async () => {
    const cm = attributes('CREATE', configMap('c'));
    expect(await denyAll(rule({ operations: ['CREATE'] })).denied(cm)).toBe(true);
    expect(await denyAll(rule({ operations: ['UPDATE'] })).denied(cm)).toBe(false);
    expect(await denyAll(rule({ apiGroups: ['apps'] })).denied(cm)).toBe(false);
    expect(await denyAll(rule({ apiVersions: ['v2'] })).denied(cm)).toBe(false);
    expect(await denyAll(rule({ resources: ['secrets'] })).denied(cm)).toBe(false);
    expect(await denyAll(rule({ resources: ['configmaps'], resourceNames: ['other'] })).denied(cm)).toBe(false);
    expect(await denyAll(rule({ resources: ['configmaps'], resourceNames: ['c'] })).denied(cm)).toBe(true);
  });

  it('tells subresources apart: `res` is the main resource only, `res/*` and `*/sub` the subresources', async () => {
    const status = attributes('UPDATE', configMap('c'), { oldObject: configMap('c'), subresource: 'status' });
    expect(await denyAll(rule({ resources: ['configmaps'] })).denied(status)).toBe(false);
    expect(await denyAll(rule({ resources: ['configmaps/status'] })).denied(status)).toBe(true);
    expect(await denyAll(rule({ resources: ['*/status'] })).denied(status)).toBe(true);
    expect(await denyAll(rule({ resources: ['configmaps/*'] })).denied(status)).toBe(true);
  });

  it('names our svc.io groups by upstream k8s.io names too', async () => {
    const a = attributes('CREATE', role('r'), { definition: roleDefinition });
    expect(await denyAll(rule({ apiGroups: ['rbac.authorization.k8s.io'] })).denied(a)).toBe(true);
    expect(await denyAll(rule({ apiGroups: ['rbac.authorization.svc.io'] })).denied(a)).toBe(true);
    expect(await denyAll(rule({ apiGroups: ['rbac.authorization.k8s.io'] }), { matchPolicy: 'Exact', ...rule({ apiGroups: ['rbac.authorization.k8s.io'] }) }).denied(a)).toBe(true);
  });

  it('scopes rules to namespaced or cluster requests, counting a Namespace as cluster-scoped', async () => {
    const cm = attributes('CREATE', configMap('c'));
    const ns = attributes('UPDATE', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } } as KObject, { definition: namespaceDefinition });
    expect(await denyAll(rule({ scope: 'Namespaced' })).denied(cm)).toBe(true);
    expect(await denyAll(rule({ scope: 'Cluster' })).denied(cm)).toBe(false);
    expect(await denyAll(rule({ scope: 'Namespaced' })).denied(ns)).toBe(false);
    expect(await denyAll(rule({ scope: 'Cluster' })).denied(ns)).toBe(true);
  });

  it('excludes what excludeResourceRules name', async () => {
    const m = { ...rule({}), excludeResourceRules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], operations: ['*'], resourceNames: ['c'] }] };
    expect(await denyAll(m).denied(attributes('CREATE', configMap('c')))).toBe(false);
    expect(await denyAll(m).denied(attributes('CREATE', configMap('d')))).toBe(true);
  });

  it('selects by namespace labels (from the namespace being written when it is one) and by object or old object labels', async () => {
    const byNs = (sel: Record<string, unknown>) => ({ ...rule({}), namespaceSelector: sel });
    expect(await denyAll(byNs({ matchLabels: { env: 'prod' } })).denied(attributes('CREATE', configMap('c')))).toBe(true);
    expect(await denyAll(byNs({ matchLabels: { env: 'dev' } })).denied(attributes('CREATE', configMap('c')))).toBe(false);
    const newNs = attributes('CREATE', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', labels: { env: 'dev' } } } as KObject, { definition: namespaceDefinition });
    expect(await denyAll(byNs({ matchLabels: { env: 'dev' } })).denied(newNs)).toBe(true);
    const byObj = { ...rule({}), objectSelector: { matchExpressions: [{ key: 'team', operator: 'Exists' }] } };
    expect(await denyAll(byObj).denied(attributes('CREATE', configMap('c', { team: 'a' })))).toBe(true);
    expect(await denyAll(byObj).denied(attributes('UPDATE', configMap('c'), { oldObject: configMap('c', { team: 'a' }) }))).toBe(true);
    expect(await denyAll(byObj).denied(attributes('CREATE', configMap('c')))).toBe(false);
  });

  it('treats a missing namespace as no match for a policy, a configuration error for a binding, and a 404 for namespaceObject', async () => {
    const { h } = denyAll({ ...rule({}), namespaceSelector: { matchLabels: { env: 'prod' } } });
    h.addBinding('b', { policyName: 'p', validationActions: ['Deny'], matchResources: { namespaceSelector: { matchLabels: { a: 'b' } } } });
    const a = attributes('CREATE', { ...configMap('c'), metadata: { name: 'c', namespace: 'gone' } } as KObject, { namespace: 'gone' });
    // The policy's own selector error means no match; a binding's is a configuration error.
    expect(await outcome(h.plugin, a)).toBeUndefined();
    const { h: h2 } = denyAll(rule({}), { namespaceSelector: { matchLabels: { a: 'b' } } });
    expect((await outcome(h2.plugin, a))?.message).toContain(`with binding 'b' denied request: failed to configure binding: namespaces "gone" not found`);
    const { h: h3 } = denyAll(rule({}));
    expect(await outcome(h3.plugin, a)).toMatchObject({ code: 404, reason: 'NotFound', message: 'namespaces "gone" not found' });
  });

  it('matches equivalent kinds under matchPolicy Equivalent (the default), showing the object as the matched kind', async () => {
    const h = harness();
    h.addPolicy('p', {
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['events'], operations: ['CREATE'] }] },
      validations: [{ expression: 'false', messageExpression: "request.kind.group + '/' + request.kind.kind + ' ' + request.requestKind.group + ' ' + object.apiVersion" }],
    });
    h.addBinding('b', { policyName: 'p', validationActions: ['Deny'] });
    const event = { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'e', namespace: 'default' }, eventTime: '2024-01-01T00:00:00.000000Z', reportingController: 'x', reportingInstance: 'y', action: 'a', reason: 'r', type: 'Normal', regarding: {} } as unknown as KObject;
    const a = attributes('CREATE', event, { definition: eventsEventDefinition });
    expect((await outcome(h.plugin, a))?.message).toMatch(/denied request: \/Event events\.svc\.io v1$/);
    h.addPolicy('p', {
      matchConstraints: { matchPolicy: 'Exact', resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['events'], operations: ['CREATE'] }] },
      validations: [{ expression: 'false' }],
    });
    expect(await outcome(h.plugin, a)).toBeUndefined();
    expect(coreEventDefinition.plural).toBe('events');
  });

  it('never applies to the policy kinds themselves', async () => {
    const { denied } = denyAll(rule({}));
    expect(await denied(attributes('CREATE', { apiVersion: 'x', kind: 'y', metadata: { name: 'p2' } } as KObject, { definition: validatingAdmissionPolicyDefinition }))).toBe(false);
  });

  it('applies only the bindings whose matchResources match', async () => {
    const { denied } = denyAll(rule({}), { objectSelector: { matchLabels: { checked: 'yes' } } });
    expect(await denied(attributes('CREATE', configMap('c', { checked: 'yes' })))).toBe(true);
    expect(await denied(attributes('CREATE', configMap('c')))).toBe(false);
  });

  it('skips a policy whose match conditions are false, and fails or ignores their errors per failurePolicy', async () => {
    const conditions = [
      { name: 'labelled', expression: 'has(object.metadata.labels)' },
      { name: 'broken', expression: "object.metadata.labels['missing'] == 'x'" },
    ];
    const h = harness();
    h.addPolicy('p', { matchConstraints: rule({}), matchConditions: conditions, validations: [{ expression: 'false' }] });
    h.addBinding('b', { policyName: 'p', validationActions: ['Deny'] });
    expect(await outcome(h.plugin, attributes('CREATE', { ...configMap('c'), metadata: { name: 'c', namespace: 'default' } } as KObject))).toBeUndefined();
    expect((await outcome(h.plugin, attributes('CREATE', configMap('c', { a: 'b' }))))?.message).toContain(
      "denied request: expression 'object.metadata.labels['missing'] == 'x'' resulted in error: no such key: missing",
    );
    h.addPolicy('p', { failurePolicy: 'Ignore', matchConstraints: rule({}), matchConditions: conditions, validations: [{ expression: 'false' }] });
    expect(await outcome(h.plugin, attributes('CREATE', configMap('c', { a: 'b' })))).toBeUndefined();
  });
});
