/**
 * Upstream's authenticator chain: client certificate and bearer-token
 * authenticators in a union (the first user wins); when none claims the
 * request, a presented but unrecognised credential is 401, never anonymous.
 */
import type { UserInfo } from '../../machinery/resource-definition';
import { andThen, isPromiseLike, type MaybePromise } from '../../machinery/maybe-async';
import { anonymousUser, withAuthenticatedGroup } from '../user';
import type { Authenticator, AuthnResult, Credentials } from './authenticator';

export type ChainResult = { user: UserInfo } | { unauthorized: string };

type TokenOutcome = { user: UserInfo; audiences?: string[] } | { errors: string[] };

/**
 * Asks `authenticators` in turn from `from` until one answers with a user: `step` hears each answer and returns
 * what ends the turn, if anything. Synchronous while they answer synchronously (a token file, a cached token): an
 * async function would cost a promise and a trip through the microtask queue per request even then.
 */
function inTurn<T>(authenticators: Authenticator[], c: Credentials, step: (r: AuthnResult) => T | undefined, from = 0): MaybePromise<T | undefined> {
  for (let i = from; i < authenticators.length; i++) {
    const r = authenticators[i].authenticate(c);
    if (isPromiseLike(r)) return r.then((answer) => step(answer) ?? inTurn(authenticators, c, step, i + 1));
    const done = step(r);
    if (done !== undefined) return done;
  }
  return undefined;
}

export class AuthenticatorChain {
  constructor(
    private readonly certificate: Authenticator[],
    private readonly token: Authenticator[],
    private readonly anonymous: boolean,
  ) {}

  /** Synchronous when every authenticator asked answered synchronously (a token file, a cached token). */
  authenticate(c: Credentials): MaybePromise<ChainResult> {
    const problems: string[] = [];
    const byCertificate = inTurn(this.certificate, c, (r): ChainResult | undefined => {
      if (r && 'user' in r) return { user: withAuthenticatedGroup(r.user) };
      if (r) problems.push(r.error);
      return undefined;
    });
    return andThen(byCertificate, (found) => found ?? this.afterCertificates(c, problems));
  }

  private afterCertificates(c: Credentials, problems: string[]): MaybePromise<ChainResult> {
    if (c.bearerToken === undefined) return this.verdict(problems);
    return andThen(this.tokenUser(c), (r): ChainResult => {
      if ('user' in r) return { user: r.user };
      for (const e of r.errors) problems.push(e);
      // Nobody claimed the token: upstream's "invalid bearer token".
      if (problems.length === 0) problems.push('invalid bearer token');
      return this.verdict(problems);
    });
  }

  private verdict(problems: string[]): ChainResult {
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
    const r = await this.tokenUser({ bearerToken, audiences });
    return 'user' in r ? r : { error: r.errors.length ? r.errors.join('; ') : 'invalid bearer token' };
  }

  /** The token authenticators in turn: the first user wins, else every error they gave. */
  private tokenUser(c: Credentials): MaybePromise<TokenOutcome> {
    const errors: string[] = [];
    const found = inTurn(this.token, c, (r): TokenOutcome | undefined => {
      if (r && 'user' in r) return r.audiences ? { user: withAuthenticatedGroup(r.user), audiences: r.audiences } : { user: withAuthenticatedGroup(r.user) };
      if (r) errors.push(r.error);
      return undefined;
    });
    return andThen(found, (r) => r ?? { errors });
  }
}
