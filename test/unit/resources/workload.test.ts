/** Workload: upstream's v1beta1 create rules (paths, reasons, messages), flags, schema and table. */
import 'reflect-metadata';
import { itemSchema, propertySchema, schemaOf } from '../../../src/machinery/schema/schema';
import { workloadDefinition as def } from '../../../src/resources/workload';
import { fixedNow } from '../../support/strategy-context';
import { CPG, DNS_LABEL_MSG, DNS_SUBDOMAIN_MSG, PG, Spec, cpg, cpgs, create, defaults, gang, pg, pgs, wl } from './workload.helpers';

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
    const spec = propertySchema(schemaOf(def.schemaRoot!), 'spec');
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
