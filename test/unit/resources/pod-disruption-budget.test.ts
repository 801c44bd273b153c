/** PodDisruptionBudget: spec and status rules with upstream's paths and messages, strategy, flags, table. */
import 'reflect-metadata';
import { errorText, FieldError } from '../../../src/machinery/field-errors';
import type { KObject } from '../../../src/machinery/object';
import { checkAndPrune } from '../../../src/machinery/schema/decode';
import { schemaOf, propertySchema } from '../../../src/machinery/schema/schema';
import { bumpGeneration, shapeAsStored } from '../../../src/registry/admission';
import { podDisruptionBudgetDefinition as def } from '../../../src/resources/pod-disruption-budget';
import { DISRUPTION_ALLOWED, DisruptionAllowedReasons } from '../../../src/resources/pod-disruption-budget/pdb.conditions';
import { fixedNow, strategyContext } from '../../support/strategy-context';

const ctx = strategyContext();
const pdb = (spec?: Record<string, unknown>, status?: Record<string, unknown>): KObject => ({
  metadata: { name: 'web', namespace: 'default', generation: 1 },
  ...(spec ? { spec: structuredClone(spec) } : {}),
  ...(status ? { status: structuredClone(status) } : {}),
});
const texts = (errs: FieldError[] | Promise<FieldError[]>) => (errs as FieldError[]).map((e) => [e.type, errorText(e)]);
const create = (spec: Record<string, unknown>) => texts(def.strategy.validate(pdb(spec), ctx));
const update = (spec: Record<string, unknown>, oldSpec: Record<string, unknown>) => texts(def.strategy.validateUpdate(pdb(spec), pdb(oldSpec), ctx));
const statusUpdate = (status: Record<string, unknown>) => texts(def.subresources.status.validateUpdate(pdb({}, status), pdb({}), ctx));

const PERCENT_MSG = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const QNAME_NAME_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const REASON_MSG =
  "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')";

describe('PodDisruptionBudget spec', () => {
  test('typical budgets are valid', () => {
    expect(create({})).toEqual([]);
    expect(create({ minAvailable: 2, selector: { matchLabels: { app: 'web' } } })).toEqual([]);
    expect(create({ maxUnavailable: '25%', selector: {}, unhealthyPodEvictionPolicy: 'AlwaysAllow' })).toEqual([]);
    expect(create({ minAvailable: '100%', unhealthyPodEvictionPolicy: 'IfHealthyBudget' })).toEqual([]);
    expect(create({ maxUnavailable: 0 })).toEqual([]);
  });

  test('minAvailable and maxUnavailable are mutually exclusive', () => {
    expect(create({ minAvailable: 1, maxUnavailable: 1 })).toEqual([
      ['FieldValueInvalid', 'spec: Invalid value: {"minAvailable":1,"maxUnavailable":1}: minAvailable and maxUnavailable cannot be both set'],
    ]);
  });

  test('integers must be non-negative', () => {
    expect(create({ minAvailable: -1 })).toEqual([['FieldValueInvalid', 'spec.minAvailable: Invalid value: -1: must be greater than or equal to 0']]);
    expect(create({ maxUnavailable: -3 })).toEqual([['FieldValueInvalid', 'spec.maxUnavailable: Invalid value: -3: must be greater than or equal to 0']]);
  });

  test('strings must be percentages up to 100%', () => {
    expect(create({ minAvailable: 'half' })).toEqual([
      ['FieldValueInvalid', `spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"half"}: ${PERCENT_MSG}`],
    ]);
    expect(create({ maxUnavailable: '101%' })).toEqual([
      ['FieldValueInvalid', 'spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"101%"}: must not be greater than 100%'],
    ]);
  });

  test('the selector is a valid LabelSelector', () => {
    expect(create({ selector: { matchExpressions: [{ key: 'app', operator: 'In' }] } })).toEqual([
      ['FieldValueRequired', "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"],
    ]);
    expect(create({ selector: { matchExpressions: [{ key: 'app', operator: 'Exists', values: ['x'] }] } })).toEqual([
      ['FieldValueForbidden', "spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"],
    ]);
    expect(create({ selector: { matchExpressions: [{ key: 'app', operator: 'Near', values: ['x'] }] } })).toEqual([
      ['FieldValueInvalid', 'spec.selector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator'],
    ]);
    expect(create({ selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['a b'] }] } })).toEqual([
      ['FieldValueInvalid', `spec.selector.matchExpressions[0].values[0]: Invalid value: "a b": ${LABEL_VALUE_MSG}`],
    ]);
    expect(create({ selector: { matchLabels: { app: 'a b' } } })).toEqual([['FieldValueInvalid', `spec.selector.matchLabels: Invalid value: "a b": ${LABEL_VALUE_MSG}`]]);
  });

  test('an update may keep a bad label value the stored selector already had', () => {
    const bad = { selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['a b'] }] } };
    expect(update({ ...bad, minAvailable: 1 }, bad)).toEqual([]);
    expect(update({ ...bad, minAvailable: 1 }, {})).toEqual([
      ['FieldValueInvalid', `spec.selector.matchExpressions[0].values[0]: Invalid value: "a b": ${LABEL_VALUE_MSG}`],
    ]);
  });

  test('the spec is mutable and re-validated on update', () => {
    expect(update({ minAvailable: 3 }, { maxUnavailable: 1 })).toEqual([]);
    expect(update({ minAvailable: -1 }, { minAvailable: 1 })).toEqual([['FieldValueInvalid', 'spec.minAvailable: Invalid value: -1: must be greater than or equal to 0']]);
  });

  test('unhealthyPodEvictionPolicy is IfHealthyBudget or AlwaysAllow', () => {
    expect(create({ unhealthyPodEvictionPolicy: 'Sometimes' })).toEqual([
      ['FieldValueNotSupported', 'spec.unhealthyPodEvictionPolicy: Unsupported value: "Sometimes": supported values: "AlwaysAllow", "IfHealthyBudget"'],
    ]);
  });
});

