/**
 * Garbage collection of finished certificate requests, as upstream's
 * cleaners: a CertificateSigningRequest goes an hour after it was approved
 * and issued, denied or failed (by the condition's lastUpdateTime), a day
 * after creation while still pending, and as soon as its issued certificate
 * has expired; a PodCertificateRequest goes fifteen minutes after creation.
 * Deletes carry the object's uid, so a request recreated under the same name
 * is not touched.
 */
import { apiVersionOf } from '../../machinery/resource-definition';
import type { KObject } from '../../machinery/object';
import type { RegistryClient } from '../registry-client';
import type { CryptoPort } from '../../ports/crypto.port';
import type { ClockPort } from '../../ports/clock.port';
import { certificateSigningRequestDefinition as csrDef } from '../../resources/certificate-signing-request';
import { podCertificateRequestDefinition as pcrDef } from '../../resources/pod-certificate-request';
import { controllerDelete, serviceAccountUser, statusOf, type Log } from '../controller-identity';
import { startPassLoop, type PassLoop } from '../pass-loop';
import { conditionsOf, isIssued, type Csr } from './csr';
import { certificateControllerUser } from './signing-controller';

const hour = 3600_000;
export const approvedExpirationMs = hour;
export const deniedExpirationMs = hour;
export const pendingExpirationMs = 24 * hour;
export const podCertificateRequestExpirationMs = 15 * 60_000;

export const pcrCleanerUser = serviceAccountUser('podcertificaterequestcleaner');

const olderThan = (time: string | null | undefined, ms: number, now: number) => {
  const t = time ? Date.parse(time) : Number.NaN;
  return !Number.isNaN(t) && now - t > ms;
};

/** Why upstream's cleaner deletes this request, or undefined to keep it. */
export function csrCleanupReason(csr: Csr, now: Date, certificateNotAfter: (csr: Csr) => Date | undefined): string | undefined {
  const t = now.getTime();
  const conditions = conditionsOf(csr);
  const issued = isIssued(csr);
  for (const c of conditions) {
    if (c.type === 'Approved' && issued && olderThan(c.lastUpdateTime, approvedExpirationMs, t)) return 'approved and issued more than an hour ago';
    if (c.type === 'Denied' && olderThan(c.lastUpdateTime, deniedExpirationMs, t)) return 'denied more than an hour ago';
    if (c.type === 'Failed' && olderThan(c.lastUpdateTime, deniedExpirationMs, t)) return 'failed more than an hour ago';
  }
  if (conditions.length === 0 && olderThan(csr.metadata.creationTimestamp, pendingExpirationMs, t)) return 'pending for more than a day';
  if (issued && conditions.some((c) => c.type === 'Approved')) {
    const notAfter = certificateNotAfter(csr);
    if (notAfter && t > notAfter.getTime()) return 'its certificate has expired';
  }
  return undefined;
}

async function deleteExact(registry: RegistryClient, def: typeof csrDef, obj: KObject, user = certificateControllerUser): Promise<boolean> {
  try {
    await registry.delete(def, obj.metadata.namespace, obj.metadata.name!, { ...controllerDelete(user, apiVersionOf(def)), preconditions: { uid: obj.metadata.uid } });
    return true;
  } catch (e) {
    if (statusOf(e) === 404 || statusOf(e) === 409) return false;
    throw e;
  }
}

export interface CleanerOptions {
  clock: ClockPort;
  crypto: CryptoPort;
  log: Log;
  /** upstream polls every hour. */
  pollMs?: number;
}

/** One pass of the CSR cleaner; returns the names it deleted. */
export async function cleanCertificateSigningRequests(registry: RegistryClient, opts: CleanerOptions, stopped: () => boolean = () => false): Promise<string[]> {
  const crypto = opts.crypto;
  const notAfterOf = (csr: Csr): Date | undefined => {
    try {
      const pem = Buffer.from(csr.status?.certificate ?? '', 'base64').toString('latin1');
      const block = crypto.parsePem(pem).find((b) => b.type === 'CERTIFICATE');
      return block ? crypto.parseCertificate(block.bytes).notAfter : undefined;
    } catch {
      return undefined;
    }
  };
  const deleted: string[] = [];
  const now = opts.clock.now();
  for (const csr of (await registry.list(csrDef, { resourceVersion: '0' })).items as Csr[]) {
    if (stopped()) break;
    const why = csrCleanupReason(csr, now, notAfterOf);
    if (!why) continue;
    if (await deleteExact(registry, csrDef, csr)) {
      deleted.push(csr.metadata.name!);
      opts.log('info', 'cleaned certificate signing request', { csr: csr.metadata.name, reason: why });
    }
  }
  return deleted;
}

/** One pass of the PodCertificateRequest cleaner; returns `namespace/name` of what it deleted. */
export async function cleanPodCertificateRequests(registry: RegistryClient, opts: CleanerOptions, stopped: () => boolean = () => false): Promise<string[]> {
  const deleted: string[] = [];
  const now = opts.clock.now().getTime();
  for (const pcr of (await registry.list(pcrDef, { resourceVersion: '0' })).items) {
    if (stopped()) break;
    if (!olderThan(pcr.metadata.creationTimestamp, podCertificateRequestExpirationMs, now)) continue;
    if (await deleteExact(registry, pcrDef, pcr, pcrCleanerUser)) deleted.push(`${pcr.metadata.namespace}/${pcr.metadata.name}`);
  }
  return deleted;
}

export function startCsrCleaner(registry: RegistryClient, opts: CleanerOptions): PassLoop {
  const poll = opts.pollMs ?? hour;
  return startPassLoop({
    name: 'certificatesigningrequest-cleaner-controller',
    log: opts.log,
    resyncMs: poll,
    pass: async (stopped) => {
      await cleanCertificateSigningRequests(registry, opts, stopped);
      return undefined;
    },
  });
}

export function startPcrCleaner(registry: RegistryClient, opts: CleanerOptions): PassLoop {
  const poll = opts.pollMs ?? 5 * 60_000;
  return startPassLoop({
    name: 'podcertificaterequest-cleaner-controller',
    log: opts.log,
    resyncMs: poll,
    pass: async (stopped) => {
      await cleanPodCertificateRequests(registry, opts, stopped);
      return undefined;
    },
  });
}
