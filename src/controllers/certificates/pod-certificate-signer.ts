/**
 * The svc.io/apiserver-client-pod signer for PodCertificateRequests, after
 * the pod-certificate design (KEP-4317): a client certificate for the pod's
 * service account with an empty subject, no subjectAltNames, and the pod's
 * identity in a critical PodIdentity extension; valid for
 * min(maxExpirationSeconds, 24 h) from a notBefore backdated five minutes,
 * with beginRefreshAt half way. Unsupported key types are Denied
 * (UnsupportedKeyType), as are requests with unverifiedUserAnnotations
 * (InvalidUserConfig: this signer knows none) and requests for a service
 * account that does not exist with that UID (InvalidServiceAccount); when the
 * CA cannot issue the request is Failed. Written through /status.
 */
import { apiVersionOf, type ResourceDefinition } from '../../machinery/resource-definition';
import type { KObject } from '../../machinery/object';
import type { RegistryClient } from '../registry-client';
import { watching, type WatchChanges } from '../changes';
import type { ClockPort } from '../../ports/clock.port';
import type { CryptoPort } from '../../ports/crypto.port';
import type { CertificateAuthorityPort } from '../../ports/certificate-authority.port';
import { podCertificateRequestDefinition as pcrDef, type PcrSpec } from '../../resources/pod-certificate-request';
import { serviceAccountDefinition } from '../../resources/service-account';
import { controllerWrite, statusOf, type Log } from '../controller-identity';
import { handleEach, startPassLoop, type PassLoop } from '../pass-loop';
import { timestamp } from '../../registry/context';
import { encodePodIdentity, podIdentityOid } from '../../machinery/pod-identity';
import { signers, unsupportedKey } from './signer-rules';
import { certificateControllerUser } from './signing-controller';
import { backdateMs } from './validity';

/** Signers under svc.io never issue pod certificates for longer than a day (spec section 8). */
export const maxPodCertificateLifetimeMs = 24 * 3600_000;
const minLifetimeMs = 3600_000;
const terminal = ['Issued', 'Denied', 'Failed'];

type Pcr = KObject & { spec?: PcrSpec; status?: { conditions?: Array<{ type?: string; status?: string }> } };

export interface PodCertificateSignerOptions {
  authority: CertificateAuthorityPort;
  watch: WatchChanges;
  clock: ClockPort;
  crypto: CryptoPort;
  log: Log;
}

type Outcome = { issued: { chain: string; notBefore: Date; notAfter: Date; beginRefreshAt: Date } } | { denied: string; reason: string } | { failed: string; reason: string };

async function uidOf(registry: RegistryClient, def: ResourceDefinition | undefined, namespace: string | undefined, name: string): Promise<string | undefined> {
  if (!def || !name) return undefined;
  try {
    return (await registry.get(def, namespace, name)).object.metadata.uid;
  } catch (e) {
    if (statusOf(e) === 404) return undefined;
    throw e;
  }
}

