/** Objects take the shape upstream's Go JSON tags give them (issue 10): each field as declared in its kind's types. */
import 'reflect-metadata';
import type { KObject } from '../../../src/machinery/object';
import { shapeAsGo } from '../../../src/machinery/schema/go-shape';
import { allDefinitions as schemas, deref, Schema, schemaOf } from '../../../src/machinery/schema/schema';
import { allDefinitions } from '../../../src/resources';
import { configMapDefinition } from '../../../src/resources/config-map';
import { csiDriverDefinition } from '../../../src/resources/csi-driver';
import { leaseDefinition } from '../../../src/resources/lease';
import { podDisruptionBudgetDefinition } from '../../../src/resources/pod-disruption-budget';
import { certificateSigningRequestDefinition } from '../../../src/resources/certificate-signing-request';
import { workloadDefinition } from '../../../src/resources/workload';
import type { ResourceDefinition } from '../../../src/machinery/resource-definition';

const shaped = (def: ResourceDefinition, obj: Record<string, unknown>) => {
  const copy = structuredClone(obj) as KObject;
  shapeAsGo(copy, schemaOf(def.schemaRoot!));
  return copy;
};

describe('Go JSON shape', () => {
  test('every field of every served kind declares its upstream JSON tag', () => {
    const seen = new Set<string>();
    const missing: string[] = [];
    const visit = (name: string) => {
      if (seen.has(name)) return;
      seen.add(name);
      for (const [field, raw] of Object.entries(schemas()[name].properties ?? {})) {
        if (typeof raw['x-go-omitempty'] !== 'boolean') missing.push(`${name}.${field}`);
        for (const s of [raw, raw.items, typeof raw.additionalProperties === 'object' ? raw.additionalProperties : undefined] as Array<Schema | undefined>) {
          const ref = s?.$ref;
          if (ref) visit(ref.slice(ref.lastIndexOf('/') + 1));
        }
      }
    };
    for (const def of allDefinitions) visit(def.schemaRoot!.name);
    expect(seen.size).toBeGreaterThan(30);
    expect(missing).toEqual([]);
  });

  test('omitempty maps, lists and strings in metadata are left out, empty or null', () => {
    const cm = shaped(configMapDefinition, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'a', generateName: '', labels: {}, annotations: null, finalizers: [], creationTimestamp: '2026-01-02T03:04:05Z' },
      data: {},
      binaryData: null,
      immutable: false,
    });
    // immutable is a *bool: false is a value, kept.
    expect(cm).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', creationTimestamp: '2026-01-02T03:04:05Z' }, immutable: false });
  });

  test('free-form fieldsV1 is left as it is', () => {
    const fieldsV1 = { 'f:metadata': { 'f:labels': {} } };
    const cm = shaped(configMapDefinition, { metadata: { name: 'a', managedFields: [{ manager: 'm', fieldsV1, subresource: '' }] } });
    expect(cm.metadata.managedFields).toEqual([{ manager: 'm', fieldsV1 }]);
  });

  test('structs are always written; fields without omitempty get their zero value', () => {
    const pdb = shaped(podDisruptionBudgetDefinition, { metadata: { name: 'p' }, status: { observedGeneration: 0, disruptedPods: {} } });
    expect(pdb.spec).toEqual({});
    expect(pdb.status).toEqual({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });
    expect(shaped(leaseDefinition, { metadata: { name: 'l' } }).spec).toEqual({});
  });

  test('pointers keep {}, 0 and false; only null goes', () => {
    const pdb = shaped(podDisruptionBudgetDefinition, { metadata: { name: 'p' }, spec: { selector: { matchLabels: {}, matchExpressions: [] }, minAvailable: 0, maxUnavailable: null } });
    expect(pdb.spec).toEqual({ selector: {}, minAvailable: 0 });
    const lease = shaped(leaseDefinition, { metadata: { name: 'l' }, spec: { leaseDurationSeconds: 0, holderIdentity: '', renewTime: null } });
    expect(lease.spec).toEqual({ leaseDurationSeconds: 0, holderIdentity: '' });
    const driver = shaped(csiDriverDefinition, { metadata: { name: 'd' }, spec: { attachRequired: false, volumeLifecycleModes: [], tokenRequests: [] } });
    expect(driver.spec).toEqual({ attachRequired: false });
  });

  test('CSR: empty conditions and certificate are left out; a condition keeps type and status', () => {
    const csr = shaped(certificateSigningRequestDefinition, {
      metadata: { name: 'c' },
      spec: { request: 'cmVx', signerName: 'a.io/b', usages: [], groups: [], extra: {} },
      status: { conditions: [{ type: 'Approved', status: 'True', reason: '', lastUpdateTime: '2026-01-02T03:04:05Z' }], certificate: '' },
    });
    expect(csr.spec).toEqual({ request: 'cmVx', signerName: 'a.io/b' });
    // metav1.Time is a struct: an unset one is written as null whatever the tag says.
    expect(csr.status).toEqual({ conditions: [{ type: 'Approved', status: 'True', lastUpdateTime: '2026-01-02T03:04:05Z', lastTransitionTime: null }] });
    expect(shaped(certificateSigningRequestDefinition, { metadata: { name: 'c' }, spec: { request: 'cmVx', signerName: 'a.io/b' }, status: { conditions: [] } }).status).toEqual({});
  });

  test('Workload: schedulingConstraints and podGroupTemplates have no omitempty upstream', () => {
    const spec = shaped(workloadDefinition, {
      metadata: { name: 'w' },
      spec: { podGroupTemplates: [{ name: 'a', schedulingPolicy: { basic: {} }, resourceClaims: [], priorityClassName: '' }] },
    }).spec;
    expect(spec).toEqual({ podGroupTemplates: [{ name: 'a', schedulingPolicy: { basic: {} }, schedulingConstraints: null }] });
    const composite = shaped(workloadDefinition, {
      metadata: { name: 'w' },
      spec: { podGroupTemplates: [], compositePodGroupTemplates: [{ name: 'c', schedulingPolicy: { gang: { minGroupCount: 1 } }, podGroupTemplates: [] }] },
    }).spec;
    expect(composite).toEqual({ podGroupTemplates: null, compositePodGroupTemplates: [{ name: 'c', schedulingPolicy: { gang: { minGroupCount: 1 } } }] });
  });

  test('a field declared with a class keeps its tag when the class is resolved', () => {
    const spec = deref(schemaOf(workloadDefinition.schemaRoot!).properties!.spec)!;
    expect([spec['x-go-omitempty'], Object.keys(spec.properties!)]).toEqual([false, ['controllerRef', 'podGroupTemplates', 'compositePodGroupTemplates']]);
  });
});
