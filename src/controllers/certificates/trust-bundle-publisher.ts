/**
 * Publishes each built-in signer's CA as a ClusterTrustBundle, as upstream's
 * clustertrustbundlepublisher does for kube-apiserver-serving: one bundle per
 * signer, named `<signer with / as :>:<first 12 bytes of the bundle's SHA-256
 * in hex>`, holding the CA certificate; when the CA changes (its files were
 * replaced) the new bundle is created and the signer's other bundles are
 * deleted. Reads come from the watch cache; the CA is checked every few
 * seconds and whenever a ClusterTrustBundle changes.
 */
import { apiVersionOf } from '../../machinery/resource-definition';
import type { RegistryClient } from '../registry-client';
import { watching, type WatchChanges } from '../changes';
import type { CertificateAuthorityPort } from '../../ports/certificate-authority.port';
import type { CryptoPort } from '../../ports/crypto.port';
import { clusterTrustBundleDefinition as ctbDef } from '../../resources/cluster-trust-bundle';
import { controllerDelete, controllerWrite, serviceAccountUser, statusOf, type Log } from '../controller-identity';
import { startPassLoop, type PassLoop } from '../pass-loop';

export const publisherUser = serviceAccountUser('clustertrustbundle-publisher');

/** upstream's constructBundleName. */
export function bundleName(crypto: CryptoPort, signerName: string, bundle: string): string {
  return `${signerName.replace(/\//g, ':')}:${crypto.sha256Hex(bundle).slice(0, 24)}`;
}

export interface PublisherOptions {
  authorities: Map<string, CertificateAuthorityPort>;
  watch: WatchChanges;
  crypto: CryptoPort;
  log: Log;
  /** How often the CA files are looked at without any other trigger. */
  resyncMs?: number;
}

type Ctb = { metadata: { name?: string; uid?: string; resourceVersion?: string }; spec?: { signerName?: string; trustBundle?: string } };

async function publish(registry: RegistryClient, crypto: CryptoPort, signerName: string, authority: CertificateAuthorityPort, log: Log, stopped: () => boolean): Promise<void> {
  const bundle = (await authority.current()).certificatePem;
  const name = bundleName(crypto, signerName, bundle);
  const existing = (await registry.list(ctbDef, { resourceVersion: '0', fieldSelector: `spec.signerName=${signerName}` })).items as Ctb[];
  const write = controllerWrite(publisherUser, apiVersionOf(ctbDef));
  const mine = existing.find((b) => b.metadata.name === name);
  if (stopped()) return;
  if (!mine) {
    try {
      await registry.create(ctbDef, undefined, { apiVersion: apiVersionOf(ctbDef), kind: ctbDef.kind, metadata: { name }, spec: { signerName, trustBundle: bundle } }, write);
      log('info', 'published ClusterTrustBundle', { name, signer: signerName });
    } catch (e) {
      if (statusOf(e) !== 409) throw e;
    }
  } else if (mine.spec?.trustBundle !== bundle) {
    await registry.update(ctbDef, undefined, name, { ...mine, spec: { signerName, trustBundle: bundle } }, write);
  }
  for (const old of existing) {
    if (old.metadata.name === name || stopped()) continue;
    try {
      await registry.delete(ctbDef, undefined, old.metadata.name!, { ...controllerDelete(publisherUser, apiVersionOf(ctbDef)), preconditions: { uid: old.metadata.uid } });
      log('info', 'removed an outdated ClusterTrustBundle', { name: old.metadata.name, signer: signerName });
    } catch (e) {
      if (statusOf(e) !== 404 && statusOf(e) !== 409) throw e;
    }
  }
}

export function startTrustBundlePublisher(registry: RegistryClient, opts: PublisherOptions): PassLoop {
  return startPassLoop({
    name: 'clustertrustbundle-publisher-controller',
    subscribe: watching(opts.watch, [ctbDef]),
    log: opts.log,
    resyncMs: opts.resyncMs ?? 5000,
    pass: async (stopped) => {
      let failed: Error | undefined;
      for (const [signer, authority] of opts.authorities) {
        if (stopped()) break;
        try {
          await publish(registry, opts.crypto, signer, authority, opts.log, stopped);
        } catch (e) {
          failed = e as Error;
          opts.log('warn', 'cannot publish the ClusterTrustBundle of a signer', { signer, error: (e as Error).message });
        }
      }
      if (failed) throw failed;
      return undefined;
    },
  });
}
