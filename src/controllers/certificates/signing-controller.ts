/**
 * The CSR signing controller (upstream's csrsigning): for every approved,
 * not failed, not yet issued request addressed to one of its signers, it
 * checks the signer's rules and either writes the issued certificate through
 * /status or adds a Failed condition (reason SignerValidationFailure) saying
 * which rule the request breaks. Every write carries the resourceVersion it
 * read, so a request is never issued twice: a second writer gets a conflict,
 * and a certificate once set cannot be replaced.
 */
import { apiVersionOf } from '../../machinery/resource-definition';
import type { RegistryClient } from '../registry-client';
import type { WatchChanges } from '../changes';
import type { ClockPort } from '../../ports/clock.port';
import type { CryptoPort } from '../../ports/crypto.port';
import type { CertificateAuthorityPort } from '../../ports/certificate-authority.port';
import { certificateSigningRequestDefinition as csrDef } from '../../resources/certificate-signing-request';
import { controllerWrite, serviceAccountUser, type Log } from '../controller-identity';
import type { PassLoop } from '../pass-loop';
import { timestamp } from '../../registry/context';
import { hasTrueCondition, isApproved, isIssued, parseRequest, startCsrPassLoop, type Csr } from './csr';
import { ruleFor, unsupportedKey, x509Usages } from './signer-rules';
import { certificateTtlMs, validityWindow } from './validity';

export const certificateControllerUser = serviceAccountUser('certificate-controller');

export interface SigningControllerOptions {
  /** The CA of each signer this controller issues for. */
  authorities: Map<string, CertificateAuthorityPort>;
  /** --cluster-signing-duration. */
  maxTtlMs: number;
  watch: WatchChanges;
  clock: ClockPort;
  crypto: CryptoPort;
  log: Log;
}

const write = () => controllerWrite(certificateControllerUser, apiVersionOf(csrDef));

/** One request; throws when it should be tried again. Nothing is written once `stopped` says so. */
async function handle(registry: RegistryClient, csr: Csr, opts: SigningControllerOptions, stopped: () => boolean): Promise<void> {
  const signer = csr.spec?.signerName ?? '';
  const authority = opts.authorities.get(signer);
  const rule = ruleFor(signer);
  if (!authority || !rule || !isApproved(csr) || hasTrueCondition(csr, 'Failed') || isIssued(csr)) return;
  const name = csr.metadata.name!;
  const request = await parseRequest(csr, opts.crypto);
  if ('error' in request) {
    opts.log('warn', 'unable to parse csr', { csr: name, error: request.error });
    return;
  }
  const usages = csr.spec?.usages ?? [];
  const broken = rule(request.parsed, usages) ?? unsupportedKey(request.parsed);
  const now = opts.clock.now();
  if (broken) {
    const failed: Csr = structuredClone(csr);
    failed.status = {
      ...failed.status,
      conditions: [
        ...(failed.status?.conditions ?? []),
        { type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message: broken, lastUpdateTime: timestamp(now) },
      ],
    };
    if (stopped()) return;
    await registry.update(csrDef, undefined, name, failed, write(), 'status');
    opts.log('info', 'certificate signing request failed the signer rules', { csr: name, signer, reason: broken });
    return;
  }
  const ca = await authority.current();
  const { notBefore, notAfter } = validityWindow(now, certificateTtlMs(csr.spec?.expirationSeconds, opts.maxTtlMs), ca.notAfter);
  const { keyUsage, extKeyUsage } = x509Usages(usages);
  const parsed = request.parsed;
  const pem = await ca.issue({
    request: request.der,
    copySubject: true,
    dnsNames: parsed.dnsNames,
    ipAddresses: parsed.ipAddresses,
    emailAddresses: parsed.emailAddresses,
    uris: parsed.uris,
    keyUsage,
    extKeyUsage,
    notBefore,
    notAfter,
  });
  const issued: Csr = structuredClone(csr);
  issued.status = { ...issued.status, certificate: Buffer.from(pem).toString('base64') };
  if (stopped()) return;
  await registry.update(csrDef, undefined, name, issued, write(), 'status');
  opts.log('info', 'issued certificate', { csr: name, signer, notAfter: notAfter.toISOString() });
}

export function startSigningController(registry: RegistryClient, opts: SigningControllerOptions): PassLoop {
  return startCsrPassLoop(registry, 'certificatesigningrequest-signing-controller', 'signing', opts, (csr, stopped) => handle(registry, csr, opts, stopped));
}
