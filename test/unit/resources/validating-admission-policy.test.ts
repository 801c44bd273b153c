/** ValidatingAdmissionPolicy and its bindings: upstream's defaults, validation paths and messages (CEL compile checks included), status, table and flags. */
import 'reflect-metadata';
import { errorText, FieldError } from '../../../src/machinery/field-errors';
import type { KObject } from '../../../src/machinery/object';
import { checkAndPrune } from '../../../src/machinery/schema/decode';
import { schemaOf } from '../../../src/machinery/schema/schema';
import { allDefinitions } from '../../../src/resources';
import { validatingAdmissionPolicyDefinition as policyDef } from '../../../src/resources/validating-admission-policy';
import { validatingAdmissionPolicyBindingDefinition as bindingDef } from '../../../src/resources/validating-admission-policy-binding';
import { strategyContext, fixedNow } from '../../support/strategy-context';

const ctx = strategyContext();
type Obj = Record<string, any>;

const DNS1123_SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

const rules = [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }];

function policy(spec: Obj = {}, name = 'policy.example.com', defaults = true): KObject {
  const obj = {
    apiVersion: 'admissionregistration.svc.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: { matchConstraints: { resourceRules: structuredClone(rules) }, validations: [{ expression: "!has(object.metadata.labels) || !('forbidden' in object.metadata.labels)" }], ...structuredClone(spec) },
  } as KObject;
  if (defaults) policyDef.strategy.applyDefaults!(obj, ctx);
  return obj;
}

const texts = (errs: FieldError[] | Promise<FieldError[]>) => (errs as FieldError[]).map(errorText);
const create = (spec: Obj = {}, name?: string) => texts(policyDef.strategy.validate(policy(spec, name), ctx));
const compileError = (path: string, expression: string, col: number, message: string) =>
  `${path}: Invalid value: ${JSON.stringify(expression)}: compilation failed: ERROR: <input>:1:${col}: ${message}\n | ${expression}\n | ${'.'.repeat(col - 1)}^`;

describe('policy and binding definitions', () => {
  test.each([
    ['ValidatingAdmissionPolicy', policyDef, 'validatingadmissionpolicies', 'validatingadmissionpolicy'],
    ['ValidatingAdmissionPolicyBinding', bindingDef, 'validatingadmissionpolicybindings', 'validatingadmissionpolicybinding'],
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
      generationFields: ['spec'],
      allowCreateOnUpdate: false,
      allowUnconditionalUpdate: false,
    });
    expect(allDefinitions).toContain(def);
    expect(def.validateName('Bad_Name', false)).toEqual([DNS1123_SUBDOMAIN]);
  });
  test('policies have a /status subresource that resets metadata; bindings none', () => {
    expect(Object.keys(policyDef.subresources)).toEqual(['status']);
    expect(policyDef.subresources.status).toMatchObject({ verbs: ['get', 'patch', 'update'], resetObjectMeta: true });
    expect(bindingDef.subresources).toEqual({});
  });
});

describe('policy defaults', () => {
  test('failurePolicy Fail; matchPolicy Equivalent, selectors {} and rule scope "*" in matchConstraints', () => {
    const spec = policy({ matchConstraints: { resourceRules: rules, excludeResourceRules: rules } }).spec as Obj;
    expect(spec.failurePolicy).toBe('Fail');
    expect(spec.matchConstraints).toMatchObject({ matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {} });
    expect(spec.matchConstraints.resourceRules[0].scope).toBe('*');
    expect(spec.matchConstraints.excludeResourceRules[0].scope).toBe('*');
    expect(create()).toEqual([]);
  });
  test('without defaults, the fields they fill are required', () => {
    expect(texts(policyDef.strategy.validate(policy({}, undefined, false), ctx))).toEqual([
      'spec.failurePolicy: Required value',
      'spec.matchConstraints.matchPolicy: Required value',
      'spec.matchConstraints.namespaceSelector: Required value',
      'spec.matchConstraints.objectSelector: Required value',
    ]);
  });
});

