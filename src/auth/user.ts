/** Well-known users and groups, as upstream names them. */
import type { UserInfo } from '../machinery/resource-definition';

export const groups = {
  masters: 'system:masters',
  authenticated: 'system:authenticated',
  unauthenticated: 'system:unauthenticated',
  serviceAccounts: 'system:serviceaccounts',
} as const;

export const anonymousUser: UserInfo = { username: 'system:anonymous', groups: [groups.unauthenticated] };
export const localAdmin: UserInfo = { username: 'system:admin', groups: [groups.masters, groups.authenticated] };

const saPrefix = 'system:serviceaccount:';

export function serviceAccountUsername(namespace: string, name: string): string {
  return `${saPrefix}${namespace}:${name}`;
}

/** `system:serviceaccount:<ns>:<name>` split into its parts; undefined for other names. */
export function parseServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(saPrefix)) return undefined;
  const parts = username.slice(saPrefix.length).split(':');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  return { namespace: parts[0], name: parts[1] };
}

export function serviceAccountGroups(namespace: string): string[] {
  return [groups.serviceAccounts, `${groups.serviceAccounts}:${namespace}`];
}

/** Each authenticator's user with the group added, for as long as that user object lives. */
const withGroup = new WeakMap<UserInfo, UserInfo>();

/**
 * Every authenticated user is in system:authenticated (upstream's AuthenticatedGroupAdder). A remembered token
 * gives the same user object each time, and so does this: the authorizer then knows the user by that object. Users
 * are never changed once authenticated (impersonation builds a new one).
 */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.username === anonymousUser.username || user.groups.includes(groups.authenticated)) return user;
  let added = withGroup.get(user);
  if (!added) withGroup.set(user, (added = { ...user, groups: [...user.groups, groups.authenticated] }));
  return added;
}
