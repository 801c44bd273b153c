/**
 * Impersonation headers, as upstream's WithImpersonation: every requested
 * user, service account, group, uid and extra value needs the `impersonate`
 * verb on it; the result replaces the requester for everything after.
 */
import { errors } from '../machinery/status';
import type { UserInfo } from '../machinery/resource-definition';
import type { AuthorizerPort, AuthzAttributes } from '../ports/authorizer.port';
import { anonymousUser, groups as wellKnown, parseServiceAccountUsername, serviceAccountGroups } from './user';
import { forbiddenError } from './forbidden';

export const authenticationGroup = 'authentication.svc.io';

/** Header values one per header line (Node's `headersDistinct`), names lower-cased. */
export type Headers = Record<string, string[] | undefined>;

function all(h: Headers, name: string): string[] {
  return (h[name] ?? []).filter((x) => x !== '');
}

function one(h: Headers, name: string): string | undefined {
  return h[name]?.[0];
}

/** Any Impersonate-* header; the names alone are read (Node's `headers` or `headersDistinct`, lower-cased). */
export function wantsImpersonation(h: Record<string, unknown>): boolean {
  for (const k in h) if (k.startsWith('impersonate-')) return true;
  return false;
}

/** The impersonated user, or throws 400 / 403 as upstream. */
export function impersonate(requester: UserInfo, h: Headers, authz: AuthorizerPort): UserInfo {
  const username = one(h, 'impersonate-user');
  const groupList = all(h, 'impersonate-group');
  const uid = one(h, 'impersonate-uid');
  const extra: Record<string, string[]> = {};
  for (const key of Object.keys(h)) {
    if (!key.startsWith('impersonate-extra-')) continue;
    extra[unescapeExtraKey(key.slice('impersonate-extra-'.length))] = all(h, key);
  }
  if (!username) {
    const asked = [...groupList.map((g) => `Group ${g}`), ...(uid ? ['UID'] : []), ...Object.keys(extra).map((k) => `Extra ${k}`)];
    throw errors.badRequest(`requested [${asked.join(' ')}] without impersonating a user`);
  }
  const check = (attrs: Omit<AuthzAttributes, 'user' | 'verb' | 'resourceRequest'>, what: string) => {
    const decision = authz.authorize({ ...attrs, user: requester, verb: 'impersonate', resourceRequest: true });
    if (!decision.allowed) throw forbiddenError({ ...attrs, user: requester, verb: 'impersonate', resourceRequest: true }, decision.reason, what);
  };
  const sa = parseServiceAccountUsername(username);
  if (sa) check({ apiGroup: '', resource: 'serviceaccounts', namespace: sa.namespace, name: sa.name }, sa.name);
  else check({ apiGroup: '', resource: 'users', name: username }, username);
  for (const g of groupList) check({ apiGroup: '', resource: 'groups', name: g }, g);
  if (uid) check({ apiGroup: authenticationGroup, resource: 'uids', name: uid }, uid);
  for (const [key, values] of Object.entries(extra)) {
    for (const v of values) check({ apiGroup: authenticationGroup, resource: 'userextras', subresource: key, name: v }, v);
  }
  const groups = [...groupList];
  if (sa) groups.push(...serviceAccountGroups(sa.namespace).filter((g) => !groups.includes(g)));
  if (username === anonymousUser.username) {
    if (!groups.includes(wellKnown.unauthenticated)) groups.push(wellKnown.unauthenticated);
  } else if (!groups.includes(wellKnown.authenticated)) groups.push(wellKnown.authenticated);
  const user: UserInfo = { username, groups };
  if (uid) user.uid = uid;
  if (Object.keys(extra).length) user.extra = extra;
  return user;
}

/** A percent-encoded extra key; one that does not decode is kept as it came, as upstream keeps it. */
function unescapeExtraKey(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}