describe('policy spec', () => {
  test('failurePolicy', () => {
    expect(create({ failurePolicy: 'Maybe' })).toEqual(['spec.failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore"']);
  });
  test('matchConstraints with at least one resource rule', () => {
    expect(create({ matchConstraints: null })).toEqual(['spec.matchConstraints: Required value']);
    expect(create({ matchConstraints: {} })).toEqual(['spec.matchConstraints.resourceRules: Required value']);
    expect(create({ matchConstraints: { resourceRules: rules, matchPolicy: 'Close' } })).toEqual([
      'spec.matchConstraints.matchPolicy: Unsupported value: "Close": supported values: "Equivalent", "Exact"',
    ]);
  });
  test('resource rules: names and rules', () => {
    const rule = { ...rules[0], resourceNames: ['a/b', 'x', 'x', '..'], operations: [] };
    const p = 'spec.matchConstraints.resourceRules[0]';
    expect(create({ matchConstraints: { resourceRules: [rule] } })).toEqual([
      `${p}.resourceNames[0]: Invalid value: "a/b": may not contain '/'`,
      `${p}.resourceNames[2]: Duplicate value: "x"`,
      `${p}.resourceNames[3]: Invalid value: "..": may not be '..'`,
      `${p}.operations: Required value`,
    ]);
    expect(create({ matchConstraints: { resourceRules: rules, excludeResourceRules: [{ ...rules[0], resources: ['*', 'pods'] }] } })).toEqual([
      `spec.matchConstraints.excludeResourceRules[0].resources: Invalid value: []string{"*", "pods"}: if '*' is present, must not specify other resources without subresources`,
    ]);
  });
  test('selectors are checked strictly', () => {
    expect(create({ matchConstraints: { resourceRules: rules, objectSelector: { matchLabels: { 'a b': 'x' } } } })).toEqual([
      `spec.matchConstraints.objectSelector.matchLabels: Invalid value: "a b": ${NAME_PART}`,
    ]);
  });
  test('paramKind', () => {
    const pk = (paramKind: Obj) => create({ paramKind });
    expect(pk({ apiVersion: 'v1', kind: 'ConfigMap' })).toEqual([]);
    expect(pk({ apiVersion: 'example.com/v1', kind: 'PolicyParams' })).toEqual([]);
    expect(pk({})).toEqual(['spec.paramKind.apiVersion: Required value', 'spec.paramKind.kind: Required value']);
    expect(pk({ apiVersion: 'a/b/c', kind: 'X' })).toEqual(['spec.paramKind.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c']);
    expect(pk({ apiVersion: 'Example.com/v1', kind: 'X' })).toEqual([`spec.paramKind.apiVersion: Invalid value: "Example.com": ${DNS1123_SUBDOMAIN}`]);
    expect(pk({ apiVersion: 'example.com/', kind: 'X' })).toEqual(['spec.paramKind.apiVersion: Invalid value: "example.com/": version must be specified']);
    expect(pk({ apiVersion: 'V1', kind: 'X' })).toEqual([`spec.paramKind.apiVersion: Invalid value: "V1": ${DNS1035}`]);
    expect(pk({ apiVersion: 'v1', kind: 'Config_Map' })).toEqual([`spec.paramKind.kind: Invalid value: "Config_Map": may have mixed case, but should otherwise match: ${DNS1035}`]);
  });
  test('at least one validation or audit annotation', () => {
    const why = 'Required value: validations or auditAnnotations must contain at least one item';
    expect(create({ validations: [] })).toEqual([`spec.validations: ${why}`, `spec.auditAnnotations: ${why}`]);
    expect(create({ validations: [], auditAnnotations: [{ key: 'k', valueExpression: "'v'" }] })).toEqual([]);
  });
});

