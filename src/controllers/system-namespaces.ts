/**
 * The namespaces a cluster always has (default, kube-system, kube-public,
 * kube-node-lease): created at start when missing and checked again every
 * minute, as upstream's system-namespaces controller. At start it also
 * creates a namespace for every namespace that stored objects use but that
 * has no Namespace object, so that data written before namespaces were
 * served stays writable under NamespaceLifecycle. Namespaces a user deleted
 * are never created again by it.
 */
import { apiVersionOf } from '../machinery/resource-definition';
import type { Registry } from '../registry/registry';
import { namespaceDefinition, SYSTEM_NAMESPACES } from '../resources/namespace';
import { controllerWrite, statusOf, type Log } from './controller-identity';

const user = { username: 'system:apiserver', groups: ['system:masters', 'system:authenticated'] };

export interface SystemNamespaces {
  /** True once the system namespaces, and those of existing objects, exist (for readyz). */
  ready(): boolean;
  stop(): void;
}

export function startSystemNamespaces(registry: Registry, log: Log, options: { retryMs?: number; resyncMs?: number } = {}): SystemNamespaces {
  let done = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const ensure = async (names: Iterable<string>): Promise<string[]> => {
    const created: string[] = [];
    for (const name of names) {
      if (await exists(registry, name)) continue;
      try {
        await registry.create(namespaceDefinition, undefined, { metadata: { name } }, controllerWrite(user, apiVersionOf(namespaceDefinition)));
        created.push(name);
      } catch (e) {
        if ((e as { status?: { reason?: string } }).status?.reason !== 'AlreadyExists') throw e;
      }
    }
    return created;
  };

  const schedule = (fn: () => Promise<void>, ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => void fn(), ms);
    timer.unref();
  };

  const first = async () => {
    try {
      await ensure(SYSTEM_NAMESPACES);
      const adopted = await ensure(await namespacesInUse(registry));
      if (adopted.length) log('info', 'created namespaces for existing objects', { namespaces: adopted });
      done = true;
      schedule(resync, options.resyncMs ?? 60_000);
    } catch (e) {
      log('warn', 'could not create the system namespaces yet, retrying', { error: (e as Error).message });
      schedule(first, options.retryMs ?? 1000);
    }
  };
  const resync = async () => {
    try {
      await ensure(SYSTEM_NAMESPACES);
    } catch (e) {
      log('warn', 'could not check the system namespaces', { error: (e as Error).message });
    }
    schedule(resync, options.resyncMs ?? 60_000);
  };
  void first();
  return {
    ready: () => done,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

async function exists(registry: Registry, name: string): Promise<boolean> {
  try {
    await registry.get(namespaceDefinition, undefined, name);
    return true;
  } catch (e) {
    if (statusOf(e) === 404) return false;
    throw e;
  }
}

/** Namespaces of every stored namespaced object, from the watch cache's keys (decoding every object would cost a copy of the cache). */
async function namespacesInUse(registry: Registry): Promise<Set<string>> {
  const used = new Set<string>();
  for (const def of registry.definitions.filter((d) => d.namespaced)) {
    for (const ns of await registry.namespacesInUse(def)) if (ns) used.add(ns);
  }
  return used;
}