describe('PodDisruptionBudget status', () => {
  const cond = (over: Record<string, unknown> = {}) => ({
    type: DISRUPTION_ALLOWED,
    status: 'True',
    reason: DisruptionAllowedReasons.sufficientPods,
    message: '',
    lastTransitionTime: '2026-01-02T03:04:05Z',
    observedGeneration: 1,
    ...over,
  });

  test('a controller status is valid, with each DisruptionAllowed reason', () => {
    for (const [reason, status] of [
      [DisruptionAllowedReasons.syncFailed, 'False'],
      [DisruptionAllowedReasons.insufficientPods, 'False'],
      [DisruptionAllowedReasons.sufficientPods, 'True'],
    ]) {
      const s = { observedGeneration: 1, disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3, conditions: [cond({ reason, status })] };
      expect(statusUpdate({ ...s, disruptedPods: { 'web-1': '2026-01-02T03:04:05Z' } })).toEqual([]);
    }
  });

  test('counts must be non-negative', () => {
    expect(statusUpdate({ disruptionsAllowed: -1, currentHealthy: -2, desiredHealthy: -3, expectedPods: -4 })).toEqual([
      ['FieldValueInvalid', 'status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0'],
      ['FieldValueInvalid', 'status.currentHealthy: Invalid value: -2: must be greater than or equal to 0'],
      ['FieldValueInvalid', 'status.desiredHealthy: Invalid value: -3: must be greater than or equal to 0'],
      ['FieldValueInvalid', 'status.expectedPods: Invalid value: -4: must be greater than or equal to 0'],
    ]);
  });

  test('conditions are metav1.Conditions, one per type', () => {
    expect(statusUpdate({ conditions: [cond(), cond()] })).toEqual([['FieldValueDuplicate', 'status.conditions[1].type: Duplicate value: "DisruptionAllowed"']]);
    expect(statusUpdate({ conditions: [cond({ status: 'Maybe' })] })).toEqual([
      ['FieldValueNotSupported', 'status.conditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"'],
    ]);
    expect(statusUpdate({ conditions: [cond({ observedGeneration: -1 })] })).toEqual([
      ['FieldValueInvalid', 'status.conditions[0].observedGeneration: Invalid value: -1: must be greater than or equal to zero'],
    ]);
    expect(statusUpdate({ conditions: [cond({ lastTransitionTime: undefined })] })).toEqual([
      ['FieldValueRequired', 'status.conditions[0].lastTransitionTime: Required value: must be set'],
    ]);
    expect(statusUpdate({ conditions: [cond({ reason: '' })] })).toEqual([['FieldValueRequired', 'status.conditions[0].reason: Required value: must be set']]);
    expect(statusUpdate({ conditions: [cond({ reason: 'Not ok' })] })).toEqual([
      ['FieldValueInvalid', `status.conditions[0].reason: Invalid value: "Not ok": ${REASON_MSG}`],
    ]);
    expect(statusUpdate({ conditions: [cond({ message: 'x'.repeat(32 * 1024 + 1) })] })).toEqual([
      ['FieldValueTooLong', 'status.conditions[0].message: Too long: may not be more than 32768 bytes'],
    ]);
    expect(statusUpdate({ conditions: [cond({ type: 'Not-ok-' })] })).toEqual([
      ['FieldValueInvalid', `status.conditions[0].type: Invalid value: "Not-ok-": ${QNAME_NAME_MSG}`],
    ]);
  });
});