describe('policy validations', () => {
  const v = (validation: Obj, spec: Obj = {}) => create({ validations: [validation], ...spec });
  const p = 'spec.validations[0]';
  test('expression: required, compiles, a bool', () => {
    expect(v({ expression: ' ' })).toEqual([`${p}.expression: Required value: expression is not specified`]);
    expect(v({ expression: 'object.spec' })).toEqual([`${p}.expression: Invalid value: "object.spec": must evaluate to bool but got dyn`]);
    expect(v({ expression: "request.operation == 1 || request.userInfo.username.startsWith('system:')" })).toEqual([
      compileError(`${p}.expression`, "request.operation == 1 || request.userInfo.username.startsWith('system:')", 19, "found no matching overload for '_==_' applied to '(string, int)'"),
    ]);
    expect(v({ expression: "namespaceObject.metadata.labels['env'] == 'prod' && oldObject == null" })).toEqual([]);
  });
  test('params only with a paramKind', () => {
    const expression = "object.data.size() <= params.data.size()";
    expect(v({ expression })).toEqual([compileError(`${p}.expression`, expression, 23, "undeclared reference to 'params' (in container '')")]);
    expect(v({ expression }, { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } })).toEqual([]);
  });
  test('messageExpression: a string, without the authorizer', () => {
    expect(v({ expression: 'true', messageExpression: "'name ' + object.metadata.name" })).toEqual([]);
    expect(v({ expression: 'true', messageExpression: '  ' })).toEqual([`${p}.messageExpression: Invalid value: "  ": must be non-empty if specified`]);
    expect(v({ expression: 'true', messageExpression: ' 42' })).toEqual([`${p}.messageExpression: Invalid value: " 42": must evaluate to string but got int`]);
    expect(v({ expression: 'authorizer != null', messageExpression: "string(authorizer)" })).toEqual([
      compileError(`${p}.messageExpression`, 'string(authorizer)', 8, "undeclared reference to 'authorizer' (in container '')"),
    ]);
  });
  test('message: one non-empty line', () => {
    expect(v({ expression: 'true', message: '   ' })).toEqual([`${p}.message: Invalid value: "   ": message must be non-empty if specified`]);
    expect(v({ expression: 'true', message: 'two\nlines' })).toEqual([`${p}.message: Invalid value: "two\\nlines": message must not contain line breaks`]);
    expect(v({ expression: 'true', message: 'trailing newline\n' })).toEqual([]);
  });
  test('reason', () => {
    expect(v({ expression: 'true', reason: 'Invalid' })).toEqual([]);
    expect(v({ expression: 'true', reason: 'Unauthorized' })).toEqual([`${p}.reason: Unsupported value: "Unauthorized": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge"`]);
  });
});

describe('policy variables', () => {
  const vars = (variables: Obj[], validations: Obj[] = [{ expression: 'true' }]) => create({ variables, validations });
  test('names: required, CEL identifiers, unique', () => {
    expect(vars([{ name: '  ', expression: 'true' }])).toEqual(['spec.variables[0].name: Required value: name is not specified']);
    expect(vars([{ name: '4ever', expression: 'true' }])).toEqual(['spec.variables[0].name: Invalid value: "4ever": name is not a valid CEL identifier']);
    expect(vars([{ name: 'in', expression: 'true' }])).toEqual(['spec.variables[0].name: Invalid value: "in": name is not a valid CEL identifier']);
    expect(vars([{ name: 'a', expression: '1' }, { name: 'a', expression: '2' }])).toEqual(['spec.variables[1].name: Duplicate value: "a"']);
  });
  test('expressions: required, compiled in order, each typed for those after it', () => {
    expect(vars([{ name: 'foo', expression: '' }])).toEqual(['spec.variables[0].expression: Required value: expression is not specified']);
    expect(vars([{ name: 'foo', expression: 'request.name + 1' }])).toEqual([
      compileError('spec.variables[0].expression', 'request.name + 1', 14, "found no matching overload for '_+_' applied to '(string, int)'"),
    ]);
    expect(vars([{ name: 'replicas', expression: 'object.spec.replicas' }, { name: 'big', expression: 'variables.replicas > 5' }], [{ expression: '!variables.big' }])).toEqual([]);
    expect(vars([{ name: 'n', expression: '1' }], [{ expression: "variables.n == 'one'" }])).toEqual([
      compileError('spec.validations[0].expression', "variables.n == 'one'", 13, "found no matching overload for '_==_' applied to '(int, string)'"),
    ]);
    expect(vars([{ name: 'early', expression: 'variables.late' }, { name: 'late', expression: 'true' }])).toEqual([
      compileError('spec.variables[0].expression', 'variables.late', 10, "undefined field 'late'"),
    ]);
    expect(vars([{ name: 'bad', expression: 'nope' }], [{ expression: 'variables.bad' }])).toEqual([
      compileError('spec.variables[0].expression', 'nope', 1, "undeclared reference to 'nope' (in container '')"),
      // A variable that does not compile is declared as dyn.
      'spec.validations[0].expression: Invalid value: "variables.bad": must evaluate to bool but got dyn',
    ]);
  });
  test('without variables, `variables` is not declared', () => {
    expect(create({ validations: [{ expression: 'variables.x' }] })).toEqual([
      compileError('spec.validations[0].expression', 'variables.x', 1, "undeclared reference to 'variables' (in container '')"),
    ]);
  });
});

