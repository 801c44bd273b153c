/**
 * The namespaces a cluster always has (default, kube-system, kube-public,
 * kube-node-lease), as upstream's system-namespaces controller: created at
 * start when missing, and checked again whenever a namespace changes and
 * every minute. Its first pass also creates a namespace for every namespace
 * that stored objects use but that has no Namespace object, so that data
 * written before namespaces were served stays writable under
 * NamespaceLifecycle; those are not created again once deleted.
 */
import { apiVersionOf, type ResourceDefinition } from '../machinery/resource-definition';
import { namespaceDefinition, SYSTEM_NAMESPACES } from '../resources/namespace';
import { apiserverUser, controllerWrite, statusOf, type Log } from './controller-identity';
import { startPassLoop } from './pass-loop';
import type { RegistryClient } from './registry-client';
import { watching, type WatchChanges } from './changes';

export interface SystemNamespaces {
  /** True once the system namespaces, and those of existing objects, exist (for readyz). */
  ready(): boolean;
  stop(): Promise<void>;
}

export interface SystemNamespacesOptions {
  watch: WatchChanges;
  /** The namespaces that hold objects of a namespaced kind, from the watch cache's keys (decoding every object would cost a copy of the cache). */
  namespacesInUse(def: ResourceDefinition): Promise<Set<string>>;
  resyncMs?: number;
}

export function startSystemNamespaces(registry: RegistryClient, log: Log, options: SystemNamespacesOptions): SystemNamespaces {
  let done = false;
  const ensure = async (names: Iterable<string>): Promise<string[]> => {
    const created: string[] = [];
    for (const name of names) {
      if (await exists(registry, name)) continue;
      try {
        await registry.create(namespaceDefinition, undefined, { metadata: { name } }, controllerWrite(apiserverUser, apiVersionOf(namespaceDefinition)));
        created.push(name);
      } catch (e) {
        if ((e as { status?: { reason?: string } }).status?.reason !== 'AlreadyExists') throw e;
      }
    }
    return created;
  };
  const loop = startPassLoop({
    name: 'start-system-namespaces-controller',
    subscribe: watching(options.watch, [namespaceDefinition]),
    log,
    resyncMs: options.resyncMs ?? 60_000,
    pass: async () => {
      try {
        await ensure(SYSTEM_NAMESPACES);
        if (!done) {
          const adopted = await ensure(await namespacesInUse(registry, options));
          if (adopted.length) log('info', 'created namespaces for existing objects', { namespaces: adopted });
          done = true;
        }
      } catch (e) {
        throw new Error(`could not create the system namespaces yet: ${(e as Error).message}`);
      }
      return undefined;
    },
  });
  return { ready: () => done, stop: () => loop.stop() };
}

async function exists(registry: RegistryClient, name: string): Promise<boolean> {
  try {
    await registry.get(namespaceDefinition, undefined, name);
    return true;
  } catch (e) {
    if (statusOf(e) === 404) return false;
    throw e;
  }
}

async function namespacesInUse(registry: RegistryClient, options: SystemNamespacesOptions): Promise<Set<string>> {
  const used = new Set<string>();
  for (const def of registry.definitions.filter((d) => d.namespaced)) {
    for (const ns of await options.namespacesInUse(def)) if (ns) used.add(ns);
  }
  return used;
}
