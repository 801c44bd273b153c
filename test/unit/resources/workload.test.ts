/** Workload: upstream's v1beta1 rules (paths, reasons, messages), immutability on update, gated fields, flags. */
import 'reflect-metadata';
import { errorText, FieldError } from '../../../src/machinery/field-errors';
import { FeatureGates } from '../../../src/machinery/feature-gates';
import type { KObject } from '../../../src/machinery/object';
import { itemSchema, propertySchema, schemaOf } from '../../../src/machinery/schema/schema';
import { allDefinitions } from '../../../src/resources';
import { workloadDefinition as def } from '../../../src/resources/workload';
import { fixedNow, strategyContext } from '../../support/strategy-context';

type Spec = Record<string, unknown>;
const defaults = strategyContext();
const all = strategyContext({ CompositePodGroup: true, PodGroupPreemptionPolicy: true, TopologyAwareWorkloadScheduling: true });
const wl = (spec: Spec): KObject => ({ metadata: { name: 'w', namespace: 'default' }, spec: structuredClone(spec) });
const texts = (errs: FieldError[] | Promise<FieldError[]>) => (errs as FieldError[]).map((e) => [e.type, errorText(e)]);
const create = (spec: Spec, ctx = all) => texts(def.strategy.validate(wl(spec), ctx));
const update = (spec: Spec, old: Spec, ctx = all) => texts(def.strategy.validateUpdate(wl(spec), wl(old), ctx));

const pg = (name: string, extra: Spec = {}) => ({ name, schedulingPolicy: { basic: {} }, ...extra });
const gang = (name: string, minCount: number, extra: Spec = {}) => ({ name, schedulingPolicy: { gang: { minCount } }, ...extra });
const cpg = (name: string, extra: Spec = {}) => ({ name, schedulingPolicy: { gang: { minGroupCount: 1 } }, podGroupTemplates: [pg(`${name}-pg`)], ...extra });
const pgs = (...templates: unknown[]) => ({ podGroupTemplates: templates });
const cpgs = (...templates: unknown[]) => ({ compositePodGroupTemplates: templates });

const DNS_LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS_SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const PG = 'spec.podGroupTemplates';
const CPG = 'spec.compositePodGroupTemplates';

