/** Validating and mutating webhook configurations: upstream's defaults, validation paths and messages, update relaxations, table and flags. */
import 'reflect-metadata';
import { errorText, FieldError } from '../../../src/machinery/field-errors';
import type { KObject } from '../../../src/machinery/object';
import { checkAndPrune } from '../../../src/machinery/schema/decode';
import { shapeAsGo } from '../../../src/machinery/schema/go-shape';
import { schemaOf } from '../../../src/machinery/schema/schema';
import type { ResourceDefinition } from '../../../src/machinery/resource-definition';
import { allDefinitions } from '../../../src/resources';
import { mutatingWebhookConfigurationDefinition as mutating } from '../../../src/resources/mutating-webhook-configuration';
import { validatingWebhookConfigurationDefinition as validating } from '../../../src/resources/validating-webhook-configuration';
import { strategyContext, fixedNow } from '../../support/strategy-context';

const ctx = strategyContext();
type Obj = Record<string, any>;

const DNS1123_SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

function hook(extra: Obj = {}): Obj {
  return {
    name: 'hook.example.com',
    clientConfig: { url: 'https://webhook.example.com/validate' },
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...structuredClone(extra),
  };
}

function config(def: ResourceDefinition, webhooks: Obj[], name = 'config'): KObject {
  const obj = { apiVersion: 'admissionregistration.svc.io/v1', kind: def.kind, metadata: { name }, webhooks: structuredClone(webhooks) } as KObject;
  def.strategy.applyDefaults!(obj, ctx);
  return obj;
}

const texts = (errs: FieldError[] | Promise<FieldError[]>) => (errs as FieldError[]).map(errorText);
const create = (webhooks: Obj[], def: ResourceDefinition = validating) => texts(def.strategy.validate(config(def, webhooks), ctx));
const one = (extra: Obj, def: ResourceDefinition = validating) => create([hook(extra)], def);
const update = (webhooks: Obj[], old: Obj[], def: ResourceDefinition = validating) => texts(def.strategy.validateUpdate(config(def, webhooks), config(def, old), ctx));

describe('webhook configuration definitions', () => {
  test.each([
    ['ValidatingWebhookConfiguration', validating, 'validatingwebhookconfigurations', 'validatingwebhookconfiguration'],
    ['MutatingWebhookConfiguration', mutating, 'mutatingwebhookconfigurations', 'mutatingwebhookconfiguration'],
  ] as const)('%s is cluster-scoped under both group names, as upstream names it', (kind, def, plural, singular) => {
    expect(def).toMatchObject({
      group: 'admissionregistration.svc.io',
      upstreamGroup: 'admissionregistration.k8s.io',
      discoverUpstreamGroup: true,
      version: 'v1',
      kind,
      listKind: `${kind}List`,
      plural,
      singular,
      shortNames: [],
      categories: ['api-extensions'],
      namespaced: false,
      usesGeneration: true,
      generationFields: ['webhooks'],
      allowCreateOnUpdate: false,
      allowUnconditionalUpdate: false,
      subresources: {},
    });
    expect(allDefinitions).toContain(def);
    expect(def.validateName('Bad_Name', false)).toEqual([DNS1123_SUBDOMAIN]);
  });
});

describe('webhook defaults', () => {
  test('v1 defaults fill every webhook; given values are kept', () => {
    const obj = config(mutating, [hook(), hook({ name: 'b.example.com', failurePolicy: 'Ignore', timeoutSeconds: 3, reinvocationPolicy: 'IfNeeded', rules: [{ scope: 'Cluster' }] })]);
    const [a, b] = obj.webhooks as Obj[];
    expect(a).toMatchObject({ failurePolicy: 'Fail', matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {}, timeoutSeconds: 10, reinvocationPolicy: 'Never' });
    expect(a.rules[0].scope).toBe('*');
    expect(a.sideEffects).toBe('None');
    expect(b).toMatchObject({ failurePolicy: 'Ignore', timeoutSeconds: 3, reinvocationPolicy: 'IfNeeded', rules: [{ scope: 'Cluster' }] });
  });
  test('validating webhooks get no reinvocationPolicy; a service gets port 443; sideEffects and admissionReviewVersions have no v1 default', () => {
    const [a] = config(validating, [{ name: 'a.b.c', clientConfig: { service: { namespace: 'ns', name: 'svc' } } }]).webhooks as Obj[];
    expect(a.reinvocationPolicy).toBeUndefined();
    expect(a.clientConfig.service.port).toBe(443);
    expect(a.sideEffects).toBeUndefined();
    expect(a.admissionReviewVersions).toBeUndefined();
  });
  test('a configuration without webhooks is valid', () => {
    expect(create([])).toEqual([]);
    expect(one({})).toEqual([]);
    expect(one({}, mutating)).toEqual([]);
  });
});

