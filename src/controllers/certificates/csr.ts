/** Reading CertificateSigningRequests as the certificate controllers need them. */
import type { KObject } from '../../machinery/object';
import type { CryptoPort, ParsedCertificateRequest } from '../../ports/crypto.port';
import type { RegistryClient } from '../registry-client';
import { watching, type WatchChanges } from '../changes';
import { certificateSigningRequestDefinition as csrDef } from '../../resources/certificate-signing-request';
import type { Log } from '../controller-identity';
import { handleEach, startPassLoop, type PassLoop } from '../pass-loop';

export interface CsrCondition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

export interface CsrSpec {
  request?: string;
  signerName?: string;
  expirationSeconds?: number | null;
  usages?: string[] | null;
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export type Csr = KObject & { spec?: CsrSpec; status?: { conditions?: CsrCondition[] | null; certificate?: string | null } };

export const conditionsOf = (csr: Csr): CsrCondition[] => csr.status?.conditions ?? [];
export const hasTrueCondition = (csr: Csr, type: string) => conditionsOf(csr).some((c) => c.type === type && c.status === 'True');
/** upstream's IsCertificateRequestApproved: Approved and not Denied. */
export const isApproved = (csr: Csr) => hasTrueCondition(csr, 'Approved') && !hasTrueCondition(csr, 'Denied');
export const isIssued = (csr: Csr) => !!csr.status?.certificate;

/** The request's DER bytes and parsed form, or the reason it cannot be read. */
export async function parseRequest(csr: Csr, crypto: CryptoPort): Promise<{ der: Uint8Array; parsed: ParsedCertificateRequest } | { error: string }> {
  try {
    const pem = Buffer.from(csr.spec?.request ?? '', 'base64').toString('latin1');
    const block = crypto.parsePem(pem)[0];
    if (!block || block.type !== 'CERTIFICATE REQUEST') return { error: 'PEM block type must be CERTIFICATE REQUEST' };
    return { der: block.bytes, parsed: await crypto.parseCertificateRequest(block.bytes) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/** The loop of the CSR controllers: every request, from the watch cache, handled in turn on each pass (woken by CSR changes). */
export function startCsrPassLoop(
  registry: RegistryClient,
  name: string,
  doing: string,
  opts: { watch: WatchChanges; log: Log },
  handle: (csr: Csr, stopped: () => boolean) => Promise<void>,
): PassLoop {
  return startPassLoop({
    name,
    subscribe: watching(opts.watch, [csrDef]),
    log: opts.log,
    resyncMs: 30_000,
    pass: async (stopped) => {
      const list = await registry.list(csrDef, { resourceVersion: '0' });
      return handleEach(
        list.items as Csr[],
        stopped,
        (csr) => handle(csr, stopped),
        (csr, e) => opts.log('warn', `error ${doing} certificate signing request`, { csr: csr.metadata.name, error: (e as Error).message }),
      );
    },
  });
}