describe('Workload spec on create', () => {
  test('typical workloads are valid', () => {
    expect(create(pgs(pg('workers'), gang('leaders', 1)), defaults)).toEqual([]);
    expect(create({ controllerRef: { apiGroup: 'batch', kind: 'Job', name: 'train' }, ...pgs(gang('all', 4, { disruptionMode: { all: {} }, priorityClassName: 'high', priority: 1000 })) })).toEqual([]);
    expect(create(cpgs({ name: 'root', schedulingPolicy: { basic: {} }, compositePodGroupTemplates: [cpg('rack-a')], podGroupTemplates: [pg('driver')] }))).toEqual([]);
  });

  test('exactly one of podGroupTemplates and compositePodGroupTemplates', () => {
    const members = '`podGroupTemplates`, `compositePodGroupTemplates`';
    expect(create({})).toEqual([['FieldValueInvalid', `spec: Invalid value: "": must specify one of: ${members}`]]);
    expect(create({ ...pgs(pg('a')), ...cpgs(cpg('b')) })).toEqual([
      ['FieldValueInvalid', `spec: Invalid value: "{podGroupTemplates, compositePodGroupTemplates}": must specify exactly one of: ${members}`],
    ]);
  });

  test('at most 8 templates at each level', () => {
    const nine = Array.from({ length: 9 }, (_, i) => pg(`g${i}`));
    expect(create(pgs(...nine))).toEqual([['FieldValueTooMany', `${PG}: Too many: 9: must have at most 8 items`]]);
    expect(create(cpgs(cpg('root', { podGroupTemplates: nine })))).toEqual([
      ['FieldValueTooMany', `${CPG}[0].podGroupTemplates: Too many: 9: must have at most 8 items`],
    ]);
    const nested = Array.from({ length: 9 }, (_, i) => cpg(`c${i}`));
    expect(create(cpgs(cpg('root', { compositePodGroupTemplates: nested })))).toEqual([
      ['FieldValueTooMany', `${CPG}[0].compositePodGroupTemplates: Too many: 9: must have at most 8 items`],
    ]);
  });

  test('template names are unique DNS labels', () => {
    expect(create(pgs(pg('')))).toEqual([['FieldValueRequired', `${PG}[0].name: Required value`]]);
    expect(create(pgs(pg('Workers')))).toEqual([['FieldValueInvalid', `${PG}[0].name: Invalid value: "Workers": ${DNS_LABEL_MSG}`]]);
    expect(create(pgs(pg('a.b')))).toEqual([['FieldValueInvalid', `${PG}[0].name: Invalid value: "a.b": must not contain dots`]]);
    expect(create(pgs(pg('a'), pg('a')))).toEqual([['FieldValueDuplicate', `${PG}[1]: Duplicate value: {"name":"a","schedulingPolicy":{"basic":{}}}`]]);
    expect(create(cpgs(cpg('Root', { podGroupTemplates: [pg('leaf')] })))).toEqual([['FieldValueInvalid', `${CPG}[0].name: Invalid value: "Root": ${DNS_LABEL_MSG}`]]);
  });

  test('names are unique across the composite tree', () => {
    expect(create(cpgs(cpg('x', { podGroupTemplates: [pg('x')] })))).toEqual([
      ['FieldValueDuplicate', `${CPG}[0].podGroupTemplates[0].name: Duplicate value: "x"`],
    ]);
    expect(create(cpgs(cpg('a'), cpg('b', { podGroupTemplates: [pg('a-pg')] })))).toEqual([
      ['FieldValueDuplicate', `${CPG}[1].podGroupTemplates[0].name: Duplicate value: "a-pg"`],
    ]);
  });

  test('composite templates nest at most three deep', () => {
    const chain = (depth: number): Spec => (depth === 1 ? cpg(`c${depth}`) : cpg(`c${depth}`, { compositePodGroupTemplates: [chain(depth - 1)] }));
    expect(create(cpgs(chain(3)))).toEqual([]);
    const errs = create(cpgs(chain(4)));
    expect(errs).toHaveLength(1);
    expect(errs[0][0]).toBe('FieldValueInvalid');
    expect(errs[0][1]).toMatch(/^spec\.compositePodGroupTemplates\[0\]: Invalid value: \[.*\]: maximum template hierarchy depth is 4$/);
  });

  test('one priority configuration for the whole workload', () => {
    expect(create(pgs(pg('a', { priorityClassName: 'high' }), pg('b')))).toEqual([
      ['FieldValueInvalid', 'spec: Invalid value: null: detected multiple priority configurations'],
    ]);
    expect(create(cpgs(cpg('r', { priority: 5 })))).toEqual([['FieldValueInvalid', 'spec: Invalid value: null: detected multiple priority configurations']]);
  });

  test('pod group schedulingPolicy is exactly one of basic and gang; gang minCount positive', () => {
    expect(create(pgs({ name: 'a', schedulingPolicy: {} }))).toEqual([
      ['FieldValueInvalid', `${PG}[0].schedulingPolicy: Invalid value: "": must specify one of: \`basic\`, \`gang\``],
    ]);
    expect(create(pgs({ name: 'a' }))).toEqual([['FieldValueInvalid', `${PG}[0].schedulingPolicy: Invalid value: "": must specify one of: \`basic\`, \`gang\``]]);
    expect(create(pgs({ name: 'a', schedulingPolicy: { basic: {}, gang: { minCount: 1 } } }))).toEqual([
      ['FieldValueInvalid', `${PG}[0].schedulingPolicy: Invalid value: "{basic, gang}": must specify exactly one of: \`basic\`, \`gang\``],
    ]);
    expect(create(pgs(gang('a', 0)))).toEqual([['FieldValueRequired', `${PG}[0].schedulingPolicy.gang.minCount: Required value`]]);
    expect(create(pgs(gang('a', -2)))).toEqual([['FieldValueInvalid', `${PG}[0].schedulingPolicy.gang.minCount: Invalid value: -2: must be greater than or equal to 1`]]);
  });

  test('composite schedulingPolicy: basic or gang with a positive minGroupCount', () => {
    expect(create(cpgs(cpg('r', { schedulingPolicy: { gang: { minGroupCount: 0 } } })))).toEqual([
      ['FieldValueRequired', `${CPG}[0].schedulingPolicy.gang.minGroupCount: Required value`],
    ]);
    expect(create(cpgs(cpg('r', { schedulingPolicy: { gang: { minGroupCount: -1 } } })))).toEqual([
      ['FieldValueInvalid', `${CPG}[0].schedulingPolicy.gang.minGroupCount: Invalid value: -1: must be greater than or equal to 1`],
    ]);
    expect(create(cpgs(cpg('r', { schedulingPolicy: {} })))).toEqual([
      ['FieldValueInvalid', `${CPG}[0].schedulingPolicy: Invalid value: "": must specify one of: \`basic\`, \`gang\``],
    ]);
  });

  test('a composite template has child templates', () => {
    expect(create(cpgs({ name: 'r', schedulingPolicy: { basic: {} } }))).toEqual([
      ['FieldValueInvalid', `${CPG}[0]: Invalid value: "": must specify at least one of: \`podGroupTemplates\`, \`compositePodGroupTemplates\``],
    ]);
  });

  test('disruptionMode is exactly one of single and all', () => {
    expect(create(pgs(pg('a', { disruptionMode: {} })))).toEqual([
      ['FieldValueInvalid', `${PG}[0].disruptionMode: Invalid value: "": must specify one of: \`single\`, \`all\``],
    ]);
    expect(create(cpgs(cpg('r', { disruptionMode: { single: {}, all: {} } })))).toEqual([
      ['FieldValueInvalid', `${CPG}[0].disruptionMode: Invalid value: "{single, all}": must specify exactly one of: \`single\`, \`all\``],
    ]);
  });

  test('preemptionPolicy is Never or PreemptLowerPriority', () => {
    expect(create(pgs(pg('a', { preemptionPolicy: 'Never' })))).toEqual([]);
    expect(create(pgs(pg('a', { preemptionPolicy: 'Always' })))).toEqual([
      ['FieldValueNotSupported', `${PG}[0].preemptionPolicy: Unsupported value: "Always": supported values: "Never", "PreemptLowerPriority"`],
    ]);
  });

  test('priority and priorityClassName', () => {
    expect(create(pgs(pg('a', { priority: 1000000001 })))).toEqual([
      ['FieldValueInvalid', `${PG}[0].priority: Invalid value: 1000000001: must be less than or equal to 1000000000`],
    ]);
    expect(create(pgs(pg('a', { priorityClassName: 'High_Prio' })))).toEqual([
      ['FieldValueInvalid', `${PG}[0].priorityClassName: Invalid value: "High_Prio": ${DNS_SUBDOMAIN_MSG}`],
    ]);
  });

  test('resourceClaims: named, exactly one source, unique, at most 4', () => {
    expect(create(pgs(pg('a', { resourceClaims: [{ name: 'gpu', resourceClaimTemplateName: 'gpu-template' }] })))).toEqual([]);
    const rc = `${PG}[0].resourceClaims`;
    expect(create(pgs(pg('a', { resourceClaims: [{ name: 'gpu' }] })))).toEqual([
      ['FieldValueInvalid', `${rc}[0]: Invalid value: "": must specify one of: \`resourceClaimName\`, \`resourceClaimTemplateName\``],
    ]);
    expect(create(pgs(pg('a', { resourceClaims: [{ name: 'GPU', resourceClaimName: 'c', resourceClaimTemplateName: 't' }] })))).toEqual([
      ['FieldValueInvalid', `${rc}[0]: Invalid value: "{resourceClaimName, resourceClaimTemplateName}": must specify exactly one of: \`resourceClaimName\`, \`resourceClaimTemplateName\``],
      ['FieldValueInvalid', `${rc}[0].name: Invalid value: "GPU": ${DNS_LABEL_MSG}`],
    ]);
    expect(create(pgs(pg('a', { resourceClaims: [{ name: 'x', resourceClaimName: 'c' }, { name: 'x', resourceClaimName: 'd' }] })))).toEqual([
      ['FieldValueDuplicate', `${rc}[1]: Duplicate value: {"name":"x","resourceClaimName":"d"}`],
    ]);
    const five = Array.from({ length: 5 }, (_, i) => ({ name: `c${i}`, resourceClaimName: 'c' }));
    expect(create(pgs(pg('a', { resourceClaims: five })))).toEqual([['FieldValueTooMany', `${rc}: Too many: 5: must have at most 4 items`]]);
  });

  test('schedulingConstraints: one topology constraint with a label key', () => {
    const sc = `${PG}[0].schedulingConstraints.topology`;
    expect(create(pgs(pg('a', { schedulingConstraints: { topology: [{ key: 'topology.svc.io/rack' }] } })))).toEqual([]);
    expect(create(pgs(pg('a', { schedulingConstraints: { topology: [{ key: 'a' }, { key: 'b' }] } })))).toEqual([
      ['FieldValueTooMany', `${sc}: Too many: 2: must have at most 1 items`],
    ]);
    expect(create(pgs(pg('a', { schedulingConstraints: { topology: [{ key: '' }] } })))).toEqual([['FieldValueRequired', `${sc}[0].key: Required value`]]);
    expect(create(cpgs(cpg('r', { schedulingConstraints: { topology: [{ key: 'a/b/c' }] } })))[0][1]).toMatch(
      /^spec\.compositePodGroupTemplates\[0\]\.schedulingConstraints\.topology\[0\]\.key: Invalid value: "a\/b\/c": a qualified name must consist of/,
    );
  });

  test('controllerRef: kind and name are path segments, apiGroup a DNS subdomain', () => {
    expect(create({ controllerRef: { apiGroup: 'Batch', kind: '', name: 'a/b' }, ...pgs(pg('a')) })).toEqual([
      ['FieldValueInvalid', `spec.controllerRef.apiGroup: Invalid value: "Batch": ${DNS_SUBDOMAIN_MSG}`],
      ['FieldValueRequired', 'spec.controllerRef.kind: Required value'],
      ['FieldValueInvalid', 'spec.controllerRef.name: Invalid value: "a/b": may not contain \'/\''],
    ]);
  });
});

