/**
 * createdFieldsV1, the create's fast path, must write what the general path writes (compare from nothing,
 * stripUntracked, setToFieldsV1), key order included, since the bytes are stored: for hand-written objects of
 * every served kind and for random ones drawn from each kind's schema, with values of the wrong shape among them.
 */
import { createdFieldsV1, setToFieldsV1, stripUntracked, updateOwnership } from '../../../src/machinery/managed-fields';
import { atomOf, fieldType } from '../../../src/machinery/managed-fields/typed';
import type { ResourceDefinition } from '../../../src/machinery/resource-definition';
import { kindSchema, type Schema } from '../../../src/machinery/schema/schema';
import { recordManagedFields, updaterContext } from '../../../src/registry/managed-fields';
import type { WriteOptions } from '../../../src/registry/request';
import { allDefinitions } from '../../../src/resources';

const def = (kind: string): ResourceDefinition => allDefinitions.find((d) => d.kind === kind)!;

/** What the general path records for a create of `obj` (without managedFields) by nobody's earlier entries. */
function general(d: ResourceDefinition, obj: Record<string, unknown>): unknown {
  const { managedFields: _, ...metadata } = (obj.metadata ?? {}) as Record<string, unknown>;
  return setToFieldsV1(stripUntracked(updateOwnership({ metadata: {} }, { ...obj, metadata }, new Map(), updaterContext(d))));
}

function fast(d: ResourceDefinition, obj: Record<string, unknown>): unknown {
  const ctx = updaterContext(d);
  return createdFieldsV1(obj, ctx.schema, ctx.resetTopLevel!);
}

const meta = (extra: Record<string, unknown> = {}) => ({
  name: 'x',
  namespace: 'ns',
  uid: '6a1f0c0e-0000-4000-8000-000000000001',
  creationTimestamp: '2026-11-28T10:00:00Z',
  ...extra,
});

const cases: Array<[string, Record<string, unknown>]> = [
  ['ConfigMap', { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta(), data: { k: 'v', a: '', 'b.c': 'x' } }],
  ['ConfigMap', { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta() }],
  ['ConfigMap', { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta({ labels: {}, annotations: { z: '1', a: '2' } }), data: {}, binaryData: { k: 'AAEC' }, immutable: false }],
  [
    'ConfigMap',
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: meta({
        generateName: 'x-',
        finalizers: ['b/keep', 'a/keep', 'b/keep'],
        ownerReferences: [
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: 'u-2', controller: true },
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'other', uid: 'u-1' },
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'again', uid: 'u-1' },
          null,
          { name: 'no-uid' },
        ],
        managedFields: [{ manager: 'someone', operation: 'Update' }],
      }),
      data: null,
    },
  ],
  ['Role', { apiVersion: 'rbac.authorization.svc.io/v1', kind: 'Role', metadata: meta(), rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }, { verbs: [] }] }],
  [
    'PodDisruptionBudget',
    {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: meta(),
      spec: { minAvailable: '50%', selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b', 'a'] }] } },
      status: { currentHealthy: 1, conditions: [{ type: 'Ready', status: 'True' }] },
    },
  ],
  [
    'CertificateSigningRequest',
    {
      apiVersion: 'certificates.svc.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: meta({ namespace: undefined }),
      spec: { request: 'AAAA', signerName: 'example.com/s', usages: ['client auth', 'digital signature'], extra: { k: ['v'] } },
      status: { conditions: [{ type: 'Approved', status: 'True' }] },
    },
  ],
  ['Lease', { apiVersion: 'coordination.svc.io/v1', kind: 'Lease', metadata: meta(), spec: 'not an object' }],
];

