/**
 * The root CA publisher (upstream's root-ca-cert-publisher): every active
 * namespace holds a ConfigMap `kube-root-ca.crt` whose `ca.crt` is the
 * cluster CA bundle, so that pods and clients can verify this server. A
 * deleted or edited one is put back. Reads come from the watch cache
 * through the registry; writes go through the registry as its own identity.
 */
import type { KObject } from '../machinery/object';
import type { Registry } from '../registry/registry';
import { configMapDefinition } from '../resources/config-map';
import { namespaceDefinition, PHASE_TERMINATING } from '../resources/namespace';
import { controllerWrite, serviceAccountUser, statusOf, type Log } from './controller-identity';

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

/** One pass: creates or repairs the ConfigMap in every active namespace; returns how many it wrote. */
export async function publishRootCa(registry: Registry, caBundle: string, log: Log): Promise<number> {
  const namespaces = (await registry.list(namespaceDefinition, { resourceVersion: '0' })).items;
  const opts = controllerWrite(user, 'v1');
  let written = 0;
  for (const ns of namespaces) {
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
      // Conflicts, an existing object, or a namespace turning Terminating: the next pass sees the new state.
      if (![404, 409, 403].includes(statusOf(e) ?? 0)) log('warn', 'publishing kube-root-ca.crt failed', { namespace: name, error: (e as Error).message });
    }
  }
  return written;
}

async function cachedConfigMap(registry: Registry, namespace: string): Promise<KObject | undefined> {
  try {
    return (await registry.get(configMapDefinition, namespace, rootCaConfigMap, '0')).object;
  } catch (e) {
    if (statusOf(e) === 404) return undefined;
    throw e;
  }
}

export function startRootCaPublisher(registry: Registry, caBundle: string, log: Log, options: { intervalMs?: number } = {}): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    publishRootCa(registry, caBundle, log)
      .catch((e) => log('debug', 'root CA publisher pass failed', { error: (e as Error).message }))
      .finally(() => (running = false));
  }, options.intervalMs ?? 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