describe('policy audit annotations and match conditions', () => {
  const aa = (auditAnnotations: Obj[], name?: string) => create({ auditAnnotations }, name);
  const p = 'spec.auditAnnotations';
  test('keys: qualified as <policy name>/<key>, unique', () => {
    expect(aa([{ key: 'a b', valueExpression: "'v'" }])).toEqual([`${p}[0].key: Invalid value: "policy.example.com/a b": ${NAME_PART}`]);
    expect(aa([{ key: 'k', valueExpression: "'v'" }, { key: 'k', valueExpression: 'null' }])).toEqual([`${p}[1].key: Duplicate value: "k"`]);
    expect(aa([{ key: 'k', valueExpression: "'v'" }], '')).toEqual([`${p}[0].key: Invalid value: "k": requires metadata.name be non-empty`]);
  });
  test('value expressions: required, at most 5 KiB, a string or null', () => {
    expect(aa([{ key: 'k', valueExpression: ' ' }])).toEqual([`${p}[0].valueExpression: Required value: valueExpression is not specified`]);
    expect(aa([{ key: 'k', valueExpression: `'${'x'.repeat(5120)}'` }])).toEqual([`${p}[0].valueExpression: Required value: must not exceed 5120 bytes in length`]);
    expect(aa([{ key: 'k', valueExpression: ' 1' }])).toEqual([`${p}[0].valueExpression: Invalid value: " 1": must evaluate to one of [string null_type] but got int`]);
    expect(aa([{ key: 'k', valueExpression: "object.metadata.name == 'x' ? 'matched' : 'other'" }, { key: 'n', valueExpression: 'null' }])).toEqual([]);
  });
  test('at most 20', () => {
    const many = Array.from({ length: 21 }, (_, i) => ({ key: `k${i}`, valueExpression: "'v'" }));
    const errs = aa(many);
    expect(errs).toHaveLength(1);
    expect(errs[0]).toMatch(/^spec\.auditAnnotations: Invalid value: \[\]admissionregistration\.AuditAnnotation\{admissionregistration\.AuditAnnotation\{Key:"k0", ValueExpression:"'v'"\}, /);
    expect(errs[0]).toMatch(/: must not have more than 20 auditAnnotations$/);
  });
  test('match conditions may read params when the policy has a paramKind', () => {
    const matchConditions = [{ name: 'exempt', expression: "!(object.metadata.name in params.data)" }];
    expect(create({ matchConditions })[0]).toContain("spec.matchConditions[0].expression: Invalid value: \"!(object.metadata.name in params.data)\": compilation failed: ERROR: <input>:1:27: undeclared reference to 'params'");
    expect(create({ matchConditions, paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } })).toEqual([]);
    expect(create({ matchConditions: [{ name: 'a', expression: 'true' }, { name: 'a', expression: 'false' }] })).toEqual(['spec.matchConditions[1].name: Duplicate value: "a"']);
  });
});