describe('Workload updates', () => {
  const template = gang('a', 2, { disruptionMode: { single: {} }, priorityClassName: 'p', priority: 1, preemptionPolicy: 'Never' });
  const base = pgs(template);
  const withTemplate = (over: Spec) => pgs({ ...template, ...over });

  test('gang minCount may change; nothing else in a template may', () => {
    expect(update(withTemplate({ schedulingPolicy: { gang: { minCount: 5 } } }), base)).toEqual([]);
    const immutable = (f: string) => ['FieldValueInvalid', `${PG}[0].${f}: Invalid value: null: field is immutable`];
    expect(update(withTemplate({ disruptionMode: { all: {} } }), base)).toEqual([immutable('disruptionMode')]);
    expect(update(withTemplate({ priorityClassName: 'q' }), base)).toEqual([immutable('priorityClassName')]);
    expect(update(withTemplate({ priority: 2 }), base)).toEqual([immutable('priority')]);
    expect(update(withTemplate({ preemptionPolicy: 'PreemptLowerPriority' }), base)).toEqual([immutable('preemptionPolicy')]);
    expect(update(withTemplate({ resourceClaims: [{ name: 'x', resourceClaimName: 'c' }] }), base)).toEqual([immutable('resourceClaims')]);
    expect(update(withTemplate({ schedulingConstraints: { topology: [{ key: 'k' }] } }), base)).toEqual([immutable('schedulingConstraints')]);
  });

  test('basic and gang cannot be swapped', () => {
    expect(update(withTemplate({ schedulingPolicy: { basic: {} } }), base)).toEqual([
      ['FieldValueInvalid', `${PG}[0].schedulingPolicy.basic: Invalid value: null: field is immutable`],
      ['FieldValueInvalid', `${PG}[0].schedulingPolicy.gang: Invalid value: null: field cannot be cleared once set`],
    ]);
    expect(update(pgs(gang('a', 1)), pgs(pg('a')))).toEqual([
      ['FieldValueInvalid', `${PG}[0].schedulingPolicy.basic: Invalid value: null: field is immutable`],
      ['FieldValueInvalid', `${PG}[0].schedulingPolicy.gang: Invalid value: null: field cannot be set once created`],
    ]);
  });

  test('templates cannot be added, removed or renamed', () => {
    expect(update(pgs(pg('a'), pg('b')), pgs(pg('a')))).toEqual([['FieldValueForbidden', `${PG}[1]: Forbidden: item may not be added`]]);
    expect(update(pgs(pg('a')), pgs(pg('a'), pg('b')))).toEqual([['FieldValueForbidden', `${PG}: Forbidden: item may not be removed`]]);
    expect(update(pgs(pg('z')), pgs(pg('a')))).toEqual([
      ['FieldValueForbidden', `${PG}[0]: Forbidden: item may not be added`],
      ['FieldValueForbidden', `${PG}: Forbidden: item may not be removed`],
    ]);
  });

  test('controllerRef is immutable, including setting it later', () => {
    const ref = { kind: 'Job', name: 'j' };
    expect(update({ ...base, controllerRef: ref }, { ...base, controllerRef: ref })).toEqual([]);
    expect(update({ ...base, controllerRef: { kind: 'Job', name: 'k' } }, { ...base, controllerRef: ref })).toEqual([
      ['FieldValueInvalid', 'spec.controllerRef: Invalid value: null: field is immutable'],
    ]);
    expect(update({ ...base, controllerRef: ref }, base)).toEqual([['FieldValueInvalid', 'spec.controllerRef: Invalid value: null: field is immutable']]);
  });

  test('compositePodGroupTemplates are immutable', () => {
    const old = cpgs(cpg('r'));
    expect(update(old, old)).toEqual([]);
    expect(update(cpgs(cpg('r', { schedulingPolicy: { gang: { minGroupCount: 2 } } })), old)).toEqual([
      ['FieldValueInvalid', `${CPG}: Invalid value: null: field is immutable`],
    ]);
    expect(update(cpgs(cpg('r', { priority: 3 })), old)).toEqual([
      ['FieldValueInvalid', 'spec: Invalid value: null: detected multiple priority configurations'],
      ['FieldValueInvalid', `${CPG}[0].priority: Invalid value: null: field is immutable`],
    ]);
    expect(update(cpgs(cpg('r'), cpg('s')), old)).toEqual([['FieldValueForbidden', `${CPG}[1]: Forbidden: item may not be added`]]);
  });

  test('switching between the two template lists is rejected', () => {
    expect(update(cpgs(cpg('r')), pgs(pg('a')))).toEqual([
      ['FieldValueForbidden', `${PG}: Forbidden: item may not be removed`],
      ['FieldValueForbidden', `${CPG}[0]: Forbidden: item may not be added`],
    ]);
  });

  test('unchanged values are not validated again (ratcheting)', () => {
    const stored = pgs(gang('a', 1, { priorityClassName: 'Legacy_Class' }));
    expect(update(pgs(gang('a', 3, { priorityClassName: 'Legacy_Class' })), stored)).toEqual([]);
  });
});

