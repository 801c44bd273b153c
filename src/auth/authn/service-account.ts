/**
 * Bound service-account tokens: JWTs from our issuer, valid while their
 * ServiceAccount (same uid) and bound object exist. Lookups read the watch
 * cache, never storage.
 */
import type { ClockPort } from '../../ports/clock.port';
import type { UserInfo } from '../../machinery/resource-definition';
import { InvalidTokenError, type TokenClaims, type TokenPort } from '../../ports/token.port';
import { serviceAccountGroups, serviceAccountUsername } from '../user';
import { isPromiseLike, type MaybePromise } from '../../machinery/maybe-async';
import type { Authenticator, AuthnResult, Credentials } from './authenticator';
import { intersectAudiences } from './audiences';

/** Our private claims, under `kubernetes.io` as upstream writes them so that existing tools can read them. */
export interface ServiceAccountClaims {
  namespace: string;
  serviceaccount: { name: string; uid: string };
  boundObjectRef?: { apiVersion: string; kind: string; name: string; uid: string };
}

export const privateClaim = 'kubernetes.io';

/** Finds a served object's uid in the watch cache. */
export interface UidLookup {
  uidOf(apiVersion: string, kind: string, namespace: string, name: string): string | undefined;
}

export interface ServiceAccountTokenOptions {
  issuers: string[];
  audiences: string[];
}

export function serviceAccountAuthenticator(tokens: TokenPort, lookup: UidLookup, clock: ClockPort, opts: ServiceAccountTokenOptions): Authenticator {
  return {
    // Synchronous for a token the verifier remembers, as most requests present.
    authenticate: ({ bearerToken, audiences }: Credentials): MaybePromise<AuthnResult> => {
      if (!bearerToken) return undefined;
      // The audiences a TokenReview asks for, else the server's own: the token must be meant for one of them.
      const wanted = audiences ?? opts.audiences;
      let verified: MaybePromise<TokenClaims | undefined>;
      try {
        verified = tokens.verify(bearerToken, { issuers: opts.issuers, audiences: wanted, now: clock.now() });
      } catch (e) {
        return refused(e);
      }
      const user = (claims: TokenClaims | undefined) => (claims ? serviceAccountUser(lookup, claims, wanted, !audiences) : undefined);
      return isPromiseLike(verified) ? verified.then(user, refused) : user(verified);
    },
  };
}

/** A token the verifier refuses is a 401 with its reason; anything else is the server's own failure. */
function refused(e: unknown): AuthnResult {
  if (e instanceof InvalidTokenError) return { error: `service account token: ${e.message}` };
  throw e;
}

/** The user each remembered token's claims make, for the server's own audiences. */
const fromClaims = new WeakMap<TokenClaims, { user: UserInfo; audiences: string[] }>();

/** The user of verified claims (`ownAudiences`: verified for the server's audiences, not a TokenReview's). */
function serviceAccountUser(lookup: UidLookup, claims: TokenClaims, wanted: string[], ownAudiences: boolean): AuthnResult {
  const sa = claims[privateClaim] as ServiceAccountClaims | undefined;
  if (!sa?.namespace || !sa.serviceaccount?.name || claims.sub !== serviceAccountUsername(sa.namespace, sa.serviceaccount.name)) {
    return { error: 'service account token: malformed claims' };
  }
  const uid = lookup.uidOf('v1', 'ServiceAccount', sa.namespace, sa.serviceaccount.name);
  if (!uid) return { error: `service account token: serviceaccounts "${sa.serviceaccount.name}" not found` };
  if (uid !== sa.serviceaccount.uid) return { error: `service account token: the ServiceAccount's UID (${uid}) does not match the token's (${sa.serviceaccount.uid})` };
  const bound = sa.boundObjectRef;
  const extra: Record<string, string[]> = {};
  if (bound) {
    const boundUid = lookup.uidOf(bound.apiVersion, bound.kind, sa.namespace, bound.name);
    if (!boundUid || boundUid !== bound.uid) return { error: `service account token: the object it is bound to (${bound.kind} ${bound.name}) no longer exists` };
  }
  // The checks above run on every request (they revoke); what follows from the claims alone is built once for
  // the claims a remembered token gives, for the server's own audiences (a TokenReview names its own).
  const known = ownAudiences ? fromClaims.get(claims) : undefined;
  if (known) return known;
  if (claims.jti) extra['authentication.kubernetes.io/credential-id'] = [`JTI=${claims.jti}`];
  const tokenAudiences: string[] = typeof claims.aud === 'string' ? [claims.aud] : (claims.aud ?? []);
  const result = {
    user: {
      username: claims.sub,
      uid: sa.serviceaccount.uid,
      groups: serviceAccountGroups(sa.namespace),
      ...(Object.keys(extra).length ? { extra } : {}),
    },
    audiences: intersectAudiences(tokenAudiences, wanted),
  };
  if (ownAudiences) fromClaims.set(claims, result);
  return result;
}
