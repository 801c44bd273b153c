/** paramKind and paramRef: which objects a binding hands its policy, and what happens when there are none. */
import { attributes, configMap, harness, outcome } from './harness';
import { configMapDefinition } from '../../../../src/resources/config-map';
import { roleDefinition } from '../../../../src/resources/role';
import { configMapRules } from '../../../support/policy-objects';
import type { KObject } from '../../../../src/machinery/object';

const maxKeys = { expression: 'size(object.data) <= int(params.data.max)', messageExpression: "'at most ' + params.data.max + ' keys (' + params.metadata.name + ')'" };

function paramPolicy(paramKind: Record<string, unknown> = { apiVersion: 'v1', kind: 'ConfigMap' }, failurePolicy = 'Fail') {
  const h = harness();
  h.addPolicy('limit', { paramKind, failurePolicy, matchConstraints: configMapRules(), validations: [maxKeys] });
  return h;
}

const limit = (name: string, max: string, namespace = 'default', labels: Record<string, string> = {}): KObject =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels }, data: { max } }) as KObject;

const threeKeys = () => configMap('c', {}, { a: '1', b: '2', c: '3' });

describe('policy params', () => {
  it('reads a param by name, in the request namespace by default', async () => {
    const h = paramPolicy();
    h.put(configMapDefinition, limit('limits', '2'));
    h.addBinding('b', { policyName: 'limit', validationActions: ['Deny'], paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' } });
    expect((await outcome(h.plugin, attributes('CREATE', threeKeys())))?.message).toMatch(/denied request: at most 2 keys \(limits\)$/);
    expect(await outcome(h.plugin, attributes('CREATE', configMap('c', {}, { a: '1' })))).toBeUndefined();
  });

  it('reads a param in the namespace the paramRef names', async () => {
    const h = paramPolicy();
    h.put(configMapDefinition, limit('limits', '1', 'policies'));
    h.addBinding('b', { policyName: 'limit', validationActions: ['Deny'], paramRef: { name: 'limits', namespace: 'policies', parameterNotFoundAction: 'Deny' } });
    expect((await outcome(h.plugin, attributes('CREATE', threeKeys())))?.message).toContain('at most 1 keys');
  });

  it('evaluates once per param a selector finds', async () => {
    const h = paramPolicy();
    h.put(configMapDefinition, limit('loose', '5', 'default', { kind: 'limit' }));
    h.put(configMapDefinition, limit('strict', '1', 'default', { kind: 'limit' }));
    h.put(configMapDefinition, limit('ignored', '0', 'default', { kind: 'other' }));
    h.addBinding('b', { policyName: 'limit', validationActions: ['Warn'], paramRef: { selector: { matchLabels: { kind: 'limit' } }, parameterNotFoundAction: 'Deny' } });
    const a = attributes('CREATE', threeKeys());
    await h.plugin.validate(a);
    expect(a.options.warnings).toEqual(["Validation failed for ValidatingAdmissionPolicy 'limit' with binding 'b': at most 1 keys (strict)"]);
  });

  it('allows or denies when no param is found, with upstream messages', async () => {
    const h = paramPolicy();
    h.addBinding('deny', { policyName: 'limit', validationActions: ['Deny'], paramRef: { name: 'absent', parameterNotFoundAction: 'Deny' } });
    expect((await outcome(h.plugin, attributes('CREATE', threeKeys())))?.message).toBe(
      "configmaps \"c\" is forbidden: ValidatingAdmissionPolicy 'limit' with binding 'deny' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction",
    );
    const allow = paramPolicy();
    allow.addBinding('allow', { policyName: 'limit', validationActions: ['Deny'], paramRef: { name: 'absent', parameterNotFoundAction: 'Allow' } });
    expect(await outcome(allow.plugin, attributes('CREATE', threeKeys()))).toBeUndefined();
    const ignore = paramPolicy(undefined, 'Ignore');
    ignore.addBinding('deny', { policyName: 'limit', validationActions: ['Deny'], paramRef: { name: 'absent', parameterNotFoundAction: 'Deny' } });
    expect(await outcome(ignore.plugin, attributes('CREATE', threeKeys()))).toBeUndefined();
  });

  it('refuses a namespaced param for a cluster-scoped request without a paramRef namespace', async () => {
    const h = paramPolicy();
    h.addPolicy('limit', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces'], operations: ['*'] }] }, validations: [{ expression: 'true' }] });
    h.addBinding('b', { policyName: 'limit', validationActions: ['Deny'], paramRef: { name: 'x', parameterNotFoundAction: 'Allow' } });
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' } } as KObject;
    expect((await outcome(h.plugin, attributes('CREATE', ns, { definition: (await import('../../../../src/resources/namespace')).namespaceDefinition })))?.message).toContain(
      'failed to configure binding: cannot use namespaced paramRef in policy binding that matches cluster-scoped resources',
    );
  });

  it('names an unserved paramKind as upstream does, and resolves k8s.io groups to our kinds', async () => {
    const h = paramPolicy({ apiVersion: 'example.com/v1', kind: 'Limit' });
    h.addBinding('b', { policyName: 'limit', validationActions: ['Deny'], paramRef: { name: 'x', parameterNotFoundAction: 'Allow' } });
    expect((await outcome(h.plugin, attributes('CREATE', threeKeys())))?.message).toBe(
      "configmaps \"c\" is forbidden: ValidatingAdmissionPolicy 'limit' denied request: failed to configure policy: failed to find resource referenced by paramKind: 'example.com/v1, Kind=Limit'",
    );
    const rbac = harness();
    rbac.addPolicy('p', { paramKind: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role' }, matchConstraints: configMapRules(), validations: [{ expression: "params.metadata.name != 'blocker'" }] });
    rbac.put(roleDefinition, { apiVersion: 'rbac.authorization.svc.io/v1', kind: 'Role', metadata: { name: 'blocker', namespace: 'default' } } as KObject);
    rbac.addBinding('b', { policyName: 'p', validationActions: ['Deny'], paramRef: { name: 'blocker', parameterNotFoundAction: 'Deny' } });
    expect((await outcome(rbac.plugin, attributes('CREATE', threeKeys())))?.message).toContain("failed expression: params.metadata.name != 'blocker'");
  });

  it('gives a binding without paramRef null params, and refuses params where the policy declares no paramKind', async () => {
    const h = harness();
    h.addPolicy('p', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, matchConstraints: configMapRules(), validations: [{ expression: 'params == null' }] });
    h.addBinding('b', { policyName: 'p', validationActions: ['Deny'] });
    expect(await outcome(h.plugin, attributes('CREATE', threeKeys()))).toBeUndefined();
    h.addPolicy('p', { matchConstraints: configMapRules(), validations: [{ expression: 'params == null' }] });
    expect((await outcome(h.plugin, attributes('CREATE', threeKeys())))?.message).toContain(
      "denied request: compilation error: compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')",
    );
  });
});