describe('webhook names', () => {
  test('a fully qualified name of at least three segments', () => {
    expect(one({ name: '' })).toEqual(['webhooks[0].name: Required value']);
    expect(one({ name: 'example.com' })).toEqual(['webhooks[0].name: Invalid value: "example.com": should be a domain with at least three segments separated by dots']);
    expect(one({ name: 'Hook.example.com' })).toEqual([`webhooks[0].name: Invalid value: "Hook.example.com": ${DNS1123_SUBDOMAIN}`]);
  });
  test('unique in the configuration', () => {
    expect(create([hook(), hook()])).toEqual(['webhooks[1].name: Duplicate value: "hook.example.com"']);
  });
});

describe('webhook client config', () => {
  const form = '; desired format: https://host[/path]';
  test('exactly one of url or service', () => {
    const why = 'webhooks[0].clientConfig: Required value: exactly one of url or service is required';
    expect(one({ clientConfig: {} })).toEqual([why]);
    expect(one({ clientConfig: { url: 'https://a.example.com', service: { namespace: 'ns', name: 'svc' } } })).toEqual([why]);
  });
  test('url: https, a host, no user, query or fragment', () => {
    const url = (u: string) => one({ clientConfig: { url: u } });
    expect(url('http://a.example.com/x')).toEqual([`webhooks[0].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme${form}`]);
    expect(url('https:///x')).toEqual([`webhooks[0].clientConfig.url: Invalid value: "": host must be specified${form}`]);
    expect(url('https://user@a.example.com/x')).toEqual(['webhooks[0].clientConfig.url: Invalid value: "user": user information is not permitted in the URL']);
    expect(url('https://a.example.com/x?a=b#frag')).toEqual([
      'webhooks[0].clientConfig.url: Invalid value: "frag": fragments are not permitted in the URL',
      'webhooks[0].clientConfig.url: Invalid value: "a=b": query parameters are not permitted in the URL',
    ]);
  });
  test('service: port and path; name and namespace reported where upstream reports them (its arguments are swapped)', () => {
    const svc = (s: Obj) => one({ clientConfig: { service: s } });
    expect(svc({ namespace: 'ns', name: 'svc', path: '/ok/path', port: 8443 })).toEqual([]);
    expect(svc({ namespace: 'ns', name: '' })).toEqual(['webhooks[0].clientConfig.service.namespace: Required value']);
    expect(svc({ namespace: '', name: 'svc' })).toEqual(['webhooks[0].clientConfig.service.name: Required value']);
    expect(svc({ namespace: 'ns', name: 'svc', port: 0 })).toEqual(['webhooks[0].clientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive']);
    expect(svc({ namespace: 'ns', name: 'svc', path: 'foo' })).toEqual(['webhooks[0].clientConfig.service.path: Invalid value: "foo": must start with a \'/\'']);
    expect(svc({ namespace: 'ns', name: 'svc', path: '/a//b' })).toEqual(['webhooks[0].clientConfig.service.path: Invalid value: "/a//b": segment[1] may not be empty']);
  });
});

