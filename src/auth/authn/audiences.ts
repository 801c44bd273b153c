/**
 * Audiences as upstream's authenticator package treats them: a TokenReview
 * asks for a token meant for given audiences; an authenticator that knows
 * nothing of audiences (the token file) answers for the server's own ones
 * only, and says it did.
 */
import { isPromiseLike, type MaybePromise } from '../../machinery/maybe-async';
import type { Authenticator, AuthnResult, Credentials } from './authenticator';

/** The members of `a` that `b` holds, in a's order (upstream's Audiences.Intersect). */
export function intersectAudiences(a: readonly string[], b: readonly string[]): string[] {
  return a.filter((x) => b.includes(x));
}

/**
 * Upstream's WrapAudienceAgnosticToken: without asked-for audiences the
 * inner authenticator decides alone; with them, a token is only good for the
 * server's audiences (`implicit`) among them, and has no opinion when none is.
 */
export function audienceAgnostic(inner: Authenticator, implicit: readonly string[]): Authenticator {
  return {
    authenticate(c: Credentials): MaybePromise<AuthnResult> {
      if (!c.audiences) return inner.authenticate(c);
      const audiences = intersectAudiences(implicit, c.audiences);
      if (audiences.length === 0) return undefined;
      const withAudiences = (r: AuthnResult): AuthnResult => (r && 'user' in r ? { user: r.user, audiences } : r);
      const r = inner.authenticate(c);
      return isPromiseLike(r) ? r.then(withAudiences) : withAudiences(r);
    },
  };
}
