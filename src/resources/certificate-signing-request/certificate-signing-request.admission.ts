/**
 * The spec's permission rules on CSR writes, as upstream's certificates
 * admission plugins: /approval needs `approve` on the signer, a changed
 * status.certificate needs `sign`, and the apiserver-client signer refuses
 * subjects in system:masters (CertificateSubjectRestriction).
 */
import { errors } from '../../machinery/status';
import type { KObject } from '../../machinery/object';
import type { StrategyContext } from '../../machinery/resource-definition';
import { authorizedForSigner } from '../../machinery/signer-permission';

const ref = { group: 'certificates.svc.io', plural: 'certificatesigningrequests' };
export const apiserverClientSigner = 'svc.io/apiserver-client';

function signerOf(obj: KObject): string {
  return ((obj.spec as { signerName?: string } | undefined)?.signerName ?? '') as string;
}

async function subjectOrganizations(obj: KObject, ctx: StrategyContext): Promise<string[]> {
  const request = (obj.spec as { request?: string } | undefined)?.request ?? '';
  const pem = Buffer.from(request, 'base64').toString('utf8');
  const block = ctx.crypto.parsePem(pem).find((b) => b.type === 'CERTIFICATE REQUEST');
  if (!block) return [];
  return (await ctx.crypto.parseCertificateRequest(block.bytes)).organizations;
}

export async function admitCsr(op: 'create' | 'update', obj: KObject, old: KObject | undefined, subresource: string | undefined, ctx: StrategyContext): Promise<void> {
  const signer = signerOf(obj);
  const name = obj.metadata.name ?? '';
  if (op === 'create' && signer === apiserverClientSigner && (await subjectOrganizations(obj, ctx)).includes('system:masters')) {
    throw errors.forbidden(ref, name, `use of ${signer} signer with system:masters group is not allowed`);
  }
  if (subresource === 'approval' && !authorizedForSigner(ctx, 'approve', signer)) {
    throw errors.forbidden(ref, name, `user not permitted to approve requests with signerName "${signer}"`);
  }
  if (subresource === 'status') {
    const cert = (o: KObject | undefined) => (o?.status as { certificate?: string } | undefined)?.certificate ?? '';
    if (cert(obj) !== cert(old) && !authorizedForSigner(ctx, 'sign', signer)) {
      throw errors.forbidden(ref, name, `user not permitted to sign requests with signerName "${signer}"`);
    }
  }
}
