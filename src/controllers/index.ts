/**
 * Every controller this process can run, under kube-controller-manager's
 * names (and its older aliases), for the controller manager and
 * `--controllers`.
 */
import type { ResourceDefinition } from '../machinery/resource-definition';
import type { Registry } from '../registry/registry';
import type { AuthorizerPort } from '../ports/authorizer.port';
import type { CertificateAuthorityPort } from '../ports/certificate-authority.port';
import { certificateSigningRequestDefinition } from '../resources/certificate-signing-request';
import { clusterTrustBundleDefinition } from '../resources/cluster-trust-bundle';
import { podCertificateRequestDefinition } from '../resources/pod-certificate-request';
import type { Log } from './controller-identity';
import type { ControllerDescriptor } from './manager';
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

export { ControllerManager, ControllerSelectionError } from './manager';
export { LeaderElector, validateLeaderElection, type LeaderElectionConfig } from './leader-election';

export interface SigningSetup {
  /** The CA of each built-in signer that runs (a signer without one does not issue). */
  authorities: Map<string, CertificateAuthorityPort>;
  /** --cluster-signing-duration. */
  maxTtlMs: number;
}

export interface ControllerContext {
  registry: Registry;
  log: Log;
  authorizer: AuthorizerPort;
  /** The watch cache's change counter of a kind (-1 while it is not loaded). */
  changes(def: ResourceDefinition): number;
  /** A counter that moves when an object being deleted (deletionTimestamp set) changes, for the garbage collector. */
  deletions?: () => number;
  signing?: SigningSetup;
  /** The cluster CA bundle for kube-root-ca.crt; without it the publisher does not run. */
  rootCaBundle?: string;
  /** Loop tunables for tests. */
  intervalMs?: number;
}

const served = (ctx: ControllerContext, def: ResourceDefinition) => ctx.registry.definitions.includes(def);

export function controllerDescriptors(ctx: ControllerContext): ControllerDescriptor[] {
  const { registry, log } = ctx;
  const csrChanges = () => ctx.changes(certificateSigningRequestDefinition);
  const signing = ctx.signing;
  const csrAuthorities = new Map([...(signing?.authorities ?? [])].filter(([s]) => (csrSigners as readonly string[]).includes(s)));
  const podAuthority = signing?.authorities.get(signers.apiserverClientPod);
  return [
    {
      name: 'garbage-collector-controller',
      aliases: ['garbagecollector'],
      start: () => startGcFinalizers(registry, log, { changes: ctx.deletions ?? (() => registry.definitions.reduce((sum, d) => sum + Math.max(0, ctx.changes(d)), 0)) }),
    },
    {
      name: 'namespace-controller',
      aliases: ['namespace'],
      start: () => (served(ctx, namespaceDefinition) ? startNamespaceController(registry, log) : undefined),
    },
    {
      name: 'clusterrole-aggregation-controller',
      aliases: ['clusterrole-aggregation'],
      start: () => {
        const def = registry.definitions.find((d) => d.group === 'rbac.authorization.svc.io' && d.plural === 'clusterroles');
        return def ? startClusterRoleAggregation(registry, log, { changes: () => ctx.changes(def) }) : undefined;
      },
    },
    {
      name: 'certificatesigningrequest-signing-controller',
      aliases: ['csrsigning'],
      start: () =>
        signing && csrAuthorities.size && served(ctx, certificateSigningRequestDefinition)
          ? startSigningController(registry, { authorities: csrAuthorities, maxTtlMs: signing.maxTtlMs, changes: csrChanges, log, intervalMs: ctx.intervalMs })
          : undefined,
    },
    {
      name: 'certificatesigningrequest-approving-controller',
      aliases: ['csrapproving'],
      start: () => (served(ctx, certificateSigningRequestDefinition) ? startApprover(registry, { authorizer: ctx.authorizer, changes: csrChanges, log, intervalMs: ctx.intervalMs }) : undefined),
    },
    {
      name: 'certificatesigningrequest-cleaner-controller',
      aliases: ['csrcleaner'],
      start: () => (served(ctx, certificateSigningRequestDefinition) ? startCsrCleaner(registry, { clock: registry.deps.clock, log }) : undefined),
    },
    {
      name: 'podcertificaterequest-cleaner-controller',
      start: () => (served(ctx, podCertificateRequestDefinition) ? startPcrCleaner(registry, { clock: registry.deps.clock, log }) : undefined),
    },
    {
      name: 'podcertificaterequest-signing-controller',
      start: () =>
        podAuthority && served(ctx, podCertificateRequestDefinition)
          ? startPodCertificateSigner(registry, { authority: podAuthority, changes: () => ctx.changes(podCertificateRequestDefinition), log, intervalMs: ctx.intervalMs })
          : undefined,
    },
    {
      name: 'root-ca-certificate-publisher-controller',
      aliases: ['root-ca-cert-publisher'],
      start: () => {
        const bundle = ctx.rootCaBundle;
        return bundle && served(ctx, namespaceDefinition) ? startRootCaPublisher(registry, bundle, log, { intervalMs: ctx.intervalMs }) : undefined;
      },
    },
    {
      name: 'clustertrustbundle-publisher-controller',
      start: () =>
        signing?.authorities.size && served(ctx, clusterTrustBundleDefinition)
          ? startTrustBundlePublisher(registry, { authorities: signing.authorities, changes: () => ctx.changes(clusterTrustBundleDefinition), log, intervalMs: ctx.intervalMs })
          : undefined,
    },
  ];
}
