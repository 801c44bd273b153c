/** The garbage collector's pass decodes objects only when the cached JSON shows an owner waiting for it. */
import { startGcFinalizers } from '../../../src/controllers/garbage-collector/finalizers';
import { configMapDefinition } from '../../../src/resources/config-map';
import type { RegistryClient } from '../../../src/controllers/registry-client';
import type { ScanCache } from '../../../src/controllers/changes';
import type { KObject } from '../../../src/machinery/object';

function registryWith(objects: KObject[]) {
  const decoded: string[] = [];
  const registry = {
    definitions: [configMapDefinition],
    list: async () => {
      decoded.push('list');
      return { apiVersion: 'v1', kind: 'ConfigMapList', metadata: {}, items: objects };
    },
  } as unknown as RegistryClient;
  // What the watch cache holds: each object's JSON.
  const scan: ScanCache = (_def, test) => objects.some((o) => test(Buffer.from(JSON.stringify(o))));
  return { registry, scan, decoded };
}

const cm = (name: string, meta: Record<string, unknown> = {}): KObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns', uid: `u-${name}`, ...meta } });
const noChanges = () => () => undefined;

describe('garbage collector pass', () => {
  test('without an object being deleted with a collector finalizer, nothing is decoded', async () => {
    const { registry, scan, decoded } = registryWith([cm('a'), cm('b', { finalizers: ['example.com/other'], deletionTimestamp: '2026-01-01T00:00:00Z' }), cm('c', { finalizers: ['orphan'] })]);
    const gc = startGcFinalizers(registry, () => {}, { watchAll: noChanges, scan });
    await gc.sync();
    await gc.stop();
    expect(decoded).toEqual([]);
  });

  test('an owner waiting with the orphan finalizer gets a full pass', async () => {
    const owner = cm('owner', { finalizers: ['orphan'], deletionTimestamp: '2026-01-01T00:00:00Z' });
    const { registry, scan, decoded } = registryWith([cm('a'), owner]);
    const gc = startGcFinalizers(registry, () => {}, { watchAll: noChanges, scan });
    await gc.sync();
    await gc.stop();
    expect(decoded).toEqual(['list']);
  });
});
