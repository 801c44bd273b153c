/** kube-root-ca.crt in every active namespace, put back when deleted or edited (upstream's root-ca-cert-publisher). */
import { backends, startTestServer, TestServer } from '../support/test-server';

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
  const eventually = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 100 && !(await check()); i++) await new Promise((r) => setTimeout(r, 100));
    return check();
  };
  const caIn = async (ns: string) => (await call('GET', `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`)).json.data?.['ca.crt'];

  it('publishes into system and new namespaces, and repairs deletions and edits', async () => {
    expect(await eventually(async () => (await caIn('kube-system')) === bundle)).toBe(true);
    await call('POST', '/api/v1/namespaces', { metadata: { name: 'team' } });
    expect(await eventually(async () => (await caIn('team')) === bundle)).toBe(true);
    const cm = (await call('GET', '/api/v1/namespaces/team/configmaps/kube-root-ca.crt')).json;
    expect(cm.metadata.annotations['kubernetes.io/description']).toContain('Contains a CA bundle');
    await call('PUT', '/api/v1/namespaces/team/configmaps/kube-root-ca.crt', { ...cm, data: { 'ca.crt': 'tampered' } });
    expect(await eventually(async () => (await caIn('team')) === bundle)).toBe(true);
    await call('DELETE', '/api/v1/namespaces/team/configmaps/kube-root-ca.crt');
    expect(await eventually(async () => (await caIn('team')) === bundle)).toBe(true);
  });
});