async function decide(registry: RegistryClient, pcr: Pcr, authority: CertificateAuthorityPort, opts: PodCertificateSignerOptions): Promise<Outcome> {
  const spec = pcr.spec ?? {};
  const der = new Uint8Array(Buffer.from(spec.stubPKCS10Request ?? '', 'base64'));
  const parsed = await opts.crypto.parseCertificateRequest(der);
  const badKey = unsupportedKey(parsed);
  if (badKey) {
    return { denied: `${signers.apiserverClientPod} cannot issue for this request: ${badKey} (use keyType RSA3072, RSA4096, ECDSAP256, ECDSAP384 or ED25519)`, reason: 'UnsupportedKeyType' };
  }
  const annotations = Object.keys(spec.unverifiedUserAnnotations ?? {});
  if (annotations.length) {
    return { denied: `${signers.apiserverClientPod} supports no unverifiedUserAnnotations, got ${annotations.sort().join(', ')}`, reason: 'InvalidUserConfig' };
  }
  const namespace = pcr.metadata.namespace!;
  const saUid = await uidOf(registry, serviceAccountDefinition, namespace, spec.serviceAccountName ?? '');
  if (!saUid || saUid !== spec.serviceAccountUID) {
    return { denied: `service account ${namespace}/${spec.serviceAccountName} with UID ${spec.serviceAccountUID} does not exist`, reason: 'InvalidServiceAccount' };
  }
  const namespaces = registry.definitions.find((d) => d.group === '' && d.plural === 'namespaces');
  let ca;
  try {
    ca = await authority.current();
  } catch (e) {
    return { failed: `the signing CA cannot be read: ${(e as Error).message}`, reason: 'SignerUnavailable' };
  }
  const now = opts.clock.now().getTime();
  const notBefore = new Date(now - backdateMs);
  const wanted = Math.min((spec.maxExpirationSeconds ?? 86400) * 1000, maxPodCertificateLifetimeMs);
  const notAfter = new Date(Math.min(notBefore.getTime() + wanted, ca.notAfter.getTime()));
  const lifetime = notAfter.getTime() - notBefore.getTime();
  if (lifetime < minLifetimeMs) {
    return { failed: `the signing CA expires at ${ca.notAfter.toISOString()}, too soon for a certificate of at least one hour`, reason: 'SignerExpiring' };
  }
  const identity = encodePodIdentity({
    namespace,
    namespaceUID: (await uidOf(registry, namespaces, undefined, namespace)) ?? '',
    serviceAccountName: spec.serviceAccountName ?? '',
    serviceAccountUID: spec.serviceAccountUID ?? '',
    podName: spec.podName ?? '',
    podUID: spec.podUID ?? '',
    nodeName: spec.nodeName ?? '',
    nodeUID: spec.nodeUID ?? '',
  });
  const chain = await ca.issue({
    request: der,
    copySubject: false,
    dnsNames: [],
    ipAddresses: [],
    emailAddresses: [],
    uris: [],
    keyUsage: parsed.keyType.startsWith('RSA') ? ['digitalSignature', 'keyEncipherment'] : ['digitalSignature'],
    extKeyUsage: ['1.3.6.1.5.5.7.3.2'],
    notBefore,
    notAfter,
    extensions: [{ oid: podIdentityOid, critical: true, value: identity }],
  });
  return { issued: { chain, notBefore, notAfter, beginRefreshAt: new Date(notBefore.getTime() + Math.floor(lifetime / 2)) } };
}

const isTerminal = (pcr: Pcr) => (pcr.status?.conditions ?? []).some((c) => terminal.includes(c.type ?? '') && c.status === 'True');

async function handle(registry: RegistryClient, pcr: Pcr, opts: PodCertificateSignerOptions, stopped: () => boolean): Promise<void> {
  if (pcr.spec?.signerName !== signers.apiserverClientPod || isTerminal(pcr) || pcr.metadata.deletionTimestamp) return;
  const outcome = await decide(registry, pcr, opts.authority, opts);
  const now = timestamp(opts.clock.now());
  const next: KObject = structuredClone(pcr);
  if ('issued' in outcome) {
    const { chain, notBefore, notAfter, beginRefreshAt } = outcome.issued;
    next.status = {
      conditions: [{ type: 'Issued', status: 'True', reason: 'Issued', message: `issued by ${signers.apiserverClientPod}`, lastTransitionTime: now }],
      certificateChain: chain,
      notBefore: timestamp(notBefore),
      notAfter: timestamp(notAfter),
      beginRefreshAt: timestamp(beginRefreshAt),
    };
  } else {
    const [type, message] = 'denied' in outcome ? ['Denied', outcome.denied] : ['Failed', outcome.failed];
    next.status = { conditions: [{ type, status: 'True', reason: outcome.reason, message, lastTransitionTime: now }] };
  }
  if (stopped()) return;
  await registry.update(pcrDef, pcr.metadata.namespace, pcr.metadata.name!, next, controllerWrite(certificateControllerUser, apiVersionOf(pcrDef)), 'status');
  const result = 'issued' in outcome ? 'issued' : 'denied' in outcome ? 'denied' : 'failed';
  opts.log('info', `pod certificate request ${result}`, { pcr: `${pcr.metadata.namespace}/${pcr.metadata.name}`, ...('reason' in outcome ? { reason: outcome.reason } : {}) });
}

export function startPodCertificateSigner(registry: RegistryClient, opts: PodCertificateSignerOptions): PassLoop {
  return startPassLoop({
    name: 'podcertificaterequest-signing-controller',
    subscribe: watching(opts.watch, [pcrDef]),
    log: opts.log,
    resyncMs: 30_000,
    pass: async (stopped) => {
      const list = await registry.list(pcrDef, { resourceVersion: '0', fieldSelector: `spec.signerName=${signers.apiserverClientPod}` });
      return handleEach(
        list.items as Pcr[],
        stopped,
        (pcr) => handle(registry, pcr, opts, stopped),
        (pcr, e) => opts.log('warn', 'error signing pod certificate request', { pcr: `${pcr.metadata.namespace}/${pcr.metadata.name}`, error: (e as Error).message }),
      );
    },
  });
}
