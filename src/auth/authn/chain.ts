/**
 * Upstream's authenticator chain: client certificate and bearer-token
 * authenticators in a union (the first user wins); when none claims the
 * request, a presented but unrecognised credential is 401, never anonymous.
 */
import type { UserInfo } from '../../machinery/resource-definition';
import { runMaybeAsync, type MaybePromise } from '../../machinery/maybe-async';
import { anonymousUser, withAuthenticatedGroup } from '../user';
import type { Authenticator, AuthnResult, Credentials } from './authenticator';

export type ChainResult = { user: UserInfo } | { unauthorized: string };

export class AuthenticatorChain {
  constructor(
    private readonly certificate: Authenticator[],
    private readonly token: Authenticator[],
    private readonly anonymous: boolean,
  ) {}

  /** Synchronous when every authenticator asked answered synchronously (a token file, a cached token). */
  authenticate(c: Credentials): MaybePromise<ChainResult> {
    return runMaybeAsync(this.steps(c));
  }

  private *steps(c: Credentials): Generator<unknown, ChainResult, AuthnResult> {
    const problems: string[] = [];
    for (const a of this.certificate) {
      const r: AuthnResult = yield a.authenticate(c);
      if (r && 'user' in r) return { user: withAuthenticatedGroup(r.user) };
      if (r) problems.push(r.error);
    }
    if (c.bearerToken !== undefined) {
      const r = yield* this.tokenUser(c);
      if ('user' in r) return { user: r.user };
      for (const e of r.errors) problems.push(e);
      // Nobody claimed the token: upstream's "invalid bearer token".
      if (problems.length === 0) problems.push('invalid bearer token');
    }
    if (problems.length) return { unauthorized: problems.join('; ') };
    if (this.anonymous) return { user: anonymousUser };
    return { unauthorized: 'no credentials' };
  }

  /**
   * A bearer token alone, as a TokenReview presents it (upstream hands its
   * request authenticator a request with nothing but the token): who it is
   * and for which of `audiences` it is good, or why it is not.
   */
  async authenticateToken(bearerToken: string, audiences?: string[]): Promise<{ user: UserInfo; audiences?: string[] } | { error: string }> {
    const r = await runMaybeAsync(this.tokenUser({ bearerToken, audiences }));
    return 'user' in r ? r : { error: r.errors.length ? r.errors.join('; ') : 'invalid bearer token' };
  }

  /** The token authenticators in turn: the first user wins, else every error they gave. */
  private *tokenUser(c: Credentials): Generator<unknown, { user: UserInfo; audiences?: string[] } | { errors: string[] }, AuthnResult> {
    const errors: string[] = [];
    for (const a of this.token) {
      const r: AuthnResult = yield a.authenticate(c);
      if (r && 'user' in r) return r.audiences ? { user: withAuthenticatedGroup(r.user), audiences: r.audiences } : { user: withAuthenticatedGroup(r.user) };
      if (r) errors.push(r.error);
    }
    return { errors };
  }
}
