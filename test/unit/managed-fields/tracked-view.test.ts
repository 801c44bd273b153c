/**
 * With no managedFields entries yet (a create), the fields a write changed are found by comparing tracked views of
 * the objects; that must give what comparing the whole objects and then stripping the untracked fields gives.
 */
import { FieldSet, setToFieldsV1, stripUntracked, trackedView, updateOwnership, type ManagedSets } from '../../../src/machinery/managed-fields';
import { updaterContext } from '../../../src/registry/managed-fields';
import { allDefinitions } from '../../../src/resources';
import type { ResourceDefinition } from '../../../src/machinery/resource-definition';

const def = (kind: string): ResourceDefinition => allDefinitions.find((d) => d.kind === kind)!;

const meta = (extra: Record<string, unknown> = {}) => ({
  name: 'x',
  namespace: 'ns',
  uid: '6a1f0c0e-0000-4000-8000-000000000001',
  resourceVersion: '17',
  generation: 3,
  creationTimestamp: '2026-11-27T10:00:00Z',
  selfLink: '/api/v1/namespaces/ns/configmaps/x',
  ...extra,
});

const richMeta = meta({
  generateName: 'x-',
  labels: { app: 'web', tier: 'front' },
  annotations: { note: 'a' },
  finalizers: ['example.com/keep', 'example.com/audit'],
  ownerReferences: [
    { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: 'u-1', controller: true },
    { apiVersion: 'v1', kind: 'ConfigMap', name: 'other', uid: 'u-2' },
  ],
});

const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
  ['ConfigMap', { metadata: {} }, { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta(), data: { a: 'b', c: '' } }],
  ['ConfigMap', { metadata: {} }, { apiVersion: 'v1', kind: 'ConfigMap', metadata: richMeta, data: {}, binaryData: { k: 'AAEC' }, immutable: true }],
  ['ConfigMap', { metadata: {} }, { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta({ labels: {} }) }],
  [
    'ConfigMap',
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta({ labels: { app: 'web' } }), data: { a: 'b', gone: 'x' } },
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta({ resourceVersion: '18', labels: { app: 'api', extra: '1' } }), data: { a: 'c' } },
  ],
  [
    'Role',
    { metadata: {} },
    { apiVersion: 'rbac.authorization.svc.io/v1', kind: 'Role', metadata: richMeta, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }] },
  ],
  [
    'Lease',
    { metadata: {} },
    { apiVersion: 'coordination.svc.io/v1', kind: 'Lease', metadata: meta(), spec: { holderIdentity: 'a', leaseDurationSeconds: 15, renewTime: '2026-11-27T10:00:00.000000Z' } },
  ],
  [
    'PodDisruptionBudget',
    { metadata: {} },
    {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: richMeta,
      spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['front'] }] } },
      status: { currentHealthy: 1, desiredHealthy: 2, disruptionsAllowed: 0, expectedPods: 3, observedGeneration: 1 },
    },
  ],
  [
    'CertificateSigningRequest',
    { metadata: {} },
    {
      apiVersion: 'certificates.svc.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: meta({ namespace: undefined }),
      spec: { request: 'AAAA', signerName: 'example.com/s', usages: ['digital signature', 'client auth'], extra: { k: ['v'] } },
      status: { conditions: [{ type: 'Approved', status: 'True', reason: 'r' }] },
    },
  ],
];

function changed(kind: string, live: Record<string, unknown>, next: Record<string, unknown>, view: (o: Record<string, unknown>) => Record<string, unknown>): FieldSet {
  const managers: ManagedSets = new Map();
  return stripUntracked(updateOwnership(view(live), view(next), managers, updaterContext(def(kind))));
}

describe('trackedView', () => {
  test.each(cases.map((c, i) => [i, ...c] as const))('case %i (%s): the same changed fields as the whole objects', (_i, kind, live, next) => {
    const whole = changed(kind, live, next, (o) => o);
    const tracked = changed(kind, live, next, trackedView);
    expect(whole.empty()).toBe(false);
    expect(setToFieldsV1(tracked)).toEqual(setToFieldsV1(whole));
  });

  test('keeps what managers own in metadata and drops what nobody owns', () => {
    const view = trackedView({ apiVersion: 'v1', kind: 'ConfigMap', metadata: richMeta, data: { a: 'b' } });
    expect(Object.keys(view)).toEqual(['metadata', 'data']);
    expect(Object.keys(view.metadata as object).sort()).toEqual(['annotations', 'finalizers', 'generateName', 'labels', 'ownerReferences']);
  });
});
