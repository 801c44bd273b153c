/**
 * Grants a user a ClusterRole and waits until the server's authorizer can see it. RBAC is evaluated from the watch
 * cache, as upstream evaluates it from informers: a request right after the binding's create may still be judged
 * without it. A GET at the create's resourceVersion is served once the cache of that kind has reached it.
 */
import type { Credentials, SecureTestServer } from './secure-server';

const rbac = '/apis/rbac.authorization.svc.io/v1';

export async function grantClusterRole(s: SecureTestServer, admin: Credentials, name: string, rules: unknown[], user: string): Promise<void> {
  const role = await s.call('POST', `${rbac}/clusterroles`, admin, { metadata: { name }, rules });
  const binding = await s.call('POST', `${rbac}/clusterrolebindings`, admin, {
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name },
    subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.svc.io', name: user }],
  });
  if (role.status !== 201 || binding.status !== 201) throw new Error(`grant ${name}: ${role.status} / ${binding.status}`);
  for (const [plural, created] of [['clusterroles', role], ['clusterrolebindings', binding]] as const) {
    const rv = (created.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const seen = await s.call('GET', `${rbac}/${plural}/${name}?resourceVersion=${rv}`, admin);
    if (seen.status !== 200) throw new Error(`grant ${name}: the cache did not reach ${plural} at ${rv} (${seen.status})`);
  }
}