describe('PodDisruptionBudget strategy', () => {
  test('create starts from an empty status, stored with a spec object and the four counts (no omitempty upstream)', () => {
    const obj = pdb(undefined, { disruptionsAllowed: 9 });
    def.strategy.prepareForCreate!(obj, ctx);
    expect(obj.status).toEqual({});
    shapeAsStored(def, obj);
    expect(obj.status).toEqual({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });
    expect(obj.spec).toEqual({});
  });

  test('/status keeps the stored spec, takes metadata changes (no ResetObjectMetaForStatus upstream) and may set observedGeneration', () => {
    const old = pdb({ minAvailable: 1 });
    old.metadata.labels = { a: 'b' };
    const obj = pdb({ minAvailable: 5 }, { observedGeneration: 1, disruptionsAllowed: 2 });
    obj.metadata.labels = { changed: 'yes' };
    obj.metadata.finalizers = ['example.com/f'];
    expect(def.subresources.status.resetObjectMeta).toBeFalsy();
    def.subresources.status.prepareForUpdate(obj, old, ctx);
    expect(obj.spec).toEqual({ minAvailable: 1 });
    expect(obj.metadata.labels).toEqual({ changed: 'yes' });
    expect(obj.metadata.finalizers).toEqual(['example.com/f']);
    expect(obj.status).toEqual({ observedGeneration: 1, disruptionsAllowed: 2 });
  });

  test('generation is bumped on spec changes only', () => {
    const old = pdb({ minAvailable: 1 });
    const same = pdb({ minAvailable: 1 });
    same.metadata.labels = { x: 'y' };
    bumpGeneration(def, same, old);
    expect(same.metadata.generation).toBe(1);
    const changed = pdb({ minAvailable: 2 });
    bumpGeneration(def, changed, old);
    expect(changed.metadata.generation).toBe(2);
  });
});

describe('PodDisruptionBudget definition', () => {
  test('names, scope and flags as upstream', () => {
    expect(def).toMatchObject({
      group: 'policy',
      version: 'v1',
      kind: 'PodDisruptionBudget',
      listKind: 'PodDisruptionBudgetList',
      plural: 'poddisruptionbudgets',
      singular: 'poddisruptionbudget',
      shortNames: ['pdb'],
      categories: [],
      namespaced: true,
      fieldSelectors: {},
      usesGeneration: true,
      generationFields: ['spec'],
      allowCreateOnUpdate: false,
      allowUnconditionalUpdate: false,
    });
    expect(def.featureGate).toBeUndefined();
    expect(def.subresources.status.verbs).toEqual(['get', 'patch', 'update']);
  });

  test('names only need to be path segments', () => {
    expect(def.validateName('Web:Budget', false)).toEqual([]);
    expect(def.validateName('a/b', false)).toEqual(["may not contain '/'"]);
  });

  test('selector patches replace; conditions merge by type', () => {
    const spec = propertySchema(schemaOf(def.schemaRoot!), 'spec');
    expect(propertySchema(spec, 'selector')).toMatchObject({ 'x-kubernetes-patch-strategy': 'replace' });
    const status = propertySchema(schemaOf(def.schemaRoot!), 'status');
    expect(propertySchema(status, 'conditions')).toMatchObject({ 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'type' });
  });

  test('every status field a controller writes survives decoding', () => {
    const status = {
      observedGeneration: 2,
      disruptedPods: { 'web-1': '2026-01-02T03:04:05Z' },
      disruptionsAllowed: 1,
      currentHealthy: 2,
      desiredHealthy: 1,
      expectedPods: 2,
      conditions: [{ type: 'DisruptionAllowed', status: 'True', observedGeneration: 2, lastTransitionTime: '2026-01-02T03:04:05Z', reason: 'SufficientPods', message: '' }],
    };
    const obj = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web' }, spec: { minAvailable: '50%', selector: {} }, status: structuredClone(status) };
    expect(checkAndPrune(obj, schemaOf(def.schemaRoot!))).toEqual({ unknownFields: [], typeErrors: [] });
    expect(obj.status).toEqual(status);
  });

  test('table columns and cells as upstream', () => {
    const t = def.table!;
    expect(t.columns.map((c) => [c.name, c.type])).toEqual([
      ['Name', 'string'],
      ['Min Available', 'string'],
      ['Max Unavailable', 'string'],
      ['Allowed Disruptions', 'integer'],
      ['Age', 'string'],
    ]);
    const obj = pdb({ minAvailable: '50%' }, { disruptionsAllowed: 2 });
    obj.metadata.creationTimestamp = new Date(fixedNow.getTime() - 3 * 60 * 60 * 1000).toISOString();
    expect(t.cells(obj, fixedNow)).toEqual(['web', '50%', 'N/A', 2, '3h']);
    expect(t.cells(pdb({ maxUnavailable: 1 }), fixedNow)).toEqual(['web', 'N/A', '1', 0, '<unknown>']);
  });
});
