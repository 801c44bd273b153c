/** Variables, the variables upstream provides, failure policy and cost limits. */
import { attributes, configMap, harness, outcome } from './harness';
import { configMapRules } from '../../../support/policy-objects';
import type { AuthorizerPort } from '../../../../src/ports/authorizer.port';
import { alwaysAllow } from '../../../../src/ports/authorizer.port';

/** The message a one-validation policy denies with, its validation always failing with `messageExpression`. */
async function report(messageExpression: string, more: Record<string, unknown> = {}, a = attributes('CREATE', configMap('c', { app: 'web' }))) {
  const h = harness();
  h.addPolicy('p', { matchConstraints: configMapRules(['*']), validations: [{ expression: 'false', messageExpression }], ...more });
  h.addBinding('b', { policyName: 'p', validationActions: ['Deny'] });
  const status = await outcome(h.plugin, a);
  return status?.message?.replace(/^.*denied request: /, '');
}

describe('policy evaluation', () => {
  it('composes variables, each seeing the ones before it', async () => {
    const variables = [
      { name: 'app', expression: "object.metadata.labels['app']" },
      { name: 'greeting', expression: "'hello ' + variables.app" },
    ];
    expect(await report('variables.greeting', { variables })).toBe('hello web');
    const backwards = [{ name: 'first', expression: 'variables.second' }, { name: 'second', expression: "'x'" }];
    expect(await report('variables.first', { variables: backwards, validations: [{ expression: 'variables.first == "x"' }] })).toBe(
      `expression 'variables.first == "x"' resulted in error: composited variable "first" fails to compile: compilation failed: ERROR: <input>:1:10: undefined field 'second'\n | variables.second\n | .........^`,
    );
  });

  it('evaluates a variable only when read, and reports its errors through the reader', async () => {
    const variables = [{ name: 'boom', expression: "object.metadata.labels['missing']" }];
    const validations = [{ expression: 'true' }, { expression: "variables.boom == 'x'" }];
    expect(await report('', { variables, validations: [validations[0]] })).toBeUndefined();
    expect(await report('', { variables, validations })).toBe(
      `expression 'variables.boom == 'x'' resulted in error: composited variable "boom" fails to evaluate: no such key: missing`,
    );
  });

  it('shows the request as upstream builds the AdmissionRequest', async () => {
    const a = attributes('UPDATE', configMap('c'), { oldObject: configMap('c'), dryRun: true });
    a.options.dryRun = true;
    const shape = "request.kind.kind + ' ' + request.resource.resource + ' ' + request.name + ' ' + request.namespace + ' ' + request.operation + ' ' + string(request.dryRun) + ' ' + request.options.kind + ' ' + request.options.dryRun[0] + ' ' + request.userInfo.username";
    expect(await report(shape, {}, a)).toBe('ConfigMap configmaps c default UPDATE true UpdateOptions All alice');
    expect(await report("string(has(request.subResource)) + ' ' + string(oldObject == null)", {}, attributes('CREATE', configMap('c')))).toBe('false true');
    expect(await report('string(object == null) + oldObject.metadata.name', {}, attributes('DELETE', undefined, { oldObject: configMap('gone') }))).toBe('truegone');
    expect(await report("request.options.kind + ' ' + string(request.options.gracePeriodSeconds)", {}, (() => {
      const d = attributes('DELETE', undefined, { oldObject: configMap('gone') });
      Object.assign(d.options, { gracePeriodSeconds: 0 });
      return d;
    })())).toBe('DeleteOptions 0');
  });

  it('shows namespaceObject with its labels and typed timestamps, and refuses what upstream types leave out', async () => {
    const h = harness();
    h.put((await import('../../../../src/resources/namespace')).namespaceDefinition, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'default', labels: { env: 'prod' }, creationTimestamp: '2024-01-02T03:04:05Z', managedFields: [] },
      status: { phase: 'Active' },
    } as never);
    h.addPolicy('p', {
      matchConstraints: configMapRules(),
      validations: [{ expression: 'false', messageExpression: "namespaceObject.metadata.labels['env'] + ' ' + namespaceObject.status.phase + ' ' + string(namespaceObject.metadata.creationTimestamp.getFullYear())" }],
    });
    h.addBinding('b', { policyName: 'p', validationActions: ['Deny'] });
    expect((await outcome(h.plugin, attributes('CREATE', configMap('c'))))?.message).toMatch(/denied request: prod Active 2024$/);
    expect(await report('namespaceObject.metadata.uid')).toBe('failed expression: false');
  });

  it('answers authorizer checks through the server authorizer, for the requesting user', async () => {
    const seen: unknown[] = [];
    const authorizer: AuthorizerPort = { ...alwaysAllow, authorize: (attrs) => (seen.push(attrs), { allowed: attrs.verb === 'approve', reason: '' }) };
    const h = harness(authorizer);
    h.addPolicy('p', {
      matchConstraints: configMapRules(),
      validations: [
        { expression: "authorizer.group('').resource('configmaps').namespace(object.metadata.namespace).check('approve').allowed()" },
        { expression: "authorizer.requestResource.check('escalate').allowed()", message: 'may not escalate' },
      ],
    });
    h.addBinding('b', { policyName: 'p', validationActions: ['Deny'] });
    expect((await outcome(h.plugin, attributes('CREATE', configMap('c'))))?.message).toMatch(/denied request: may not escalate$/);
    expect(seen[1]).toMatchObject({ verb: 'escalate', apiGroup: '', resource: 'configmaps', namespace: 'default', name: 'c', user: { username: 'alice' } });
  });

  it('turns evaluation errors into denials under Fail and admits them under Ignore', async () => {
    const validations = [{ expression: "object.data['missing'] == 'x'" }];
    expect(await report('', { validations })).toBe(`expression 'object.data['missing'] == 'x'' resulted in error: no such key: missing`);
    expect(await report('', { validations, failurePolicy: 'Ignore' })).toBeUndefined();
  });

  it('stops an expression at the per-call limit and a policy at the runtime budget', async () => {
    const expensive = "[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, authorizer.path('/x').check('get').allowed() || true)))";
    expect(await report('', { validations: [{ expression: expensive }] })).toBe(`expression '${expensive}' resulted in error: operation cancelled: actual cost limit exceeded`);
    // Each check is 350000: 29 of them in separate expressions (each under the per-call limit) exceed 10M.
    const manyChecks = Array.from({ length: 29 }, () => ({ expression: "authorizer.path('/x').check('get').allowed()" }));
    expect(await report('', { validations: manyChecks })).toBe('validation failed due to running out of cost budget, no further validation rules will be run');
    expect(await report('', { validations: manyChecks.slice(0, 28) })).toBeUndefined();
    // Variables are charged to the budget too, once however often they are read.
    const variables = Array.from({ length: 29 }, (_, i) => ({ name: `v${i}`, expression: "authorizer.path('/x').check('get').allowed()" }));
    const readAll = variables.map((v) => `variables.${v.name}`).join(' && ');
    expect(await report('', { variables, validations: [{ expression: readAll }] })).toBe('validation failed due to running out of cost budget, no further validation rules will be run');
    expect(await report('', { variables, validations: [{ expression: 'variables.v0 && variables.v0' }] })).toBeUndefined();
  });

  it('holds match conditions to their own smaller budget', async () => {
    const checks = Array.from({ length: 8 }, (_, i) => ({ name: `c${i}`, expression: "authorizer.path('/x').check('get').allowed()" }));
    expect(await report('', { matchConditions: checks, validations: [{ expression: 'false' }] })).toBe(
      'validation failed due to running out of cost budget, no further validation rules will be run',
    );
    expect(await report('', { matchConditions: checks.slice(0, 7), validations: [{ expression: 'false' }] })).toBe('failed expression: false');
  });
});