describe('policy updates and status', () => {
  const update = (spec: Obj, oldSpec: Obj) => texts(policyDef.strategy.validateUpdate(policy(spec), policy(oldSpec), ctx));
  test('unchanged match conditions (with the same paramKind) are not compiled again', () => {
    const stale = { matchConditions: [{ name: 'a', expression: "params.x == 'y'" }] };
    expect(update({ ...stale, failurePolicy: 'Ignore' }, stale)).toEqual([]);
    expect(update({ ...stale, paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } }, stale)).toEqual([]);
    expect(update({ matchConditions: [{ name: 'b', expression: "params.x == 'y'" }] }, stale)[0]).toContain("undeclared reference to 'params'");
  });
  test('the rest is validated as on create', () => {
    expect(update({ validations: [{ expression: '1' }] }, {})).toEqual(['spec.validations[0].expression: Invalid value: "1": must evaluate to bool but got int']);
  });
  test('/status keeps the stored spec and checks type checking warnings and conditions', () => {
    const sub = policyDef.subresources.status;
    const old = policy();
    const obj = policy({ failurePolicy: 'Ignore' });
    obj.status = {
      observedGeneration: 1,
      typeChecking: { expressionWarnings: [{ fieldRef: 'spec.validations[0].expression', warning: 'no such field' }, { fieldRef: ' ', warning: '' }] },
      conditions: [{ type: 'Ready', status: 'Maybe', lastTransitionTime: '2026-01-02T03:04:05Z', reason: 'Checked', message: '' }],
    };
    sub.prepareForUpdate(obj, old, ctx);
    expect((obj.spec as Obj).failurePolicy).toBe('Fail');
    expect(texts(sub.validateUpdate(obj, old, ctx))).toEqual([
      'status.typeChecking.expressionWarnings[1].warning: Required value',
      'status.typeChecking.expressionWarnings[1].fieldRef: Required value',
      'status.conditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
    ]);
    (obj.status as Obj).typeChecking.expressionWarnings = [{ fieldRef: 'spec.validations[0', warning: 'w' }];
    (obj.status as Obj).conditions = [];
    expect(texts(sub.validateUpdate(obj, old, ctx))[0]).toMatch(/^status\.typeChecking\.expressionWarnings\[0\]\.fieldRef: Invalid value: "spec\.validations\[0": invalid JSONPath: /);
  });
  test('schema: unknown fields are reported by path', () => {
    const obj = { metadata: { name: 'p' }, spec: { validations: [{ expression: 'true', bogus: 1 }] }, status: { typeChecking: { expressionWarnings: [{ fieldRef: 'x', warning: 'y', extra: 1 }] } } };
    expect(checkAndPrune(obj, schemaOf(policyDef.schemaRoot!), '', policyDef.kind)).toEqual({
      unknownFields: ['spec.validations[0].bogus', 'status.typeChecking.expressionWarnings[0].extra'],
      typeErrors: [],
    });
  });
  test('kubectl columns: Name, Validations, ParamKind, Age', () => {
    expect(policyDef.table!.columns.map((c) => c.name)).toEqual(['Name', 'Validations', 'ParamKind', 'Age']);
    const obj = policy({ paramKind: { apiVersion: 'example.com/v1', kind: 'Params' }, validations: [{ expression: 'true' }, { expression: 'false' }] });
    obj.metadata.creationTimestamp = new Date(fixedNow.getTime() - 3 * 3600_000).toISOString();
    expect(policyDef.table!.cells(obj, fixedNow)).toEqual(['policy.example.com', 2, 'example.com/v1/Params', '3h']);
    expect(policyDef.table!.cells(policy(), fixedNow)[2]).toBe('<unset>');
  });
});

function binding(spec: Obj = {}, defaults = true): KObject {
  const obj = {
    apiVersion: 'admissionregistration.svc.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'binding' },
    spec: { policyName: 'policy.example.com', validationActions: ['Deny'], ...structuredClone(spec) },
  } as KObject;
  if (defaults) bindingDef.strategy.applyDefaults!(obj, ctx);
  return obj;
}
const bind = (spec: Obj = {}, defaults = true) => texts(bindingDef.strategy.validate(binding(spec, defaults), ctx));

