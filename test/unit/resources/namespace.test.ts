/** Namespace: upstream's strategy (finalizer, phase, label), validation paths and messages, deletion rules, table. */
import 'reflect-metadata';
import type { KObject } from '../../../src/machinery/object';
import { namespaceDefinition } from '../../../src/resources/namespace';
import { fixedNow, strategyContext } from '../../support/strategy-context';

const ctx = strategyContext();
const def = namespaceDefinition;
const strategy = def.strategy;
const ns = (fields: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): KObject => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'team-a', ...meta },
  ...structuredClone(fields),
});

describe('Namespace strategy', () => {
  test('create: Active, the kubernetes finalizer added once, the name label set', () => {
    const obj = ns({ spec: { finalizers: ['example.com/hold'] }, status: { phase: 'Terminating' } });
    strategy.prepareForCreate!(obj, ctx);
    strategy.applyDefaults!(obj, ctx);
    expect(obj.spec).toEqual({ finalizers: ['example.com/hold', 'kubernetes'] });
    expect(obj.status).toEqual({ phase: 'Active' });
    expect(obj.metadata.labels).toEqual({ 'kubernetes.io/metadata.name': 'team-a' });
    const again = ns({ spec: { finalizers: ['kubernetes'] } });
    strategy.prepareForCreate!(again, ctx);
    expect(again.spec).toEqual({ finalizers: ['kubernetes'] });
  });

  test('the name label follows the name even when a client sets it otherwise or uses generateName', () => {
    const obj = ns({}, { name: undefined, generateName: 'gen-', labels: { 'kubernetes.io/metadata.name': 'other', keep: 'me' } });
    strategy.applyDefaults!(obj, ctx);
    obj.metadata.name = 'gen-x7k2p';
    strategy.canonicalize!(obj);
    expect(obj.metadata.labels).toEqual({ 'kubernetes.io/metadata.name': 'gen-x7k2p', keep: 'me' });
  });

  test('update keeps spec.finalizers (only /finalize changes them)', () => {
    const obj = ns({ spec: { finalizers: [] } });
    strategy.prepareForUpdate!(obj, ns({ spec: { finalizers: ['kubernetes'] } }), ctx);
    expect(obj.spec).toEqual({ finalizers: ['kubernetes'] });
  });

  test('/status keeps the spec; /finalize keeps the status', () => {
    const old = ns({ spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
    const viaStatus = ns({ spec: { finalizers: [] }, status: { phase: 'Active', conditions: [{ type: 'X', status: 'True' }] } });
    def.subresources.status.prepareForUpdate(viaStatus, old, ctx);
    expect(viaStatus).toMatchObject({ spec: { finalizers: ['kubernetes'] }, status: { conditions: [{ type: 'X' }] } });
    const viaFinalize = ns({ spec: { finalizers: [] }, status: { phase: 'Terminating' } });
    def.subresources.finalize.prepareForUpdate(viaFinalize, old, ctx);
    expect(viaFinalize).toMatchObject({ spec: { finalizers: [] }, status: { phase: 'Active' } });
    expect(def.subresources.finalize.verbs).toEqual(['update']);
  });

  test('deletion: the first DELETE marks Terminating; spec.finalizers hold the namespace', () => {
    const rules = strategy.deletion!;
    expect(rules.markFirst).toBe(true);
    const obj = ns({ spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
    rules.onMark!(obj);
    expect(obj.status).toEqual({ phase: 'Terminating' });
    expect(rules.holds(obj)).toBe(true);
    expect(rules.holds(ns({ spec: { finalizers: [] } }))).toBe(false);
    expect(rules.holds(ns())).toBe(false);
  });
});

describe('Namespace validation', () => {
  test('finalizers: qualified names, unprefixed ones standard (upstream names the list on create)', async () => {
    const errs = await strategy.validate(ns({ spec: { finalizers: ['kubernetes', 'custom', 'a/b', 'bad name/x'] } }), ctx);
    expect(errs.map((e) => [e.field, e.type, e.detail])).toEqual([
      ['spec.finalizers', 'FieldValueInvalid', 'name is neither a standard finalizer name nor is it fully qualified'],
      ['spec.finalizers', 'FieldValueInvalid', expect.stringContaining("prefix part a lowercase RFC 1123 subdomain")],
    ]);
  });

  test('/finalize names the item', async () => {
    const errs = await def.subresources.finalize.validateUpdate(ns({ spec: { finalizers: ['kubernetes', 'nope'] } }), ns(), ctx);
    expect(errs.map((e) => [e.field, e.badValue])).toEqual([['spec.finalizers[1]', 'nope']]);
  });

  test('/status: the phase must agree with deletionTimestamp', async () => {
    const status = def.subresources.status;
    expect(await status.validateUpdate(ns({ status: { phase: 'Active' } }), ns(), ctx)).toEqual([]);
    const active = await status.validateUpdate(ns({ status: { phase: 'Terminating' } }), ns(), ctx);
    expect(active.map((e) => [e.field, e.detail])).toEqual([['status.Phase', "may only be 'Active' if `deletionTimestamp` is empty"]]);
    const deleting = ns({ status: { phase: 'Active' } }, { deletionTimestamp: '2026-01-01T00:00:00Z' });
    expect((await status.validateUpdate(deleting, ns(), ctx)).map((e) => e.detail)).toEqual(["may only be 'Terminating' if `deletionTimestamp` is not empty"]);
  });

  test('names are DNS labels', () => {
    expect(def.validateName('team-a', false)).toEqual([]);
    expect(def.validateName('team.a', false)).not.toEqual([]);
  });
});

describe('Namespace definition', () => {
  test('cluster-scoped, short name ns, no deletecollection, returns the deleted object, status.phase selector', () => {
    expect(def).toMatchObject({ namespaced: false, shortNames: ['ns'], deleteCollection: false, returnDeletedObject: true, plural: 'namespaces' });
    expect(def.fieldSelectors['status.phase'](ns({ status: { phase: 'Terminating' } }))).toBe('Terminating');
    expect(def.unknownFieldSelectorMessage!('spec.x')).toBe('field label not supported: spec.x');
  });

  test('table: Name, Status, Age', () => {
    const t = def.table!;
    expect(t.columns.map((c) => c.name)).toEqual(['Name', 'Status', 'Age']);
    const obj = ns({ status: { phase: 'Active' } }, { creationTimestamp: new Date(fixedNow.getTime() - 90_000).toISOString() });
    expect(t.cells(obj, fixedNow)).toEqual(['team-a', 'Active', '90s']);
  });
});
