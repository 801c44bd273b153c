/** Workload: immutability and template membership on update, ratcheting, feature-gated fields. */
import 'reflect-metadata';
import { FeatureGates } from '../../../src/machinery/feature-gates';
import { allDefinitions } from '../../../src/resources';
import { workloadDefinition as def } from '../../../src/resources/workload';
import { strategyContext } from '../../support/strategy-context';
import { CPG, PG, Spec, all, cpg, cpgs, create, defaults, gang, pg, pgs, update, wl } from './workload.helpers';

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

  test('controllerRef may be set once when it was unset, then neither changed nor cleared', () => {
    const ref = { kind: 'Job', name: 'j' };
    const immutable = [['FieldValueInvalid', 'spec.controllerRef: Invalid value: null: field is immutable']];
    // Upstream's generic conformance sequence sets {kind: foo, name: bar} in its update step.
    expect(update({ ...base, controllerRef: { kind: 'foo', name: 'bar' } }, base)).toEqual([]);
    expect(update({ ...base, controllerRef: ref }, { ...base, controllerRef: {} })).toEqual([]);
    expect(update({ ...base, controllerRef: ref }, { ...base, controllerRef: ref })).toEqual([]);
    expect(update({ ...base, controllerRef: { kind: 'Job', name: 'k' } }, { ...base, controllerRef: ref })).toEqual(immutable);
    expect(update(base, { ...base, controllerRef: ref })).toEqual(immutable);
    // Set on update, the reference is validated as on create.
    expect(update({ ...base, controllerRef: { kind: '', name: 'a/b' } }, base)).toEqual([
      ['FieldValueRequired', 'spec.controllerRef.kind: Required value'],
      ['FieldValueInvalid', "spec.controllerRef.name: Invalid value: \"a/b\": may not contain '/'"],
    ]);
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
