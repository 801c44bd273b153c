/**
 * A ClusterTrustBundle that names a signer needs `attest` on it (upstream's
 * ClusterTrustBundleAttest). Updates that keep the signer and the bundle
 * (metadata only, e.g. finalizer removal) are not checked again.
 */
import { errors } from '../../machinery/status';
import type { KObject } from '../../machinery/object';
import type { StrategyContext } from '../../machinery/resource-definition';
import { authorizedForSigner } from '../../machinery/signer-permission';

type CtbSpec = { signerName?: string; trustBundle?: string } | undefined;

export function admitCtb(op: 'create' | 'update', obj: KObject, old: KObject | undefined, _sub: string | undefined, ctx: StrategyContext): void {
  const spec = obj.spec as CtbSpec;
  const signer = spec?.signerName ?? '';
  if (!signer) return;
  const was = old?.spec as CtbSpec;
  if (op === 'update' && was?.signerName === signer && was?.trustBundle === spec?.trustBundle) return;
  if (!authorizedForSigner(ctx, 'attest', signer)) {
    throw errors.forbidden({ group: 'certificates.svc.io', plural: 'clustertrustbundles' }, obj.metadata.name ?? '', `user not permitted to attest for signerName "${signer}"`);
  }
}
