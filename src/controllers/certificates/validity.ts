/**
 * Certificate lifetimes as upstream's signer chooses them: the requested
 * expirationSeconds capped by --cluster-signing-duration (at least ten
 * minutes), notBefore backdated five minutes for clock skew, the backdate
 * taken off the end of long-lived certificates, and never past the CA's own
 * notAfter (pkg/controller/certificates/authority/policies.go).
 */
export const backdateMs = 5 * 60_000;
/** Certificates shorter than this keep their whole lifetime after the backdate. */
const shortMs = 8 * 3600_000;
const minimumMs = 10 * 60_000;

/** upstream's signer.duration. */
export function certificateTtlMs(expirationSeconds: number | null | undefined, maxMs: number): number {
  if (typeof expirationSeconds !== 'number') return maxMs;
  const requested = expirationSeconds * 1000;
  if (requested > maxMs) return maxMs;
  if (requested < minimumMs) return minimumMs;
  return requested;
}

export class ValidityError extends Error {}

/** upstream's PermissiveSigningPolicy times. */
export function validityWindow(now: Date, ttlMs: number, caNotAfter: Date): { notBefore: Date; notAfter: Date } {
  const t = now.getTime();
  const notBefore = new Date(t - backdateMs);
  let notAfter = new Date(ttlMs < shortMs ? t + ttlMs : t + ttlMs - backdateMs);
  if (notAfter.getTime() >= caNotAfter.getTime()) notAfter = caNotAfter;
  if (notBefore.getTime() >= caNotAfter.getTime()) throw new ValidityError(`the signer has expired: NotAfter=${caNotAfter.toISOString()}`);
  if (t >= caNotAfter.getTime()) throw new ValidityError(`refusing to sign a certificate that expired in the past: NotAfter=${caNotAfter.toISOString()}`);
  return { notBefore, notAfter };
}
