/**
 * Grants a user a ClusterRole (or creates any RBAC object) and waits until the server's authorizer can see it. RBAC is evaluated from the watch
 * cache, as upstream evaluates it from informers: a request right after the binding's create may still be judged
 * without it. A GET at the create's resourceVersion is served once the cache of that kind has reached it.
 */
import type { Credentials, HttpsResponse, SecureTestServer } from './secure-server';

const rbac = '/apis/rbac.authorization.svc.io/v1';

export async function grantClusterRole(s: SecureTestServer, admin: Credentials, name: string, rules: unknown[], user: string): Promise<void> {
  const role = await s.call('POST', `${rbac}/clusterroles`, admin, { metadata: { name }, rules });
  const binding = await s.call('POST', `${rbac}/clusterrolebindings`, admin, {
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name },
    subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.svc.io', name: user }],
  });
  if (role.status !== 201 || binding.status !== 201) throw new Error(`grant ${name}: ${role.status} / ${binding.status}`);
  await seenByCache(s, admin, `${rbac}/clusterroles`, role);
  await seenByCache(s, admin, `${rbac}/clusterrolebindings`, binding);
}

/** Creates an RBAC object (POST to collection) as admin and waits until the authorizer can see it. */
export async function createRbac(s: SecureTestServer, admin: Credentials, collection: string, body: unknown): Promise<void> {
  const created = await s.call('POST', collection, admin, body);
  if (created.status !== 201) throw new Error(`POST ${collection}: ${created.status} ${created.text}`);
  await seenByCache(s, admin, collection, created);
}

/** Waits until the watch cache of the collection's kind has reached the object just created in it. */
async function seenByCache(s: SecureTestServer, admin: Credentials, collection: string, created: HttpsResponse): Promise<void> {
  const { name, resourceVersion } = (created.json as { metadata: { name: string; resourceVersion: string } }).metadata;
  const seen = await s.call('GET', `${collection}/${name}?resourceVersion=${resourceVersion}`, admin);
  if (seen.status !== 200) throw new Error(`the cache did not reach ${collection}/${name} at ${resourceVersion} (${seen.status})`);
}
