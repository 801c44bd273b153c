/**
 * The CustomResourceDefinition controllers woken by the watch cache, over
 * HTTP on both backends: a new CRD gets its names and Established condition
 * and its kind is served; the garbage collector follows the new kind (a
 * custom resource deleted with the orphan finalizer loses it); deleting the
 * CRD deletes its objects, then the CRD.
 */
import { backends, startTestServer, type TestServer } from '../support/test-server';
import { until } from '../support/until';

const CRDS = '/apis/apiextensions.svc.io/v1/customresourcedefinitions';
const WIDGETS = '/apis/example.com/v1/namespaces/default/widgets';

const crd = {
  apiVersion: 'apiextensions.svc.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
  },
};

describe.each(backends)('CustomResourceDefinition controllers on %s', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(backend);
  });
  afterAll(() => s.close());

  const call = async (method: string, path: string, body?: unknown, type = 'application/json') => {
    const r = await fetch(`${s.url}${path}`, { method, headers: { 'content-type': type }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: r.status, json };
  };

  it('serves the kind once Established, collects its objects, and cleans up on delete', async () => {
    expect((await call('POST', CRDS, crd)).status).toBe(201);
    const established = await until('Established', async () => {
      const c = (await call('GET', `${CRDS}/widgets.example.com`)).json;
      return c.status?.conditions?.find((x: { type: string; status: string }) => x.type === 'Established' && x.status === 'True') ? c : undefined;
    });
    expect(established.status.acceptedNames).toMatchObject({ plural: 'widgets', kind: 'Widget' });
    await until('the widget kind served', async () => ((await call('GET', WIDGETS)).status === 200 ? true : undefined));
    expect((await call('POST', WIDGETS, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { size: 3 } })).status).toBe(201);

    // The garbage collector follows kinds served later: an orphan-deleted widget loses its finalizer, and goes.
    expect((await call('DELETE', `${WIDGETS}/w1`, { propagationPolicy: 'Orphan' })).status).toBe(200);
    await until('the orphaned widget gone', async () => ((await call('GET', `${WIDGETS}/w1`)).status === 404 ? true : undefined));

    expect((await call('POST', WIDGETS, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w2' } })).status).toBe(201);
    expect((await call('DELETE', `${CRDS}/widgets.example.com`)).status).toBe(200);
    // The cleanup finalizer goes once the widgets are gone; then the kind is withdrawn.
    await until('the CRD gone', async () => ((await call('GET', `${CRDS}/widgets.example.com`)).status === 404 ? true : undefined));
    await until('the widget kind withdrawn', async () => ((await call('GET', WIDGETS)).status === 404 ? true : undefined));
  });
});
