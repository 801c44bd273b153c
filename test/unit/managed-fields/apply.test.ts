/** Ownership on apply and update, conflicts and their upstream wording, managedFields entries. */
import {
  applyOwnership,
  capUpdateManagers,
  conflictCauses,
  conflictMessage,
  ConflictError,
  describeManager,
  decodeManagedFields,
  encodeManagedFields,
  FieldSet,
  managerIdentifier,
  ManagedSets,
  pathString,
  setToFieldsV1,
  stripUntracked,
  toFieldSet,
  updateOwnership,
} from '../../../src/machinery/managed-fields';
import { testSchema } from './schema-fixture';

const ctx = { schema: testSchema };
const A = managerIdentifier({ manager: 'a', operation: 'Apply' });
const B = managerIdentifier({ manager: 'b', operation: 'Apply' });
const U = managerIdentifier({ manager: 'kubectl-client-side-apply', operation: 'Update', apiVersion: 'v1' });
const cm = (data: Record<string, string>, labels?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'x', ...(labels ? { labels } : {}) },
  data,
});
const owned = (m: ManagedSets, id: string) => stripUntracked(m.get(id)!.set).paths().map(pathString);

function applyAs(live: Record<string, unknown>, config: Record<string, unknown>, managers: ManagedSets, id: string, force = false) {
  return applyOwnership(live, config, 'v1', managers, id, force, ctx);
}

describe('applyOwnership', () => {
  test('creates, then a second applier with the same value shares ownership', () => {
    const managers: ManagedSets = new Map();
    const first = applyAs({ metadata: {} }, cm({ k: 'v' }), managers, A);
    expect(first.object).toEqual(cm({ k: 'v' }));
    expect(owned(managers, A)).toEqual(['.data.k']);
    const second = applyAs(first.object, cm({ k: 'v' }), managers, B);
    expect(second.noop).toBe(true);
    expect(owned(managers, A)).toEqual(['.data.k']);
    expect(owned(managers, B)).toEqual(['.data.k']);
  });

  test('a different value for a field another manager owns conflicts; force moves ownership', () => {
    const managers: ManagedSets = new Map([[U, { set: toFieldSet({ data: { k: 'v', o: 'p' } }, testSchema), apiVersion: 'v1', applied: false }]]);
    const live = cm({ k: 'v', o: 'p' });
    let err: ConflictError | undefined;
    try {
      applyAs(live, cm({ k: 'changed', o: 'other' }), managers, A);
    } catch (e) {
      err = e as ConflictError;
    }
    expect(err).toBeInstanceOf(ConflictError);
    expect(conflictMessage(err!.conflicts)).toBe(
      'Apply failed with 2 conflicts: conflicts with "kubectl-client-side-apply" using v1:\n- .data.k\n- .data.o',
    );
    expect(conflictCauses(err!.conflicts.slice(0, 1))).toEqual([
      { reason: 'FieldManagerConflict', message: 'conflict with "kubectl-client-side-apply" using v1', field: '.data.k' },
    ]);
    expect(conflictMessage(err!.conflicts.slice(0, 1))).toBe('Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.k');

    const forced = applyAs(live, cm({ k: 'changed' }), managers, A, true);
    expect(forced.object.data).toEqual({ k: 'changed', o: 'p' });
    expect(owned(managers, A)).toEqual(['.data.k']);
    expect(owned(managers, U)).toEqual(['.data.o']);
  });

  test('fields the applier stops applying are removed unless someone else owns them', () => {
    const managers: ManagedSets = new Map();
    let obj = applyAs({ metadata: {} }, cm({ a: '1', b: '2', c: '3' }, { l: 'x' }), managers, A).object;
    obj = applyAs(obj, cm({ c: '3' }), managers, B).object;
    const out = applyAs(obj, cm({ a: '1' }), managers, A);
    expect(out.object.data).toEqual({ a: '1', c: '3' });
    expect(out.object.metadata).toEqual({ name: 'x' });
    expect(owned(managers, A)).toEqual(['.data.a']);
  });

  test('keyed list items are merged and pruned per item', () => {
    const managers: ManagedSets = new Map();
    const port = (p: number, name: string) => ({ port: p, protocol: 'TCP', name });
    let obj = applyAs({ metadata: {} }, { spec: { ports: [port(80, 'http'), port(443, 'https')] } }, managers, A).object;
    obj = applyAs(obj, { spec: { ports: [port(8080, 'alt')] } }, managers, B).object;
    expect((obj.spec as any).ports.map((p: any) => p.port)).toEqual([80, 443, 8080]);
    obj = applyAs(obj, { spec: { ports: [port(443, 'https')] } }, managers, A).object;
    expect((obj.spec as any).ports.map((p: any) => p.port)).toEqual([443, 8080]);
  });
});

