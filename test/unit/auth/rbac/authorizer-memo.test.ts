import { RbacAuthorizer, type KindSnapshotSource } from '../../../../src/auth/authz/rbac-authorizer';
import type { KObject } from '../../../../src/machinery/object';
import type { AuthzAttributes } from '../../../../src/ports/authorizer.port';

/** One kind as the watch cache holds it: its objects and a change counter bumped on every write. */
function kind(objects: KObject[] = []) {
  const k = {
    objects,
    changes: 0,
    reads: 0,
    put(o: KObject) {
      k.objects = [...k.objects.filter((x) => x.metadata.name !== o.metadata.name || x.metadata.namespace !== o.metadata.namespace), o];
      k.changes++;
    },
    remove(name: string) {
      k.objects = k.objects.filter((x) => x.metadata.name !== name);
      k.changes++;
    },
    source: (): KindSnapshotSource => ({ changes: () => k.changes, objects: () => (k.reads++, k.objects) }),
  };
  return k;
}

const role = { metadata: { name: 'cm-reader' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] } as unknown as KObject;
const binding = (name: string, user: string) =>
  ({ metadata: { name, namespace: 'team' }, roleRef: { kind: 'ClusterRole', name: 'cm-reader' }, subjects: [{ kind: 'User', name: user }] }) as unknown as KObject;

describe('RBAC authorizer over cache views: memoized rules and decisions, dropped on any RBAC change', () => {
  const get = (user: string, name = 'a'): AuthzAttributes => ({
    user: { username: user, groups: ['system:authenticated'] }, verb: 'get', resourceRequest: true, apiGroup: '', resource: 'configmaps', namespace: 'team', name,
  });
  const setup = () => {
    const kinds = { roles: kind(), roleBindings: kind([binding('ann-reads', 'ann')]), clusterRoles: kind([role]), clusterRoleBindings: kind() };
    const authz = new RbacAuthorizer({ roles: kinds.roles.source(), roleBindings: kinds.roleBindings.source(), clusterRoles: kinds.clusterRoles.source(), clusterRoleBindings: kinds.clusterRoleBindings.source() });
    return { kinds, authz };
  };

  it('answers repeated questions without re-reading the policy', () => {
    const { kinds, authz } = setup();
    expect(authz.authorize(get('ann')).allowed).toBe(true);
    expect(authz.authorize(get('ann')).allowed).toBe(true);
    expect(authz.authorize(get('bob')).allowed).toBe(false);
    expect(kinds.roleBindings.reads).toBe(1);
  });

  it('a deleted RoleBinding stops working on the next request', () => {
    const { kinds, authz } = setup();
    expect(authz.authorize(get('ann')).allowed).toBe(true);
    kinds.roleBindings.remove('ann-reads');
    expect(authz.authorize(get('ann')).allowed).toBe(false);
  });

  it('a new binding, or a role losing its rule, shows on the next request', () => {
    const { kinds, authz } = setup();
    expect(authz.authorize(get('bob')).allowed).toBe(false);
    kinds.roleBindings.put(binding('bob-reads', 'bob'));
    expect(authz.authorize(get('bob')).allowed).toBe(true);
    kinds.clusterRoles.put({ metadata: { name: 'cm-reader' }, rules: [] } as unknown as KObject);
    expect(authz.authorize(get('bob')).allowed).toBe(false);
    expect(authz.authorize(get('ann')).allowed).toBe(false);
  });

  it('decisions depend on every attribute, names included', () => {
    const { kinds, authz } = setup();
    kinds.clusterRoles.put({ metadata: { name: 'cm-reader' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'], resourceNames: ['a'] }] } as unknown as KObject);
    expect(authz.authorize(get('ann', 'a')).allowed).toBe(true);
    expect(authz.authorize(get('ann', 'b')).allowed).toBe(false);
    expect(authz.authorize({ ...get('ann', 'a'), verb: 'delete' }).allowed).toBe(false);
    expect(authz.authorize({ ...get('ann', 'a'), namespace: 'other' }).allowed).toBe(false);
  });

  it('one user object asking again (a remembered token) is answered from its own memo, and revoked all the same', () => {
    const { kinds, authz } = setup();
    const ann = get('ann').user;
    const ask = (namespace = 'team', name = 'a') => authz.authorize({ ...get('ann', name), user: ann, namespace }).allowed;
    expect(ask()).toBe(true);
    expect(ask('other')).toBe(false);
    expect(ask()).toBe(true);
    kinds.roleBindings.remove('ann-reads');
    expect(ask()).toBe(false);
    kinds.roleBindings.put(binding('ann-reads', 'ann'));
    expect(ask()).toBe(true);
    expect(ask('other')).toBe(false);
    // Another object for a user of the same name but other groups is its own question.
    kinds.roleBindings.remove('ann-reads');
    kinds.roleBindings.put({ ...binding('devs-read', 'x'), subjects: [{ kind: 'Group', name: 'devs' }] } as unknown as KObject);
    expect(authz.authorize({ ...get('ann'), user: { username: 'ann', groups: ['devs'] } }).allowed).toBe(true);
    expect(ask()).toBe(false);
  });
});