describe('Workload feature gates', () => {
  const prepare = (spec: Spec, ctx = defaults, old?: Spec) => {
    const obj = wl(spec);
    if (old) def.strategy.prepareForUpdate!(obj, wl(old), ctx);
    else def.strategy.prepareForCreate!(obj, ctx);
    return obj.spec;
  };
  const gated = pg('a', {
    preemptionPolicy: 'Never',
    schedulingConstraints: { topology: [{ key: 'k' }] },
    resourceClaims: [{ name: 'x', resourceClaimName: 'c' }],
  });

  test('disabled gates drop their fields on create', () => {
    expect(prepare(pgs(gated))).toEqual(pgs(pg('a', { resourceClaims: [{ name: 'x', resourceClaimName: 'c' }] })));
    expect(prepare(pgs(gated), strategyContext({ DRAWorkloadResourceClaims: false }))).toEqual(pgs(pg('a')));
    expect(prepare(pgs(gated), all)).toEqual(pgs(gated));
    expect(prepare({ ...pgs(pg('a')), ...cpgs(cpg('r', { preemptionPolicy: 'Never' })) })).toEqual(pgs(pg('a')));
  });

  test('fields the stored object already uses are kept', () => {
    expect(prepare(pgs(gated), defaults, pgs(gated))).toEqual(pgs(gated));
    expect(prepare(cpgs(cpg('r')), defaults, cpgs(cpg('r')))).toEqual(cpgs(cpg('r')));
    expect(update(cpgs(cpg('r')), cpgs(cpg('r')), defaults)).toEqual([]);
  });

  test('a disabled gate forbids its fields when the strategy did not drop them', () => {
    expect(create(cpgs(cpg('r')), defaults)).toEqual([['FieldValueForbidden', `${CPG}: Forbidden`]]);
    expect(create(pgs(pg('a', { preemptionPolicy: 'Never' })), defaults)).toEqual([['FieldValueForbidden', `${PG}[0].preemptionPolicy: Forbidden`]]);
    expect(create(pgs(pg('a', { schedulingConstraints: {} })), defaults)).toEqual([['FieldValueForbidden', `${PG}[0].schedulingConstraints: Forbidden`]]);
  });

  test('the kind is only served while GenericWorkload is on', () => {
    expect(def.featureGate).toBe('GenericWorkload');
    const served = (gates: FeatureGates) => allDefinitions.filter((d) => !d.featureGate || gates.enabled(d.featureGate)).map((d) => d.kind);
    expect(served(new FeatureGates())).toContain('Workload');
    expect(served(new FeatureGates({ GenericWorkload: false }))).not.toContain('Workload');
  });
});