describe('webhook rules', () => {
  const rule = (r: Obj) => one({ rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], ...r }] });
  const p = 'webhooks[0].rules[0]';
  test('operations', () => {
    expect(rule({ operations: [] })).toEqual([`${p}.operations: Required value`]);
    expect(rule({ operations: ['CREATE', '*'] })).toEqual([`${p}.operations: Invalid value: []admissionregistration.OperationType{"CREATE", "*"}: if '*' is present, must not specify other operations`]);
    expect(rule({ operations: ['PATCH'] })).toEqual([`${p}.operations[0]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"`]);
  });
  test('groups and versions', () => {
    expect(rule({ apiGroups: [], apiVersions: [] })).toEqual([`${p}.apiGroups: Required value`, `${p}.apiVersions: Required value`]);
    expect(rule({ apiGroups: ['*', 'apps'] })).toEqual([`${p}.apiGroups: Invalid value: []string{"*", "apps"}: if '*' is present, must not specify other API groups`]);
    expect(rule({ apiVersions: ['*', 'v1'] })).toEqual([`${p}.apiVersions: Invalid value: []string{"*", "v1"}: if '*' is present, must not specify other API versions`]);
    expect(rule({ apiVersions: ['v1', ''] })).toEqual([`${p}.apiVersions[1]: Required value`]);
  });
  test('resources and their wildcards', () => {
    expect(rule({ resources: [] })).toEqual([`${p}.resources: Required value`]);
    expect(rule({ resources: ['pods', ''] })).toEqual([`${p}.resources[1]: Required value`]);
    expect(rule({ resources: ['*/*', 'pods'] })).toEqual([`${p}.resources: Invalid value: []string{"*/*", "pods"}: if '*/*' is present, must not specify other resources`]);
    expect(rule({ resources: ['pods/*', 'pods/status'] })).toEqual([`${p}.resources[1]: Invalid value: "pods/status": if 'pods/*' is present, must not specify pods/status`]);
    expect(rule({ resources: ['*/scale', 'deployments/scale'] })).toEqual([`${p}.resources[1]: Invalid value: "deployments/scale": if '*/scale' is present, must not specify deployments/scale`]);
    expect(rule({ resources: ['*', 'pods'] })).toEqual([`${p}.resources: Invalid value: []string{"*", "pods"}: if '*' is present, must not specify other resources without subresources`]);
    expect(rule({ resources: ['*', 'pods/status', '*/scale'] })).toEqual([]);
    expect(rule({ resources: ['*/*'] })).toEqual([]);
  });
  test('scope', () => {
    expect(rule({ scope: 'Global' })).toEqual([`${p}.scope: Unsupported value: "Global": supported values: "*", "Cluster", "Namespaced"`]);
    expect(rule({ scope: 'Namespaced' })).toEqual([]);
  });
});

describe('webhook policies and limits', () => {
  test('failurePolicy and matchPolicy', () => {
    expect(one({ failurePolicy: 'Maybe', matchPolicy: 'Close' })).toEqual([
      'webhooks[0].failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore"',
      'webhooks[0].matchPolicy: Unsupported value: "Close": supported values: "Equivalent", "Exact"',
    ]);
  });
  test('sideEffects is required, None or NoneOnDryRun', () => {
    expect(one({ sideEffects: undefined })).toEqual(['webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun']);
    expect(one({ sideEffects: 'Some' })).toEqual(['webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"']);
    expect(one({ sideEffects: 'NoneOnDryRun' })).toEqual([]);
  });
  test('timeoutSeconds between 1 and 30', () => {
    expect(one({ timeoutSeconds: 31 })).toEqual(['webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds']);
    expect(one({ timeoutSeconds: 0 })).toEqual(['webhooks[0].timeoutSeconds: Invalid value: 0: the timeout value must be between 1 and 30 seconds']);
    expect(one({ timeoutSeconds: 30 })).toEqual([]);
  });
  test('admissionReviewVersions: required, v1 or v1beta1 among them, no duplicates, DNS-1035 labels', () => {
    expect(one({ admissionReviewVersions: [] })).toEqual(['webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1']);
    expect(one({ admissionReviewVersions: ['v2'] })).toEqual(['webhooks[0].admissionReviewVersions: Invalid value: []string{"v2"}: must include at least one of v1, v1beta1']);
    expect(one({ admissionReviewVersions: ['v1', 'v1'] })).toEqual(['webhooks[0].admissionReviewVersions[1]: Invalid value: "v1": duplicate version']);
    expect(one({ admissionReviewVersions: ['V2', 'v1beta1'] })).toEqual([`webhooks[0].admissionReviewVersions[0]: Invalid value: "V2": ${DNS1035}`]);
  });
  test('reinvocationPolicy, for mutating webhooks only', () => {
    expect(one({ reinvocationPolicy: 'Always' }, mutating)).toEqual(['webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"']);
  });
  test('namespace and object selectors are label selectors', () => {
    expect(one({ namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'In' }] }, objectSelector: { matchExpressions: [{ key: 'env', operator: 'Exists', values: ['x'] }] } })).toEqual([
      "webhooks[0].namespaceSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      "webhooks[0].objectSelector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
    ]);
  });
});