describe('updateOwnership', () => {
  test('an update owns what it changed and takes it from others without conflict', () => {
    const managers: ManagedSets = new Map([[A, { set: toFieldSet({ data: { k: 'v', o: 'p' } }, testSchema), apiVersion: 'v1', applied: true }]]);
    const changed = updateOwnership(cm({ k: 'v', o: 'p' }), cm({ k: 'new', o: 'p', n: 'x' }), managers, ctx);
    expect(changed.paths().map(pathString)).toEqual(['.data.k', '.data.n']);
    expect(owned(managers, A)).toEqual(['.data.o']);
    const removed = updateOwnership(cm({ o: 'p' }), cm({}), managers, ctx);
    expect(removed.empty()).toBe(true);
    expect(managers.has(A)).toBe(false);
  });
});

describe('manager descriptions in conflicts', () => {
  test('appliers by name; updaters with their version; subresource first', () => {
    expect(describeManager(A)).toBe('"a"');
    expect(describeManager(U)).toBe('"kubectl-client-side-apply" using v1');
    expect(describeManager(managerIdentifier({ manager: 'c', operation: 'Update', apiVersion: 'policy/v1', subresource: 'status' }))).toBe(
      '"c" with subresource "status" using policy/v1',
    );
  });

  test('untracked fields are never owned', () => {
    const set = toFieldSet({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'n', uid: 'u', resourceVersion: '1', labels: { a: 'b' } } }, testSchema);
    expect(stripUntracked(set).paths().map(pathString)).toEqual(['.metadata.labels.a']);
  });
});

describe('managedFields entries', () => {
  test('identifiers are Go JSON without time; appliers have no apiVersion', () => {
    expect(U).toBe('{"manager":"kubectl-client-side-apply","operation":"Update","apiVersion":"v1"}');
    expect(managerIdentifier({ manager: 'm', operation: 'Apply', apiVersion: 'v1', subresource: 'status' })).toBe(
      '{"manager":"m","operation":"Apply","subresource":"status"}',
    );
  });

  test('round trip and upstream order: Apply before Update, then time, manager', () => {
    const entries = [
      { manager: 'z', operation: 'Update' as const, apiVersion: 'v1', time: '2024-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} } } },
      { manager: 'y', operation: 'Update' as const, apiVersion: 'v1', time: '2023-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:b': {} } } },
      { manager: 'x', operation: 'Apply' as const, apiVersion: 'v1', time: '2025-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:c': {} } } },
    ];
    const out = encodeManagedFields(decodeManagedFields(entries))!;
    expect(out.map((e) => e.manager)).toEqual(['x', 'y', 'z']);
    expect(Object.keys(out[0])).toEqual(['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1']);
    expect(out[2]).toEqual(entries[0]);
    expect(() => decodeManagedFields([{ manager: 'm', operation: 'Update', fieldsType: 'FieldsV1' }])).toThrow('apiVersion must not be empty');
  });

  test('more than ten Update managers: the oldest are merged into ancient-changes', () => {
    const managed = decodeManagedFields(
      Array.from({ length: 12 }, (_, i) => ({
        manager: `m${String(i).padStart(2, '0')}`,
        operation: 'Update' as const,
        apiVersion: 'v1',
        time: `2024-01-01T00:00:${String(i).padStart(2, '0')}Z`,
        fieldsType: 'FieldsV1',
        fieldsV1: setToFieldsV1(FieldSet.of([{ field: 'data' }, { field: `k${i}` }])),
      })),
    );
    capUpdateManagers(managed);
    const out = encodeManagedFields(managed)!;
    expect(out).toHaveLength(10);
    expect(out[0]).toMatchObject({ manager: 'ancient-changes', time: '2024-01-01T00:00:02Z', fieldsV1: { 'f:data': { 'f:k0': {}, 'f:k1': {}, 'f:k2': {} } } });
    expect(out.slice(1).map((e) => e.manager)).toEqual(['m03', 'm04', 'm05', 'm06', 'm07', 'm08', 'm09', 'm10', 'm11']);
  });
});
