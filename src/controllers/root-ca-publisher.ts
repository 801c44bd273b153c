/**
 * The root CA publisher (upstream's root-ca-cert-publisher): every active
 * namespace holds a ConfigMap `kube-root-ca.crt` whose `ca.crt` is the
 * cluster CA bundle, so that pods and clients can verify this server. A
 * deleted or edited one is put back. A pass runs when the watch cache
 * applied a change to a namespace or to a kube-root-ca.crt ConfigMap; reads
 * come from the cache through the registry, writes go through the registry
 * as its own identity.
 */
import type { KObject } from '../machinery/object';
import { configMapDefinition } from '../resources/config-map';
import { namespaceDefinition, PHASE_TERMINATING } from '../resources/namespace';
import { controllerWrite, serviceAccountUser, statusOf, type Log } from './controller-identity';
import { startPassLoop, type PassLoop } from './pass-loop';
import type { RegistryClient } from './registry-client';
import { watching, type WatchChanges } from './changes';

export const rootCaConfigMap = 'kube-root-ca.crt';
const description =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';
const user = serviceAccountUser('root-ca-cert-publisher');

function wanted(namespace: string, caBundle: string): KObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: rootCaConfigMap, namespace, annotations: { 'kubernetes.io/description': description } },
    data: { 'ca.crt': caBundle },
  };
}

/** One pass: creates or repairs the ConfigMap in every active namespace; how many it wrote, and whether a write failed for another reason than a race. */
export async function publishRootCa(registry: RegistryClient, caBundle: string, log: Log, stopped: () => boolean = () => false): Promise<{ written: number; failed: boolean }> {
  const namespaces = (await registry.list(namespaceDefinition, { resourceVersion: '0' })).items;
  const opts = controllerWrite(user, 'v1');
  let written = 0;
  let failed = false;
  for (const ns of namespaces) {
    if (stopped()) break;
    const name = ns.metadata.name!;
    if ((ns.status as { phase?: string } | undefined)?.phase === PHASE_TERMINATING || ns.metadata.deletionTimestamp) continue;
    try {
      // One cached lookup per namespace: a list filtered by name would look at every ConfigMap on every pass.
      const current = await cachedConfigMap(registry, name);
      if (!current) {
        await registry.create(configMapDefinition, name, wanted(name, caBundle), { ...opts, warnings: [] });
        written++;
      } else if ((current.data as Record<string, string> | undefined)?.['ca.crt'] !== caBundle) {
        const next = { ...current, data: { ...(current.data as object), 'ca.crt': caBundle } };
        await registry.update(configMapDefinition, name, rootCaConfigMap, next, { ...opts, warnings: [] });
        written++;
      }
    } catch (e) {
      // Conflicts, an existing object, or a namespace turning Terminating: the change that raced wakes the next pass.
      if ([404, 409, 403].includes(statusOf(e) ?? 0)) continue;
      failed = true;
      log('warn', 'publishing kube-root-ca.crt failed', { namespace: name, error: (e as Error).message });
    }
  }
  return { written, failed };
}

async function cachedConfigMap(registry: RegistryClient, namespace: string): Promise<KObject | undefined> {
  try {
    return (await registry.get(configMapDefinition, namespace, rootCaConfigMap, '0')).object;
  } catch (e) {
    if (statusOf(e) === 404) return undefined;
    throw e;
  }
}

export function startRootCaPublisher(registry: RegistryClient, caBundle: string, log: Log, watch: WatchChanges): PassLoop {
  return startPassLoop({
    name: 'root-ca-certificate-publisher-controller',
    // Upstream's handlers: every namespace event, and ConfigMap events of kube-root-ca.crt only.
    subscribe: watching(watch, [namespaceDefinition, [configMapDefinition, (o) => o.name === rootCaConfigMap]]),
    log,
    pass: async (stopped) => ((await publishRootCa(registry, caBundle, log, stopped)).failed ? 2000 : undefined),
  });
}