/** A seeded generator (mulberry32): the same objects on every run. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A value for `schema`, now and then one of another shape, a null or an empty container. */
function valueFor(schema: Schema | undefined, r: () => number, depth: number): unknown {
  const roll = r();
  if (roll < 0.05) return null;
  if (roll < 0.1) return ['x', 1, { a: 'b' }, [], {}][Math.floor(r() * 5)];
  const atom = atomOf(schema, r() < 0.5 ? {} : []);
  if (depth > 5 || atom.kind === 'scalar') return [`s${Math.floor(r() * 3)}`, Math.floor(r() * 3), true][Math.floor(r() * 3)];
  if (atom.kind === 'list') {
    const items = Array.from({ length: Math.floor(r() * 4) }, () => valueFor(atom.items, r, depth + 1));
    // Repeated items: keys and set values given twice.
    if (items.length && r() < 0.3) items.push(items[0]);
    return items;
  }
  const out: Record<string, unknown> = {};
  const declared = Object.keys(atom.fields);
  for (const k of declared) if (r() < 0.4) out[k] = valueFor(fieldType(atom, k).schema, r, depth + 1);
  if (atom.elements !== undefined) for (let i = Math.floor(r() * 3); i > 0; i--) out[`e${Math.floor(r() * 4)}`] = valueFor(fieldType(atom, 'e').schema, r, depth + 1);
  return out;
}

describe('createdFieldsV1', () => {
  test.each(cases.map((c, i) => [i, ...c] as const))('case %i (%s): the general path, key order included', (_i, kind, obj) => {
    expect(JSON.stringify(fast(def(kind), obj))).toBe(JSON.stringify(general(def(kind), obj)));
  });

  test.each(allDefinitions.filter((d) => kindSchema(d)).map((d) => [d.kind, d] as const))('random %s objects: the general path', (_kind, d) => {
    const r = rng(d.kind.length * 7919);
    const schema = kindSchema(d);
    for (let i = 0; i < 150; i++) {
      const body = valueFor(schema, r, 0);
      const obj: Record<string, unknown> = { ...(body && typeof body === 'object' && !Array.isArray(body) ? body : {}), apiVersion: 'v1', kind: d.kind };
      obj.metadata = { ...(obj.metadata && typeof obj.metadata === 'object' && !Array.isArray(obj.metadata) ? obj.metadata : {}), name: 'x' };
      expect(JSON.stringify(fast(d, obj))).toBe(JSON.stringify(general(d, obj)));
    }
  });

  test('a free-form object (no schema) as the general path', () => {
    const obj = { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'x', labels: { a: 'b' } }, spec: { list: [1, 2], nested: { z: {}, a: null } }, status: { s: 1 } };
    // A schema node with no type: every value typed by its shape.
    const expected = setToFieldsV1(stripUntracked(updateOwnership({ metadata: {} }, obj, new Map(), { schema: {} })));
    expect(JSON.stringify(createdFieldsV1(obj, {}, []))).toBe(JSON.stringify(expected));
    expect(JSON.stringify(createdFieldsV1(obj, undefined, []))).toBe(JSON.stringify(expected));
  });

  test('a create records one Update entry with those fields; nothing when no field is owned', () => {
    const now = new Date('2026-11-28T10:00:00.600Z');
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta({ labels: { a: 'b' } }), data: { k: 'v' } };
    recordManagedFields(def('ConfigMap'), cm, undefined, { fieldManager: 'kubectl' } as WriteOptions, now);
    expect(cm.metadata).toMatchObject({
      managedFields: [
        { manager: 'kubectl', operation: 'Update', apiVersion: 'v1', time: '2026-11-28T10:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:k': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } } } },
      ],
    });
    const bare = { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta({ managedFields: [{}] }) };
    recordManagedFields(def('ConfigMap'), bare, undefined, {} as WriteOptions, now);
    expect('managedFields' in bare.metadata).toBe(false);
    const status = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: meta(), status: { currentHealthy: 1 } };
    recordManagedFields(def('PodDisruptionBudget'), status, undefined, {} as WriteOptions, now);
    expect('managedFields' in status.metadata).toBe(false);
  });
});
