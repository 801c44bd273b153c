/**
 * The node client certificate approver (upstream's csrapproving,
 * sarapprove.go): a pending svc.io/apiserver-client-node request whose
 * subject is a node client (`system:node:<name>` in `system:nodes`, no SANs,
 * client usages) is approved when its requester may `create`
 * certificatesigningrequests/selfnodeclient (renewing its own node's
 * certificate) or certificatesigningrequests/nodeclient, asked of the
 * authorizer as upstream's SubjectAccessReview asks it. Requests it does not
 * approve are left for a human: it never denies.
 */
import { apiVersionOf, type UserInfo } from '../../machinery/resource-definition';
import type { RegistryClient } from '../registry-client';
import type { WatchChanges } from '../changes';
import type { ClockPort } from '../../ports/clock.port';
import type { CryptoPort } from '../../ports/crypto.port';
import type { AuthorizerPort } from '../../ports/authorizer.port';
import { certificateSigningRequestDefinition as csrDef } from '../../resources/certificate-signing-request';
import { controllerWrite, type Log } from '../controller-identity';
import type { PassLoop } from '../pass-loop';
import { timestamp } from '../../registry/context';
import { hasTrueCondition, isIssued, parseRequest, startCsrPassLoop, type Csr } from './csr';
import { isNodeClientRequest } from './signer-rules';
import { certificateControllerUser } from './signing-controller';

const recognizers = [
  {
    subresource: 'selfnodeclient',
    self: true,
    message: 'Auto approving self kubelet client certificate after SubjectAccessReview.',
  },
  {
    subresource: 'nodeclient',
    self: false,
    message: 'Auto approving kubelet client certificate after SubjectAccessReview.',
  },
];

export interface ApproverOptions {
  authorizer: AuthorizerPort;
  watch: WatchChanges;
  clock: ClockPort;
  crypto: CryptoPort;
  log: Log;
}

function requester(csr: Csr): UserInfo {
  const spec = csr.spec ?? {};
  return { username: spec.username ?? '', uid: spec.uid, groups: spec.groups ?? [], extra: spec.extra };
}

async function handle(registry: RegistryClient, csr: Csr, opts: ApproverOptions, stopped: () => boolean): Promise<void> {
  if (isIssued(csr) || hasTrueCondition(csr, 'Approved') || hasTrueCondition(csr, 'Denied')) return;
  const signer = csr.spec?.signerName ?? '';
  const usages = csr.spec?.usages ?? [];
  const request = await parseRequest(csr, opts.crypto);
  if ('error' in request || !isNodeClientRequest(signer, request.parsed, usages)) return;
  const tried: string[] = [];
  for (const r of recognizers) {
    if (r.self && csr.spec?.username !== request.parsed.commonName) continue;
    tried.push(r.subresource);
    const decision = opts.authorizer.authorize({
      user: requester(csr),
      verb: 'create',
      resourceRequest: true,
      apiGroup: csrDef.group,
      apiVersion: '*',
      resource: csrDef.plural,
      subresource: r.subresource,
    });
    if (!decision.allowed) continue;
    const approved: Csr = structuredClone(csr);
    approved.status = {
      ...approved.status,
      conditions: [
        ...(approved.status?.conditions ?? []),
        { type: 'Approved', status: 'True', reason: 'AutoApproved', message: r.message, lastUpdateTime: timestamp(opts.clock.now()) },
      ],
    };
    if (stopped()) return;
    await registry.update(csrDef, undefined, csr.metadata.name!, approved, controllerWrite(certificateControllerUser, apiVersionOf(csrDef)), 'approval');
    opts.log('info', 'approved certificate signing request', { csr: csr.metadata.name, as: r.subresource });
    return;
  }
  opts.log('debug', 'recognized csr but the requester may not have it approved', { csr: csr.metadata.name, tried });
}

export function startApprover(registry: RegistryClient, opts: ApproverOptions): PassLoop {
  return startCsrPassLoop(registry, 'certificatesigningrequest-approving-controller', 'approving', opts, (csr, stopped) => handle(registry, csr, opts, stopped));
}
