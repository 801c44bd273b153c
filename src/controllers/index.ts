/**
 * Every controller this process can run, under kube-controller-manager's
 * names (and its older aliases), for the controller manager and
 * `--controllers`.
 */
import type { ResourceDefinition } from '../machinery/resource-definition';
import type { AuthorizerPort } from '../ports/authorizer.port';
import type { CertificateAuthorityPort } from '../ports/certificate-authority.port';
import type { ClockPort } from '../ports/clock.port';
import type { CryptoPort } from '../ports/crypto.port';
import { certificateSigningRequestDefinition } from '../resources/certificate-signing-request';
import { clusterTrustBundleDefinition } from '../resources/cluster-trust-bundle';
import { podCertificateRequestDefinition } from '../resources/pod-certificate-request';
import type { Log } from './controller-identity';
import type { ControllerDescriptor } from './manager';
import type { RegistryClient } from './registry-client';
import type { ScanCache, WatchAllChanges, WatchChanges } from './changes';
import { startClusterRoleAggregation } from './clusterrole-aggregation/controller';
import { startGcFinalizers } from './garbage-collector/finalizers';
import { startNamespaceController } from './namespace/namespace-controller';
import { startRootCaPublisher } from './root-ca-publisher';
import { namespaceDefinition } from '../resources/namespace';
import { startSigningController } from './certificates/signing-controller';
import { startApprover } from './certificates/approver';
import { startCsrCleaner, startPcrCleaner } from './certificates/cleaner';
import { startTrustBundlePublisher } from './certificates/trust-bundle-publisher';
import { startPodCertificateSigner } from './certificates/pod-certificate-signer';
import { csrSigners, signers } from './certificates/signer-rules';
import { startPolicyStatus, type PolicyTypeChecker } from './validating-admission-policy-status';
import { validatingAdmissionPolicyDefinition } from '../resources/validating-admission-policy';

export { ControllerManager, ControllerSelectionError } from './manager';
export { LeaderElector, validateLeaderElection, type LeaderElectionConfig } from './leader-election';
export type { RegistryClient } from './registry-client';
export type { WatchChanges, WatchAllChanges, ChangedObject, ScanCache } from './changes';

export interface SigningSetup {
  /** The CA of each built-in signer that runs (a signer without one does not issue). */
  authorities: Map<string, CertificateAuthorityPort>;
  /** --cluster-signing-duration. */
  maxTtlMs: number;
}

export interface ControllerContext {
  /** The registry's public verbs; its writes are audited under each controller's identity (audited-client.ts). */
  registry: RegistryClient;
  log: Log;
  authorizer: AuthorizerPort;
  clock: ClockPort;
  crypto: CryptoPort;
  /** Wake-ups from the watch cache when kinds a controller reads change. */
  watch: WatchChanges;
  /** The same for every served kind, custom resources included. */
  watchAll: WatchAllChanges;
  /** A look at the cached JSON without decoding (the garbage collector's first check). */
  scan: ScanCache;
  signing?: SigningSetup;
  /** The cluster CA bundle for kube-root-ca.crt; without it the publisher does not run. */
  rootCaBundle?: string;
  /** Admission's type checker for ValidatingAdmissionPolicy status; without it that controller does not run. */
  typeCheckPolicy?: PolicyTypeChecker;
}

const served = (ctx: ControllerContext, def: ResourceDefinition) => ctx.registry.definitions.includes(def);

export function controllerDescriptors(ctx: ControllerContext): ControllerDescriptor[] {
  const { registry, log, watch, watchAll, scan, clock, crypto } = ctx;
  const signing = ctx.signing;
  const csrAuthorities = new Map([...(signing?.authorities ?? [])].filter(([s]) => (csrSigners as readonly string[]).includes(s)));
  const podAuthority = signing?.authorities.get(signers.apiserverClientPod);
  return [
    {
      name: 'garbage-collector-controller',
      aliases: ['garbagecollector'],
      start: () => startGcFinalizers(registry, log, { watchAll, scan }),
    },
    {
      name: 'namespace-controller',
      aliases: ['namespace'],
      start: () => (served(ctx, namespaceDefinition) ? startNamespaceController(registry, log, { watch, clock }) : undefined),
    },
    {
      name: 'clusterrole-aggregation-controller',
      aliases: ['clusterrole-aggregation'],
      start: () => startClusterRoleAggregation(registry, log, watch),
    },
    {
      name: 'certificatesigningrequest-signing-controller',
      aliases: ['csrsigning'],
      start: () =>
        signing && csrAuthorities.size && served(ctx, certificateSigningRequestDefinition)
          ? startSigningController(registry, { authorities: csrAuthorities, maxTtlMs: signing.maxTtlMs, watch, clock, crypto, log })
          : undefined,
    },
    {
      name: 'certificatesigningrequest-approving-controller',
      aliases: ['csrapproving'],
      start: () => (served(ctx, certificateSigningRequestDefinition) ? startApprover(registry, { authorizer: ctx.authorizer, watch, clock, crypto, log }) : undefined),
    },
    {
      name: 'certificatesigningrequest-cleaner-controller',
      aliases: ['csrcleaner'],
      start: () => (served(ctx, certificateSigningRequestDefinition) ? startCsrCleaner(registry, { clock, crypto, log }) : undefined),
    },
    {
      name: 'podcertificaterequest-cleaner-controller',
      start: () => (served(ctx, podCertificateRequestDefinition) ? startPcrCleaner(registry, { clock, crypto, log }) : undefined),
    },
    {
      name: 'podcertificaterequest-signing-controller',
      start: () => (podAuthority && served(ctx, podCertificateRequestDefinition) ? startPodCertificateSigner(registry, { authority: podAuthority, watch, clock, crypto, log }) : undefined),
    },
    {
      name: 'validatingadmissionpolicy-status-controller',
      start: () => {
        const typeCheck = ctx.typeCheckPolicy;
        return typeCheck && served(ctx, validatingAdmissionPolicyDefinition) ? startPolicyStatus(registry, validatingAdmissionPolicyDefinition, typeCheck, log, watch) : undefined;
      },
    },
    {
      name: 'root-ca-certificate-publisher-controller',
      aliases: ['root-ca-cert-publisher'],
      start: () => {
        const bundle = ctx.rootCaBundle;
        return bundle && served(ctx, namespaceDefinition) ? startRootCaPublisher(registry, bundle, log, watch) : undefined;
      },
    },
    {
      name: 'clustertrustbundle-publisher-controller',
      start: () =>
        signing?.authorities.size && served(ctx, clusterTrustBundleDefinition)
          ? startTrustBundlePublisher(registry, { authorities: signing.authorities, watch, crypto, log })
          : undefined,
    },
  ];
}
