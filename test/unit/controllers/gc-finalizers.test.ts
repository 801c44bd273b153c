/** The garbage collector's pass decodes objects only when some object may be an owner waiting for it. */
import { startGcFinalizers } from '../../../src/controllers/garbage-collector/finalizers';
import { configMapDefinition } from '../../../src/resources/config-map';
import type { Registry } from '../../../src/registry/registry';
import type { KObject } from '../../../src/machinery/object';
import { ListResult } from '../../../src/registry/results';

function registryWith(objects: KObject[]) {
  const decoded: string[] = [];
  const registry = {
    definitions: [configMapDefinition],
    // As the watch cache answers: the items' JSON at hand, decoded only when a caller reads the items.
    list: async () =>
      new ListResult({ apiVersion: 'v1', kind: 'ConfigMapList', metadata: {} }, {
        encoded: objects.map((o, i) => Buffer.from((i ? ',' : '') + JSON.stringify(o))),
        decode: () => {
          decoded.push('list');
          return objects;
        },
      }),
  } as unknown as Registry;
  return { registry, decoded };
}

const cm = (name: string, meta: Record<string, unknown> = {}): KObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns', uid: `u-${name}`, ...meta } });

describe('garbage collector pass', () => {
  test('without an object being deleted with a collector finalizer, nothing is decoded', async () => {
    const { registry, decoded } = registryWith([cm('a'), cm('b', { finalizers: ['example.com/other'], deletionTimestamp: '2026-01-01T00:00:00Z' })]);
    const gc = startGcFinalizers(registry, () => {}, { changes: () => 0, intervalMs: 1e9 });
    await gc.sync();
    gc.stop();
    expect(decoded).toEqual([]);
  });

  test('an owner waiting with the orphan finalizer gets a full pass', async () => {
    const owner = cm('owner', { finalizers: ['orphan'], deletionTimestamp: '2026-01-01T00:00:00Z' });
    const { registry, decoded } = registryWith([cm('a'), owner]);
    const gc = startGcFinalizers(registry, () => {}, { changes: () => 0, intervalMs: 1e9 });
    await gc.sync();
    gc.stop();
    expect(decoded).toEqual(['list']);
  });
});
