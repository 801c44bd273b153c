/** Validation outcomes and where bindings send them: messages, reasons, Deny, Warn, Audit, audit annotations. */
import { attributes, configMap, harness, outcome } from './harness';
import { configMapRules } from '../../../support/policy-objects';

const noForbiddenLabel = { expression: "!has(object.metadata.labels) || !('forbidden' in object.metadata.labels)" };

describe('ValidatingAdmissionPolicy decisions', () => {
  it('denies with upstream message, reason Invalid (422) and the message as the one cause', async () => {
    const h = harness();
    h.addPolicy('no-forbidden', { matchConstraints: configMapRules(), validations: [noForbiddenLabel] });
    h.addBinding('no-forbidden-b', { policyName: 'no-forbidden', validationActions: ['Deny'] });
    const message = `ValidatingAdmissionPolicy 'no-forbidden' with binding 'no-forbidden-b' denied request: failed expression: ${noForbiddenLabel.expression}`;
    expect(await outcome(h.plugin, attributes('CREATE', configMap('c', { forbidden: 'x' })))).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `configmaps "c" is forbidden: ${message}`,
      reason: 'Invalid',
      details: { name: 'c', kind: 'configmaps', causes: [{ message }] },
      code: 422,
    });
    expect(await outcome(h.plugin, attributes('CREATE', configMap('c', { fine: 'x' })))).toBeUndefined();
  });

  it('takes the message from messageExpression, then message, and the reason for the code', async () => {
    const h = harness();
    h.addPolicy('p', {
      matchConstraints: configMapRules(),
      validations: [
        { expression: 'false', messageExpression: "'name ' + object.metadata.name + ' is bad '", message: 'static', reason: 'Forbidden' },
        { expression: 'false', messageExpression: "'two\\nlines'", message: ' static message ', reason: 'RequestEntityTooLarge' },
        { expression: 'false', messageExpression: 'object.nope', reason: 'Unauthorized' },
      ],
    });
    h.addBinding('b', { policyName: 'p', validationActions: ['Warn', 'Deny'] });
    const a = attributes('CREATE', configMap('c'));
    const status = await outcome(h.plugin, a);
    expect(status).toMatchObject({ code: 403, reason: 'Forbidden', message: `configmaps "c" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: name c is bad` });
    expect(a.options.warnings).toEqual([
      "Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': name c is bad",
      "Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': static message",
      "Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': failed expression: false",
    ]);
  });

  it.each([
    ['Unauthorized', 401],
    ['RequestEntityTooLarge', 413],
    ['Invalid', 422],
  ])('answers reason %s with code %d', async (reason, code) => {
    const h = harness();
    h.addPolicy('p', { matchConstraints: configMapRules(), validations: [{ expression: 'false', reason }] });
    h.addBinding('b', { policyName: 'p', validationActions: ['Deny'] });
    expect(await outcome(h.plugin, attributes('CREATE', configMap('c')))).toMatchObject({ reason, code });
  });

  it('warns without denying, and audits as upstream writes the annotation', async () => {
    const h = harness();
    h.addPolicy('p', { matchConstraints: configMapRules(), validations: [{ expression: 'true' }, { expression: 'false', message: 'no <good> & bad' }] });
    h.addBinding('warn-b', { policyName: 'p', validationActions: ['Warn', 'Audit'] });
    const a = attributes('CREATE', configMap('c'));
    expect(await outcome(h.plugin, a)).toBeUndefined();
    expect(a.options.warnings).toEqual(["Validation failed for ValidatingAdmissionPolicy 'p' with binding 'warn-b': no <good> & bad"]);
    expect(a.options.auditAnnotations).toEqual({
      'validation.policy.admission.k8s.io/validation_failure':
        '[{"message":"no \\u003cgood\\u003e \\u0026 bad","policy":"p","binding":"warn-b","expressionIndex":1,"validationActions":["Warn","Audit"]}]',
    });
  });

  it('publishes audit annotations under the policy name, joining distinct values of several bindings', async () => {
    const h = harness();
    h.addPolicy('p', {
      matchConstraints: configMapRules(),
      validations: [{ expression: 'true' }],
      auditAnnotations: [
        { key: 'who', valueExpression: "'  ' + request.userInfo.username + ' '" },
        { key: 'skipped', valueExpression: 'null' },
        { key: 'blank', valueExpression: "'   '" },
      ],
    });
    h.addBinding('b1', { policyName: 'p', validationActions: ['Deny'] });
    h.addBinding('b2', { policyName: 'p', validationActions: ['Deny'] });
    const a = attributes('CREATE', configMap('c'));
    await h.plugin.validate(a);
    expect(a.options.auditAnnotations).toEqual({ 'p/who': 'alice' });
  });

  it('denies on an audit annotation that cannot be evaluated, unless failurePolicy is Ignore', async () => {
    const h = harness();
    h.addPolicy('p', { matchConstraints: configMapRules(), auditAnnotations: [{ key: 'n', valueExpression: 'size(object.metadata.name) > 0 ? 1 : 2' }] });
    h.addBinding('b', { policyName: 'p', validationActions: ['Audit'] });
    const status = await outcome(h.plugin, attributes('CREATE', configMap('c')));
    expect(status?.message).toBe(
      "configmaps \"c\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: compilation error: must evaluate to one of [string null_type] but got int",
    );
    h.addPolicy('p', { failurePolicy: 'Ignore', matchConstraints: configMapRules(), auditAnnotations: [{ key: 'n', valueExpression: 'object.metadata.generation' }] });
    const a = attributes('CREATE', configMap('c'));
    expect(await outcome(h.plugin, a)).toBeUndefined();
    expect(a.options.auditAnnotations).toBeUndefined();
  });
});
