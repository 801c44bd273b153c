/** Signing and verifying service-account JWTs; the adapter holds the keys. */
import type { MaybePromise } from '../machinery/maybe-async';

export interface TokenClaims {
  iss: string;
  sub: string;
  aud: string[];
  exp: number;
  iat: number;
  nbf: number;
  jti?: string;
  [claim: string]: unknown;
}

export class InvalidTokenError extends Error {}

export interface TokenPort {
  sign(claims: TokenClaims): Promise<string>;
  /**
   * Verifies signature, time and audience. Resolves undefined when the token
   * is not a JWT from one of `issuers` (another authenticator's), throws
   * InvalidTokenError when it is ours but invalid.
   */
  verify(token: string, opts: { issuers: string[]; audiences: string[]; now: Date }): MaybePromise<TokenClaims | undefined>;
}