describe('webhook match conditions', () => {
  const mc = (conditions: Obj[], def: ResourceDefinition = validating) => one({ matchConditions: conditions }, def);
  test('valid conditions read the request, objects and the authorizer', () => {
    expect(mc([{ name: 'not-kube-system', expression: "request.namespace != 'kube-system' && has(object.metadata.labels)" }, { name: 'b', expression: 'authorizer != null' }])).toEqual([]);
  });
  test('names: required, qualified, unique', () => {
    expect(mc([{ name: '', expression: 'true' }])).toEqual(['webhooks[0].matchConditions[0].name: Required value']);
    expect(mc([{ name: 'a b', expression: 'true' }])).toEqual([`webhooks[0].matchConditions[0].name: Invalid value: "a b": ${NAME_PART}`]);
    expect(mc([{ name: 'a', expression: 'true' }, { name: 'a', expression: 'false' }])).toEqual(['webhooks[0].matchConditions[1].name: Duplicate value: "a"']);
  });
  test('at most 64', () => {
    const many = Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, expression: 'true' }));
    expect(mc(many)).toEqual(['webhooks[0].matchConditions: Too many: 65: must have at most 64 items']);
  });
  test('expressions must compile to a bool; webhooks have no params', () => {
    expect(mc([{ name: 'a', expression: '  ' }])).toEqual(['webhooks[0].matchConditions[0].expression: Required value']);
    expect(mc([{ name: 'a', expression: ' 1 ' }])).toEqual(['webhooks[0].matchConditions[0].expression: Invalid value: "1": must evaluate to bool but got int']);
    expect(mc([{ name: 'a', expression: "params.x == 'y'" }])).toEqual([
      "webhooks[0].matchConditions[0].expression: Invalid value: \"params.x == 'y'\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')\n | params.x == 'y'\n | ^",
    ]);
    expect(mc([{ name: 'a', expression: 'request.nope' }], mutating)).toEqual([
      "webhooks[0].matchConditions[0].expression: Invalid value: \"request.nope\": compilation failed: ERROR: <input>:1:8: undefined field 'nope'\n | request.nope\n | .......^",
    ]);
    expect(mc([{ name: 'a', expression: 'variables.x' }])[0]).toContain("undeclared reference to 'variables'");
  });
});

describe('webhook configuration updates', () => {
  test('rules a stored configuration already broke stay relaxed', () => {
    const legacy = [hook({ sideEffects: 'Some', admissionReviewVersions: ['v2'] }), hook({ sideEffects: 'Unknown', admissionReviewVersions: ['v2'] })];
    expect(update(legacy, legacy)).toEqual([]);
    expect(create(legacy)).toEqual([
      'webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
      'webhooks[0].admissionReviewVersions: Invalid value: []string{"v2"}: must include at least one of v1, v1beta1',
      'webhooks[1].sideEffects: Unsupported value: "Unknown": supported values: "None", "NoneOnDryRun"',
      'webhooks[1].admissionReviewVersions: Invalid value: []string{"v2"}: must include at least one of v1, v1beta1',
      'webhooks[1].name: Duplicate value: "hook.example.com"',
    ]);
  });
  test('a stored valid configuration keeps the strict rules', () => {
    expect(update([hook({ sideEffects: 'Some' })], [hook()])).toEqual(['webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"']);
  });
  test('invalid label values in selectors are kept only where stored', () => {
    const sel = { namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'In', values: ['a b'] }] } };
    expect(one(sel)).toHaveLength(1);
    expect(update([hook(sel)], [hook(sel)])).toEqual([]);
    expect(update([hook(sel)], [hook()])).toHaveLength(1);
  });
  test('unchanged match conditions are not compiled again', () => {
    const stale = hook({ matchConditions: [{ name: 'a', expression: 'params.x' }] });
    expect(update([{ ...stale, timeoutSeconds: 5 }], [stale])).toEqual([]);
    expect(update([hook({ matchConditions: [{ name: 'b', expression: 'params.x' }] })], [stale])[0]).toContain("undeclared reference to 'params'");
  });
});

describe('webhook configuration schema and table', () => {
  test('unknown fields are reported by path; unset sideEffects and versions are written as null', () => {
    const obj = { metadata: { name: 'c' }, webhooks: [{ name: 'a.b.c', clientConfig: { url: 'https://x' }, bogus: 1 }] };
    expect(checkAndPrune(obj, schemaOf(validating.schemaRoot!), '', validating.kind)).toEqual({ unknownFields: ['webhooks[0].bogus'], typeErrors: [] });
    shapeAsGo(obj as KObject, schemaOf(mutating.schemaRoot!));
    expect(obj.webhooks[0]).toMatchObject({ sideEffects: null, admissionReviewVersions: null });
  });
  test('kubectl columns: Name, Webhooks, Age', () => {
    for (const def of [validating, mutating]) {
      expect(def.table!.columns.map((c) => c.name)).toEqual(['Name', 'Webhooks', 'Age']);
      const obj = config(def, [hook(), hook({ name: 'b.example.com' })]);
      obj.metadata.creationTimestamp = new Date(fixedNow.getTime() - 90_000).toISOString();
      expect(def.table!.cells(obj, fixedNow)).toEqual(['config', 2, '90s']);
      expect(def.table!.cells(config(def, []), fixedNow)[1]).toBe(0);
    }
  });
});
