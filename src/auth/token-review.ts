/**
 * TokenReview (authentication/v1), as upstream's tokenreview REST: the
 * token in spec is put to the server's bearer-token authenticators, as a
 * request carrying nothing but that token would be, for spec.audiences (else
 * the server's own, --api-audiences); the answer says whether it
 * authenticated, as whom, for which audiences, or why not. Webhook token
 * authenticators, kube-rbac-proxy and metrics scrapers ask it.
 */
import { isPlainObject, type KObject } from '../machinery/object';
import { errors } from '../machinery/status';
import type { UserInfo } from '../machinery/resource-definition';
import { intersectAudiences } from './authn/audiences';

/** The token half of the authenticator chain (AuthenticatorChain.authenticateToken). */
export interface TokenAuthenticator {
  authenticateToken(token: string, audiences?: string[]): Promise<{ user: UserInfo; audiences?: string[] } | { error: string }>;
}

function audiencesOf(spec: Record<string, unknown>): string[] {
  const a = spec.audiences;
  if (a === undefined || a === null) return [];
  if (!Array.isArray(a) || a.some((x) => typeof x !== 'string')) {
    throw errors.badRequest('TokenReview in version "v1" cannot be handled as a TokenReview: spec.audiences must be a list of strings');
  }
  return a as string[];
}

/** The user as authentication/v1 UserInfo writes it: empty fields left out. */
function userInfo(u: UserInfo): Record<string, unknown> {
  return {
    username: u.username,
    ...(u.uid ? { uid: u.uid } : {}),
    ...(u.groups.length ? { groups: u.groups } : {}),
    ...(u.extra && Object.keys(u.extra).length ? { extra: u.extra } : {}),
  };
}

export async function answerTokenReview(body: KObject, authenticator: TokenAuthenticator, apiAudiences: string[]): Promise<KObject> {
  const spec = (isPlainObject(body.spec) ? body.spec : {}) as Record<string, unknown>;
  if (spec.token !== undefined && spec.token !== null && typeof spec.token !== 'string') {
    throw errors.badRequest('TokenReview in version "v1" cannot be handled as a TokenReview: spec.token must be a string');
  }
  if (!spec.token) throw errors.badRequest('token is required for TokenReview in authentication');
  const requested = audiencesOf(spec);
  const audiences = requested.length ? requested : apiAudiences;
  const result = await authenticator.authenticateToken(spec.token as string, audiences.length ? audiences : undefined);
  // Fields in authentication/v1's order; `user` is a struct upstream, so it is there ({}) even when nobody authenticated.
  let status: Record<string, unknown>;
  if ('user' in result) {
    // An authenticator that answered for none of the asked audiences is a server fault, as upstream reports it.
    if (audiences.length && intersectAudiences(audiences, result.audiences ?? []).length === 0) throw errors.internal('error validating audiences');
    status = { authenticated: true, user: userInfo(result.user), ...(result.audiences?.length ? { audiences: result.audiences } : {}) };
  } else {
    status = { user: {}, error: result.error };
  }
  const metadata = { ...body.metadata };
  delete metadata.managedFields;
  return { kind: 'TokenReview', apiVersion: body.apiVersion, metadata, spec: body.spec ?? {}, status } as KObject;
}
