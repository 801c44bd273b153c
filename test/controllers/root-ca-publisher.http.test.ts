/** kube-root-ca.crt in every active namespace, put back when deleted or edited (upstream's root-ca-cert-publisher). */
import { backends, startTestServer, TestServer } from '../support/test-server';
import { until } from '../support/until';

const bundle = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

describe.each(backends)('root CA publisher on %s', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(backend, {}, { controllers: { rootCaBundle: bundle } });
  });
  afterAll(() => s.close());

  const call = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${s.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: r.status, json: (await r.json()) as any };
  };
  const caIn = async (ns: string) => (await call('GET', `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`)).json.data?.['ca.crt'];
  const published = (ns: string) => until(`the bundle in ${ns}/kube-root-ca.crt`, async () => (await caIn(ns)) === bundle);

  it('publishes into system and new namespaces, and repairs deletions and edits', async () => {
    await published('kube-system');
    await call('POST', '/api/v1/namespaces', { metadata: { name: 'team' } });
    await published('team');
    const cm = (await call('GET', '/api/v1/namespaces/team/configmaps/kube-root-ca.crt')).json;
    expect(cm.metadata.annotations['kubernetes.io/description']).toContain('Contains a CA bundle');
    await call('PUT', '/api/v1/namespaces/team/configmaps/kube-root-ca.crt', { ...cm, data: { 'ca.crt': 'tampered' } });
    await published('team');
    await call('DELETE', '/api/v1/namespaces/team/configmaps/kube-root-ca.crt');
    await published('team');
  });
});
