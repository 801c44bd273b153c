/**
 * Admission configured and exercised with kubectl against the real server process, on both stores:
 * ValidatingAdmissionPolicies (Deny, Warn, params from a ConfigMap) and webhook configurations
 * (mutating, rejecting, unreachable with Ignore and Fail, too slow) written as stock
 * admissionregistration.k8s.io/v1 manifests, with a real HTTPS webhook server of its own CA.
 * Each scenario selects its ConfigMaps by a `scenario` label, so one server holds them all.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubectlFor, type Kubectl } from '../support/kubectl';
import { startServerProcess, type ServerProcess } from '../support/server-process';
import { backends, etcdEndpoints } from '../support/test-server';
import { until } from '../support/until';
import { answer, closedPort, hang, startWebhookServer, type WebhookServer } from '../support/webhook-server';

const policies = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: no-forbidden-label
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [configmaps]}
  validations:
  - expression: "!has(object.metadata.labels) || !('forbidden' in object.metadata.labels)"
    message: the forbidden label is not allowed
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: no-forbidden-label-binding
spec:
  policyName: no-forbidden-label
  validationActions: [Deny]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: no-password
spec:
  matchConstraints:
    objectSelector: {matchLabels: {scenario: warn}}
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}
  validations:
  - expression: "!has(object.data) || !('password' in object.data)"
    message: data should not hold a password
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: no-password-binding
spec:
  policyName: no-password
  validationActions: [Warn]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: max-keys
spec:
  paramKind: {apiVersion: v1, kind: ConfigMap}
  matchConstraints:
    objectSelector: {matchLabels: {scenario: limited}}
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}
  validations:
  - expression: "!has(object.data) || object.data.size() <= int(params.data.maxKeys)"
    messageExpression: "'at most ' + params.data.maxKeys + ' keys'"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: max-keys-binding
spec:
  policyName: max-keys
  validationActions: [Deny]
  paramRef: {name: limits, namespace: default, parameterNotFoundAction: Deny}
`;

function webhookConfigurations(hooks: WebhookServer, down: string): string {
  const hook = (name: string, url: string, scenario: string, extra = '') => `- name: ${name}.hooks.test
  clientConfig: {url: "${url}", caBundle: ${hooks.caBundle}}
  rules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}]
  objectSelector: {matchLabels: {scenario: ${scenario}}}
  sideEffects: None
  admissionReviewVersions: [v1]
${extra}`;
  return `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: add-label
webhooks:
${hook('add-label', hooks.url('/add-label'), 'mutate')}---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: checks
webhooks:
${hook('reject', hooks.url('/reject'), 'reject')}${hook('down-ignored', down, 'down', '  failurePolicy: Ignore\n')}${hook('down', down, 'down-fail', '  failurePolicy: Fail\n')}${hook('slow', hooks.url('/slow'), 'slow', '  timeoutSeconds: 1\n')}`;
}

const configMap = (name: string, labels: Record<string, string>, data: Record<string, string> = { a: 'b' }) =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data });

const addLabel = [{ op: 'add', path: '/metadata/labels/added-by-webhook', value: 'yes' }];

describe.each(backends)('kubectl and admission (%s)', (backend) => {
  let server: ServerProcess;
  let kubectl: Kubectl;
  let hooks: WebhookServer;
  let dir: string;
  let down: string;
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const ok = async (...args: string[]) => {
    const r = await kubectl(args);
    expect({ args, stderr: r.stderr, code: r.code }).toEqual({ args, stderr: '', code: 0 });
    return r.stdout;
  };
  /** A dry-run create of `text` (admission runs, nothing is stored): what a probe needs to see a configuration in force. */
  const dryRun = (name: string, text: string, ...more: string[]) => kubectl(['create', '--dry-run=server', '-f', file(`${name}.json`, text), ...more]);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-adm-'));
    hooks = await startWebhookServer({
      '/add-label': (r) => answer(r, { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(addLabel)).toString('base64') }),
      '/reject': (r) => answer(r, { allowed: false, status: { code: 403, reason: 'Forbidden', message: 'configmaps labelled reject are not allowed here' } }),
      '/slow': () => hang,
    });
    down = `https://127.0.0.1:${await closedPort()}/down`;
    const args =
      backend === 'etcd'
        ? ['--etcd-servers', etcdEndpoints().join(','), '--etcd-prefix', `/e2e-${randomBytes(6).toString('hex')}`, '--cert-dir', mkdtempSync(join(tmpdir(), 'svc-pki-'))]
        : [];
    server = await startServerProcess(args);
    kubectl = kubectlFor(server.url);
    const applied = (await ok('apply', '-f', file('policies.yaml', policies), '-f', file('webhooks.yaml', webhookConfigurations(hooks, down)))).split('\n');
    expect(applied).toEqual(expect.arrayContaining(['validatingadmissionpolicy.admissionregistration.k8s.io/no-forbidden-label created', 'mutatingwebhookconfiguration.admissionregistration.k8s.io/add-label created']));
    // Admission reads configurations from the watch cache: probe each until it is in force.
    const probes: Array<[string, () => Promise<boolean>]> = [
      ['the Deny policy', async () => (await dryRun('p1', configMap('p1', { forbidden: 'x' }))).stderr.includes("ValidatingAdmissionPolicy 'no-forbidden-label'")],
      ['the Warn policy', async () => (await dryRun('p2', configMap('p2', { scenario: 'warn' }, { password: 'x' }))).stderr.includes('Warning:')],
      ['the param policy', async () => (await dryRun('p3', configMap('p3', { scenario: 'limited' }))).stderr.includes("ValidatingAdmissionPolicy 'max-keys'")],
      ['the mutating webhook', async () => (await dryRun('p4', configMap('p4', { scenario: 'mutate' }), '-o', 'jsonpath={.metadata.labels.added-by-webhook}')).stdout === 'yes'],
      ['the validating webhooks', async () => (await dryRun('p5', configMap('p5', { scenario: 'reject' }))).stderr.includes('reject.hooks.test')],
    ];
    for (const [what, probe] of probes) await until(`${what} to take effect`, probe, { timeoutMs: 20_000, intervalMs: 100 });
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
    await hooks?.close();
  });

  test('a Deny policy refuses creates, applies and updates with upstream\'s message', async () => {
    const denied = "ValidatingAdmissionPolicy 'no-forbidden-label' with binding 'no-forbidden-label-binding' denied request: the forbidden label is not allowed";
    const created = await kubectl(['create', '-f', file('x.json', configMap('x', { forbidden: 'yes' }))]);
    expect(created).toMatchObject({ code: 1, stderr: `The configmaps "x" is invalid: : ${denied}\n` });
    const applied = await kubectl(['apply', '-f', file('x.json', configMap('x', { forbidden: 'yes' }))]);
    expect(applied.code).toBe(1);
    expect(applied.stderr).toBe(`The configmaps "x" is invalid: : ${denied}\n`);
    await ok('create', 'configmap', 'y', '--from-literal=a=b');
    const labelled = await kubectl(['label', 'configmap', 'y', 'forbidden=yes']);
    expect(labelled).toMatchObject({ code: 1, stderr: `The configmaps "y" is invalid: : ${denied}\n` });
    expect(await ok('get', 'configmap', 'x', 'y', '-o', 'name', '--ignore-not-found')).toBe('configmap/y\n');
  });

  test('a Warn policy lets the create through with a warning', async () => {
    const r = await kubectl(['create', '-f', file('w.json', configMap('w', { scenario: 'warn' }, { password: 'hunter2' }))]);
    expect(r).toEqual({
      code: 0,
      stdout: 'configmap/w created\n',
      stderr: "Warning: Validation failed for ValidatingAdmissionPolicy 'no-password' with binding 'no-password-binding': data should not hold a password\n",
    });
  });

  test('a policy reads its params from a ConfigMap, and denies while the params are missing', async () => {
    const missing = await kubectl(['create', '-f', file('l1.json', configMap('l1', { scenario: 'limited' }))]);
    expect(missing.stderr).toBe(
      "The configmaps \"l1\" is invalid: : ValidatingAdmissionPolicy 'max-keys' with binding 'max-keys-binding' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction\n",
    );
    await ok('create', 'configmap', 'limits', '--from-literal=maxKeys=2');
    const three = { a: '1', b: '2', c: '3' };
    const tooMany = await until('the params to be read', async () => {
      const r = await dryRun('l2', configMap('l2', { scenario: 'limited' }, three));
      return r.stderr.includes('at most') && r;
    });
    expect(tooMany.stderr).toBe("The configmaps \"l2\" is invalid: : ValidatingAdmissionPolicy 'max-keys' with binding 'max-keys-binding' denied request: at most 2 keys\n");
    expect(await ok('create', '-f', file('l3.json', configMap('l3', { scenario: 'limited' }, { a: '1', b: '2' })))).toBe('configmap/l3 created\n');
    // A change to the params is seen by later requests.
    await ok('patch', 'configmap', 'limits', '--type=merge', '-p', '{"data":{"maxKeys":"3"}}');
    await until('the new params to be read', async () => (await kubectl(['create', '-f', file('l4.json', configMap('l4', { scenario: 'limited' }, three))])).code === 0);
  });

  test('a mutating webhook adds a label', async () => {
    expect(await ok('create', '-f', file('m.json', configMap('m', { scenario: 'mutate' })))).toBe('configmap/m created\n');
    expect(await ok('get', 'cm', 'm', '-o', 'jsonpath={.metadata.labels}')).toBe('{"added-by-webhook":"yes","scenario":"mutate"}');
  });

  test('a validating webhook rejects', async () => {
    const r = await kubectl(['create', '-f', file('r.json', configMap('r', { scenario: 'reject' }))]);
    expect(r).toMatchObject({ code: 1, stderr: 'Error from server (Forbidden): error when creating "' + join(dir, 'r.json') + '": admission webhook "reject.hooks.test" denied the request: configmaps labelled reject are not allowed here\n' });
  });

  test('an unreachable webhook: Ignore lets the create through, Fail refuses it', async () => {
    expect(await ok('create', '-f', file('d1.json', configMap('d1', { scenario: 'down' })))).toBe('configmap/d1 created\n');
    const r = await kubectl(['create', '-f', file('d2.json', configMap('d2', { scenario: 'down-fail' }))]);
    const port = new URL(down).port;
    expect(r).toMatchObject({
      code: 1,
      stderr: `Error from server (InternalError): error when creating "${join(dir, 'd2.json')}": Internal error occurred: failed calling webhook "down.hooks.test": failed to call webhook: Post "${down}?timeout=10s": dial tcp 127.0.0.1:${port}: connect: connection refused\n`,
    });
  });

  test('a webhook slower than its timeoutSeconds fails the request with the deadline', async () => {
    const started = Date.now();
    const r = await kubectl(['create', '-f', file('s.json', configMap('s', { scenario: 'slow' }))]);
    expect(r).toMatchObject({
      code: 1,
      stderr: `Error from server (InternalError): error when creating "${join(dir, 's.json')}": Internal error occurred: failed calling webhook "slow.hooks.test": failed to call webhook: Post "${hooks.url('/slow')}?timeout=1s": context deadline exceeded\n`,
    });
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
