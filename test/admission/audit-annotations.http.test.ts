/**
 * Admission's audit annotations reach the audit record: a ValidatingAdmissionPolicy with
 * validationActions [Audit] and an auditAnnotation, over HTTPS with the admin's client
 * certificate. The ResponseComplete event carries `<policy>/<key>` and the
 * validation_failure annotation; the RequestReceived event, written before admission, has none.
 */
import { randomUUID } from 'node:crypto';
import { defaultPolicy } from '../../src/auth/audit/policy';
import { MemorySink } from '../support/memory-audit-sink';
import { startSecureTestServer, type Credentials, type SecureTestServer } from '../support/secure-server';
import { until } from '../support/until';

const kinds = '/apis/admissionregistration.k8s.io/v1';
const configMaps = '/api/v1/namespaces/default/configmaps';

describe('audit annotations from admission', () => {
  let s: SecureTestServer;
  let admin: Credentials;
  const sink = new MemorySink();
  beforeAll(async () => {
    s = await startSecureTestServer('lmdb', { audit: { policy: defaultPolicy, sink }, newId: randomUUID });
    admin = await s.clientCert('system:admin', ['system:masters']);
    const policy = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'audited' },
      spec: {
        matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], operations: ['CREATE'] }] },
        validations: [{ expression: "!has(object.metadata.labels) || !('audit-me' in object.metadata.labels)", message: 'labelled audit-me' }],
        auditAnnotations: [{ key: 'name', valueExpression: 'string(object.metadata.name)' }],
      },
    };
    const binding = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'audited' }, spec: { policyName: 'audited', validationActions: ['Audit'] } };
    const made = await s.call('POST', `${kinds}/validatingadmissionpolicies`, admin, policy);
    expect(made.status).toBe(201);
    expect((await s.call('POST', `${kinds}/validatingadmissionpolicybindings`, admin, binding)).status).toBe(201);
  });
  afterAll(() => s.close());

  it('records the policy annotations and the audited failure on ResponseComplete', async () => {
    let auditID = '';
    await until('the policy to annotate a create', async () => {
      const name = `cm-${randomUUID().slice(0, 8)}`;
      const res = await s.call('POST', configMaps, admin, { metadata: { name, labels: { 'audit-me': 'yes' } } });
      expect(res.status).toBe(201);
      auditID = res.headers['audit-id'] as string;
      return sink.events().some((e) => e.auditID === auditID && e.stage === 'ResponseComplete' && e.annotations);
    });
    const events = sink.events().filter((e) => e.auditID === auditID);
    expect(events.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseComplete']);
    expect(events[0].annotations).toBeUndefined();
    const annotations = events[1].annotations as Record<string, string>;
    expect(annotations['audited/name']).toMatch(/^cm-/);
    expect(JSON.parse(annotations['validation.policy.admission.k8s.io/validation_failure'])).toEqual([
      { message: 'labelled audit-me', policy: 'audited', binding: 'audited', expressionIndex: 0, validationActions: ['Audit'] },
    ]);
  });
});
