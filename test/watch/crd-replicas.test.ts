/**
 * Two replicas on one etcd, as the production wiring assembles them: a CustomResourceDefinition created through
 * replica A is served by replica B without a restart (discovery, custom resources read and written, watches), and
 * withdrawn from B once it is deleted through A (B's watches on the kind end, discovery forgets it).
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { assemble } from '../../src/composition/assemble';
import { EtcdStorage } from '../../src/adapters/etcd';
import { FeatureGates } from '../../src/machinery/feature-gates';
import { etcdEndpoints } from '../support/test-server';
import { call, until, WatchClient } from './harness';

interface Replica {
  url: string;
  close(): Promise<void>;
}

/** One replica: its own etcd client on the shared prefix, every controller running, stopped whole by the test. */
async function startReplica(prefix: string): Promise<Replica> {
  const storage = new EtcdStorage({ endpoints: etcdEndpoints(), prefix });
  const assembled = assemble({ storage, gates: new FeatureGates({}), log: () => undefined, watchCache: { retryMinMs: 20, retryMaxMs: 200 } });
  await new Promise<void>((resolve) => assembled.server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(assembled.server.address() as AddressInfo).port}`;
  await until('the replica to be ready', async () => (await fetch(`${url}/readyz`)).status === 200, { timeoutMs: 15_000 });
  return {
    url,
    async close() {
      assembled.server.closeAllConnections();
      await assembled.shutdown();
    },
  };
}

const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const widgets = (ns?: string) => (ns ? `/apis/example.com/v1/namespaces/${ns}/widgets` : '/apis/example.com/v1/widgets');
const aggregatedAccept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wd'] },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { color: { type: 'string' }, size: { type: 'integer', default: 3 } } } } } },
      },
    ],
  },
};
const widget = (name: string, color: string) => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name }, spec: { color } });

/** The example.com group in a replica's aggregated discovery, or undefined. */
async function discovered(url: string): Promise<any> {
  const res = await call(url, 'GET', '/apis', undefined, { accept: aggregatedAccept });
  return res.json.items.find((g: any) => g.metadata.name === 'example.com');
}

describe('a CustomResourceDefinition on two replicas sharing one etcd', () => {
  let a: Replica;
  let b: Replica;
  beforeAll(async () => {
    const prefix = `/crd-replicas-${randomBytes(6).toString('hex')}`;
    a = await startReplica(prefix);
    b = await startReplica(prefix);
  }, 40_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  test('created on A, served by B without a restart; deleted on A, withdrawn from B', async () => {
    // Before: B knows nothing of the group.
    expect((await call(b.url, 'GET', widgets('default'))).status).toBe(404);
    expect(await discovered(b.url)).toBeUndefined();

    expect((await call(a.url, 'POST', crdPath, crd)).status).toBe(201);
    await until(
      'the CRD to be Established',
      async () => (await call(a.url, 'GET', `${crdPath}/widgets.example.com`)).json.status?.conditions?.some((c: any) => c.type === 'Established' && c.status === 'True'), { timeoutMs: 10_000 });

    // B serves the kind: legacy and aggregated discovery, then reads and writes.
    await until('B to discover example.com/v1', async () => (await call(b.url, 'GET', '/apis/example.com/v1')).status === 200, { timeoutMs: 10_000 });
    const legacy = await call(b.url, 'GET', '/apis/example.com/v1');
    expect(legacy.json.resources.map((r: any) => [r.name, r.kind, r.namespaced])).toEqual([['widgets', 'Widget', true]]);
    await until('B to list example.com in aggregated discovery', async () => (await discovered(b.url)) !== undefined, { timeoutMs: 10_000 });
    expect((await discovered(b.url)).versions[0].resources.map((r: any) => [r.resource, r.responseKind.kind])).toEqual([['widgets', 'Widget']]);

    const list = await call(b.url, 'GET', widgets('default'));
    expect(list.status).toBe(200);
    const watchB = await WatchClient.open(b.url, `${widgets('default')}?watch=1&resourceVersion=${list.json.metadata.resourceVersion}`);
    try {
      const created = await call(b.url, 'POST', widgets('default'), widget('from-b', 'red'));
      expect(created.status).toBe(201);
      expect(created.json.spec).toEqual({ color: 'red', size: 3 });
      const onA = await call(a.url, 'GET', `${widgets('default')}/from-b`);
      expect(onA.json).toEqual(created.json);
      const fromA = (await call(a.url, 'POST', widgets('default'), widget('from-a', 'blue'))).json;
      const patched = await call(b.url, 'PATCH', `${widgets('default')}/from-a`, { spec: { size: 5 } }, { 'content-type': 'application/merge-patch+json' });
      expect(patched.status).toBe(200);
      expect(patched.json.spec).toEqual({ color: 'blue', size: 5 });
      expect((await call(a.url, 'GET', widgets())).json.items.map((i: any) => i.metadata.name)).toEqual(['from-a', 'from-b']);
      expect((await call(b.url, 'GET', `${widgets()}?fieldSelector=metadata.name%3Dfrom-a`)).json.items.map((i: any) => i.spec.size)).toEqual([5]);
      expect((await call(b.url, 'DELETE', `${widgets('default')}/from-b`)).status).toBe(200);
      expect((await call(a.url, 'GET', `${widgets('default')}/from-b`)).status).toBe(404);

      // B's watch saw every change, its own and A's, in order.
      const events = await watchB.waitFor(4);
      expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED from-b', 'ADDED from-a', 'MODIFIED from-a', 'DELETED from-b']);
      expect(events[1].object).toEqual(fromA);

      // Deleted through A: its objects go, and B stops serving the kind; B's watch on it ends.
      expect((await call(a.url, 'DELETE', `${crdPath}/widgets.example.com`)).status).toBe(200);
      await until('the CRD to be deleted', async () => (await call(a.url, 'GET', `${crdPath}/widgets.example.com`)).status === 404, { timeoutMs: 15_000 });
      await until('B to withdraw widgets', async () => (await call(b.url, 'GET', widgets('default'))).status === 404, { timeoutMs: 10_000 });
      await watchB.waitEnd(10_000);
      expect(watchB.events.slice(4).map((e) => `${e.type} ${e.object.metadata?.name}`)).toEqual(['DELETED from-a']);
      expect((await call(b.url, 'GET', '/apis/example.com/v1')).status).toBe(404);
      expect(await discovered(b.url)).toBeUndefined();
      expect((await call(b.url, 'POST', widgets('default'), widget('late', 'red'))).status).toBe(404);
    } finally {
      watchB.close();
    }
  }, 60_000);
});
