/**
 * Upstream's authenticator chain: client certificate and bearer-token
 * authenticators in a union (the first user wins); when none claims the
 * request, a presented but unrecognised credential is 401, never anonymous.
 */
import type { UserInfo } from '../../machinery/resource-definition';
import { anonymousUser, withAuthenticatedGroup } from '../user';
import type { Authenticator, Credentials } from './authenticator';

export type ChainResult = { user: UserInfo } | { unauthorized: string };

export class AuthenticatorChain {
  constructor(
    private readonly certificate: Authenticator[],
    private readonly token: Authenticator[],
    private readonly anonymous: boolean,
  ) {}

  async authenticate(c: Credentials): Promise<ChainResult> {
    const problems: string[] = [];
    for (const a of this.certificate) {
      const r = await a.authenticate(c);
      if (r && 'user' in r) return { user: withAuthenticatedGroup(r.user) };
      if (r) problems.push(r.error);
    }
    if (c.bearerToken !== undefined) {
      for (const a of this.token) {
        const r = await a.authenticate(c);
        if (r && 'user' in r) return { user: withAuthenticatedGroup(r.user) };
        if (r) problems.push(r.error);
      }
      // Nobody claimed the token: upstream's "invalid bearer token".
      if (problems.length === 0) problems.push('invalid bearer token');
    }
    if (problems.length) return { unauthorized: problems.join('; ') };
    if (this.anonymous) return { user: anonymousUser };
    return { unauthorized: 'no credentials' };
  }
}