describe('policy bindings', () => {
  test('a minimal binding is valid; matchResources gets the v1 defaults', () => {
    expect(bind()).toEqual([]);
    const spec = binding({ matchResources: { resourceRules: rules } }).spec as Obj;
    expect(spec.matchResources).toMatchObject({ matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {}, resourceRules: [{ scope: '*' }] });
    expect(texts(bindingDef.strategy.validateUpdate(binding({ policyName: '' }), binding(), ctx))).toEqual(['spec.policyName: Required value']);
  });
  test('policyName', () => {
    expect(bind({ policyName: '' })).toEqual(['spec.policyName: Required value']);
    expect(bind({ policyName: 'Bad_Name' })).toEqual([`spec.policyName: Invalid value: "Bad_Name": ${DNS1123_SUBDOMAIN}`]);
  });
  test('paramRef: name or selector, parameterNotFoundAction', () => {
    const ref = (paramRef: Obj) => bind({ paramRef });
    expect(ref({ name: 'params', namespace: 'default', parameterNotFoundAction: 'Deny' })).toEqual([]);
    expect(ref({ selector: { matchLabels: { app: 'x' } }, parameterNotFoundAction: 'Allow' })).toEqual([]);
    expect(ref({})).toEqual(['spec.paramRef: Required value: one of name or selector must be specified', 'spec.paramRef.parameterNotFoundAction: Required value']);
    expect(ref({ name: 'a/b', selector: {}, parameterNotFoundAction: 'Ignore' })).toEqual([
      'spec.paramRef.name: Invalid value: "a/b": may not contain \'/\'',
      'spec.paramRef.name: Forbidden: name and selector are mutually exclusive',
      'spec.paramRef.selector: Forbidden: name and selector are mutually exclusive',
      'spec.paramRef.parameterNotFoundAction: Unsupported value: "Ignore": supported values: "Deny", "Allow"',
    ]);
    expect(ref({ selector: { matchExpressions: [{ key: 'a', operator: 'Near' }] }, parameterNotFoundAction: 'Deny' })).toEqual([
      'spec.paramRef.selector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator',
    ]);
  });
  test('matchResources, under upstream\'s misspelt path', () => {
    expect(bind({ matchResources: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] } })).toEqual(['spec.matchResouces.resourceRules[0].operations: Required value']);
    expect(bind({ matchResources: {} }, false)).toEqual([
      'spec.matchResouces.matchPolicy: Required value',
      'spec.matchResouces.namespaceSelector: Required value',
      'spec.matchResouces.objectSelector: Required value',
    ]);
  });
  test('validationActions: required, known, unique, not Deny with Warn', () => {
    const va = (validationActions: string[]) => bind({ validationActions });
    expect(va(['Warn', 'Audit'])).toEqual([]);
    expect(va([])).toEqual(['spec.validationActions: Required value: at least one validation action is required']);
    expect(va(['Block'])).toEqual(['spec.validationActions[0]: Unsupported value: "Block": supported values: "Audit", "Deny", "Warn"']);
    expect(va(['Audit', 'Audit'])).toEqual(['spec.validationActions[1]: Duplicate value: "Audit"']);
    expect(va(['Deny', 'Warn'])).toEqual([
      'spec.validationActions: Invalid value: []admissionregistration.ValidationAction{"Deny", "Warn"}: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
    ]);
  });
  test('kubectl columns: Name, PolicyName, ParamRef, Age', () => {
    const cells = (spec: Obj) => bindingDef.table!.cells(binding(spec), fixedNow);
    expect(bindingDef.table!.columns.map((c) => c.name)).toEqual(['Name', 'PolicyName', 'ParamRef', 'Age']);
    expect(cells({}).slice(0, 3)).toEqual(['binding', 'policy.example.com', '<unset>']);
    expect(cells({ paramRef: { name: 'p', namespace: 'ns' } })[2]).toBe('ns/p');
    expect(cells({ paramRef: { name: 'p' } })[2]).toBe('*/p');
    expect(cells({ paramRef: { selector: { matchLabels: { b: '2', a: '1' }, matchExpressions: [{ key: 'k', operator: 'In', values: ['x', 'y'] }] } } })[2]).toBe(
      '&LabelSelector{MatchLabels:map[string]string{a: 1,b: 2,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:k,Operator:In,Values:[x y],},},}',
    );
  });
});
