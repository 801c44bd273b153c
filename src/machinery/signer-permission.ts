/**
 * Upstream's IsAuthorizedForSignerName: a verb (approve, sign, attest) on
 * `signers` in certificates.svc.io, for the exact signer name or for every
 * signer of its domain (`<domain>/*`).
 */
import type { StrategyContext } from './resource-definition';

export const signersGroup = 'certificates.svc.io';

export function authorizedForSigner(ctx: StrategyContext, verb: 'approve' | 'sign' | 'attest', signerName: string): boolean {
  const ask = (name: string) =>
    ctx.authorizer.authorize({ user: ctx.user, verb, resourceRequest: true, apiGroup: signersGroup, resource: 'signers', name }).allowed;
  if (ask(signerName)) return true;
  const slash = signerName.indexOf('/');
  return slash > 0 && ask(`${signerName.slice(0, slash)}/*`);
}
