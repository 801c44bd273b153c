/**
 * Authentication and authorization read nothing from storage on the request path (issue 9): a service-account
 * token (whose account must still exist) of a user bound by RBAC reads a cached object, and the server's storage
 * sees no read for it; RBAC objects and service accounts come from the watch cache.
 */
import type { StoragePort } from '../../src/ports/storage.port';
import { backends } from '../support/test-server';
import { startSecureTestServer, SecureTestServer, Credentials } from '../support/secure-server';
import { until } from '../support/until';

const rbac = '/apis/rbac.authorization.svc.io/v1';

/** The storage, with a count of every read made through it. */
function countingReads(storage: StoragePort): { storage: StoragePort; reads: () => number } {
  let reads = 0;
  const counted = new Proxy(storage, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        if (prop === 'get' || prop === 'range' || prop === 'currentRevision') reads++;
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { storage: counted, reads: () => reads };
}

describe.each(backends)('authentication and authorization on %s', (backend) => {
  let s: SecureTestServer;
  let counter: ReturnType<typeof countingReads>;
  let admin: Credentials;
  beforeAll(async () => {
    // No controllers: their periodic sweeps (the finalizer controller's consistent lists of every kind) read storage
    // on their own schedule, and one falling inside the measured requests made this test fail now and then.
    s = await startSecureTestServer(backend, {}, { storage: (st) => (counter = countingReads(st)).storage, controllers: () => ({ selection: [] }) });
    admin = await s.clientCert('system:admin', ['system:masters']);
  });
  afterAll(() => s.close());

  it('read nothing from storage for a token user bound by RBAC', async () => {
    const ok = async (method: string, path: string, body?: unknown) => {
      const r = await s.call(method, path, admin, body);
      if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
      return r;
    };
    await ok('POST', '/api/v1/namespaces/reads/serviceaccounts', { metadata: { name: 'reader' } });
    await ok('POST', `${rbac}/namespaces/reads/roles`, { metadata: { name: 'cm-reader' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] });
    await ok('POST', `${rbac}/namespaces/reads/rolebindings`, {
      metadata: { name: 'reader' },
      roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'Role', name: 'cm-reader' },
      subjects: [{ kind: 'ServiceAccount', name: 'reader', namespace: 'reads' }],
    });
    await ok('POST', '/api/v1/namespaces/reads/configmaps', { metadata: { name: 'c' }, data: { a: 'b' } });
    const token = (await ok('POST', '/api/v1/namespaces/reads/serviceaccounts/reader/token', { spec: {} })).json.status.token as string;
    // The cache has everything written so far once a consistent list has answered.
    await ok('GET', '/api/v1/namespaces/reads/configmaps');
    await ok('GET', `${rbac}/namespaces/reads/rolebindings`);
    await ok('GET', '/api/v1/namespaces/reads/serviceaccounts');
    const as = { token };
    // The authorizer's view of the new binding follows the cache's watch: allow it a moment.
    await until('the new binding to allow a read', async () => (await s.call('GET', '/api/v1/namespaces/reads/configmaps/c?resourceVersion=0', as)).status === 200);
    const before = counter.reads();
    for (let i = 0; i < 20; i++) {
      expect((await s.call('GET', '/api/v1/namespaces/reads/configmaps/c?resourceVersion=0', as)).status).toBe(200);
    }
    expect((await s.call('GET', '/api/v1/namespaces/reads/configmaps/c?resourceVersion=0', { token: `${token}x` })).status).toBe(401);
    expect((await s.call('DELETE', '/api/v1/namespaces/reads/configmaps/c', as)).status).toBe(403);
    expect(counter.reads() - before).toBe(0);
    // The count does see reads: a GET without resourceVersion is a quorum read from storage.
    expect((await s.call('GET', '/api/v1/namespaces/reads/configmaps/c', as)).status).toBe(200);
    expect(counter.reads() - before).toBeGreaterThan(0);
  });
});