describe('Workload definition', () => {
  test('names, scope and flags', () => {
    expect(def).toMatchObject({
      group: 'scheduling.svc.io',
      version: 'v1beta1',
      kind: 'Workload',
      listKind: 'WorkloadList',
      plural: 'workloads',
      singular: 'workload',
      shortNames: [],
      categories: [],
      namespaced: true,
      subresources: {},
      fieldSelectors: {},
      usesGeneration: false,
      allowCreateOnUpdate: false,
      allowUnconditionalUpdate: true,
    });
    expect(def.validateName('train-1', false)).toEqual([]);
    expect(def.validateName('Train', false)).toEqual([DNS_SUBDOMAIN_MSG]);
  });

  test('resourceClaims merge by name and keep keys; template lists are keyed by name', () => {
    const spec = propertySchema(schemaOf(def.schemaRoot), 'spec');
    const list = propertySchema(spec, 'podGroupTemplates');
    expect(list).toMatchObject({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] });
    expect(list?.['x-kubernetes-patch-strategy']).toBeUndefined();
    expect(propertySchema(itemSchema(list), 'resourceClaims')).toMatchObject({
      'x-kubernetes-patch-strategy': 'merge,retainKeys',
      'x-kubernetes-patch-merge-key': 'name',
    });
    // Composite templates nest: the child list refers back to the same template schema.
    const composite = itemSchema(propertySchema(spec, 'compositePodGroupTemplates'));
    expect(propertySchema(itemSchema(propertySchema(composite, 'compositePodGroupTemplates')), 'podGroupTemplates')).toMatchObject({
      'x-kubernetes-list-map-keys': ['name'],
    });
  });

  test('table shows Name and Age', () => {
    const obj = wl(pgs(pg('a')));
    obj.metadata.creationTimestamp = new Date(fixedNow.getTime() - 90 * 1000).toISOString();
    expect(def.table!.columns.map((c) => c.name)).toEqual(['Name', 'Age']);
    expect(def.table!.cells(obj, fixedNow)).toEqual(['w', '90s']);
  });
});
