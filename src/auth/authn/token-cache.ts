/**
 * Verified service-account JWTs remembered for a short time, as upstream's
 * cached token authenticator (success 10 s, failures not cached, keyed by a
 * hash of the audiences and the token). Only the signature, issuer, time
 * and audience checks are remembered: whether the ServiceAccount and the
 * bound object still exist is read from the cache on every request, so a
 * deletion revokes at once.
 */
import type { TokenClaims, TokenPort } from '../../ports/token.port';

export interface TokenCacheOptions {
  /** How long a verified token is remembered (never past its exp). */
  successTtlMs: number;
  /** Entries kept at most; past it the oldest go first. */
  maxEntries: number;
}

export const defaultTokenCache: TokenCacheOptions = { successTtlMs: 10_000, maxEntries: 4096 };

interface Entry {
  claims: TokenClaims | undefined;
  until: number;
}

/** `hash` keeps raw tokens out of the heap's long-lived keys (SHA-256 hex from the crypto port). */
export function cachedTokenVerifier(inner: TokenPort, hash: (s: string) => string, opts: TokenCacheOptions = defaultTokenCache): TokenPort {
  const entries = new Map<string, Entry>();
  return {
    sign: (claims) => inner.sign(claims),
    // A remembered token is answered at once: no promise, no trip through the microtask queue.
    verify(token, o) {
      const now = o.now.getTime(); // the caller's clock (a ClockPort), as the inner check uses it
      const key = hash(`${o.issuers.join('\u0000')}\u0001${o.audiences.join('\u0000')}\u0001${token}`);
      const known = entries.get(key);
      if (known && now < known.until) return known.claims;
      if (known) entries.delete(key);
      // A failure throws and is not remembered: the next request verifies again.
      return Promise.resolve(inner.verify(token, o)).then((claims) => {
        // Not ours (undefined) is a fact about the token's shape; ours is good until its exp at the latest.
        const until = Math.min(now + opts.successTtlMs, claims?.exp ? claims.exp * 1000 : Infinity);
        if (entries.size >= opts.maxEntries) entries.delete(entries.keys().next().value as string);
        entries.set(key, { claims, until });
        return claims;
      });
    },
  };
}
