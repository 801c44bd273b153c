/**
 * The namespace controller (upstream's namespaced-resources deleter): for
 * every namespace being deleted it deletes every namespaced object of every
 * served kind in it, reports progress in status.conditions, and once
 * nothing is left removes its `kubernetes` finalizer through /finalize,
 * which removes the namespace. Objects held by finalizers are waited for
 * (a pass again after about 8 s, as upstream); failures are retried with
 * backoff. A pass runs when the watch cache applied a change to a namespace
 * being deleted, when a namespace's wait is over, and every five minutes
 * (upstream's --namespace-sync-period); it finds Terminating namespaces by
 * listing them from the cache (a field selector on status.phase).
 */
import type { KObject } from '../../machinery/object';
import { apiVersionOf, type ResourceDefinition } from '../../machinery/resource-definition';
import type { RegistryClient } from '../registry-client';
import { beingDeleted, watching, type WatchChanges } from '../changes';
import type { ClockPort } from '../../ports/clock.port';
import { timestamp } from '../../registry/context';
import { FINALIZER_KUBERNETES, finalizersOf, namespaceDefinition, PHASE_TERMINATING, type NamespaceObject } from '../../resources/namespace';
import { controllerDelete, controllerWrite, serviceAccountUser, statusOf, type Log } from '../controller-identity';
import { DeletionOutcome, NamespaceCondition, updateConditions } from './deletion-conditions';
import { startPassLoop, type PassLoop } from '../pass-loop';

const user = serviceAccountUser('namespace-controller');
/** Upstream's estimate for objects held by finalizers; the next pass comes after half of it plus one. */
const finalizerEstimateSeconds = 15;
const maxBackoffMs = 60_000;

export interface NamespaceControllerOptions {
  watch: WatchChanges;
  clock: ClockPort;
  resyncMs?: number;
}

class ContentRemains extends Error {
  constructor(readonly estimateSeconds: number) {
    super(`some content remains in the namespace, estimate ${estimateSeconds} seconds before it is removed`);
  }
}

export function startNamespaceController(registry: RegistryClient, log: Log, options: NamespaceControllerOptions): PassLoop {
  const due = new Map<string, { at: number; backoffMs: number }>();
  const now = () => options.clock.now().getTime();
  const pass = async (stopped: () => boolean): Promise<number | undefined> => {
    const list = await registry.list(namespaceDefinition, { fieldSelector: `status.phase=${PHASE_TERMINATING}`, resourceVersion: '0' });
    const names = new Set(list.items.map((n) => n.metadata.name!));
    for (const name of due.keys()) if (!names.has(name)) due.delete(name);
    for (const name of names) {
      if (stopped()) return undefined;
      const entry = due.get(name);
      if (entry && entry.at > now()) continue;
      try {
        await deleteNamespaceContent(registry, options.clock, name);
        due.delete(name);
      } catch (e) {
        if (e instanceof ContentRemains) {
          due.set(name, { at: now() + (e.estimateSeconds / 2 + 1) * 1000, backoffMs: 0 });
          log('debug', 'namespace content remains', { namespace: name, waitSeconds: e.estimateSeconds / 2 + 1 });
          continue;
        }
        const backoffMs = Math.min(maxBackoffMs, Math.max(1000, (entry?.backoffMs ?? 500) * 2));
        due.set(name, { at: now() + backoffMs, backoffMs });
        log('warn', 'deletion of namespace failed', { namespace: name, error: (e as Error).message });
      }
    }
    // Again when the first namespace that waits is due.
    let next = Infinity;
    for (const d of due.values()) next = Math.min(next, d.at);
    return Number.isFinite(next) ? Math.max(0, next - now()) : undefined;
  };
  return startPassLoop({
    name: 'namespace-controller',
    subscribe: watching(options.watch, [[namespaceDefinition, beingDeleted]]),
    log,
    resyncMs: options.resyncMs ?? 5 * 60_000,
    pass,
  });
}

/** Upstream's Delete(namespace): phase, content, finalize. Throws ContentRemains while objects wait for their finalizers. */
async function deleteNamespaceContent(registry: RegistryClient, clock: ClockPort, name: string): Promise<void> {
  let ns = await getNamespace(registry, name);
  if (!ns?.metadata.deletionTimestamp) return;
  if (ns.status?.phase !== PHASE_TERMINATING) {
    ns = await writeNamespace(registry, name, 'status', (n) => ({ ...n, status: { ...(n.status ?? {}), phase: PHASE_TERMINATING } }));
    if (!ns?.metadata.deletionTimestamp) return;
  }
  if (!finalizersOf(ns).includes(FINALIZER_KUBERNETES)) return;
  const estimate = await deleteAllContent(registry, clock, ns);
  if (estimate > 0) throw new ContentRemains(estimate);
  // Without other finalizers, this write also removes the namespace.
  await writeNamespace(registry, name, 'finalize', (n) => ({
    ...n,
    spec: { ...(n.spec ?? {}), finalizers: [...new Set(finalizersOf(n).filter((f) => f !== FINALIZER_KUBERNETES))].sort() },
  }));
}

async function getNamespace(registry: RegistryClient, name: string): Promise<NamespaceObject | undefined> {
  try {
    return (await registry.get(namespaceDefinition, undefined, name)).object as NamespaceObject;
  } catch (e) {
    if (statusOf(e) === 404) return undefined;
    throw e;
  }
}

/** An update through a subresource, retried on conflicts with the latest namespace (undefined once it is gone). */
async function writeNamespace(
  registry: RegistryClient,
  name: string,
  subresource: 'status' | 'finalize',
  change: (ns: NamespaceObject) => NamespaceObject,
): Promise<NamespaceObject | undefined> {
  for (let attempt = 0; ; attempt++) {
    const ns = await getNamespace(registry, name);
    if (!ns) return undefined;
    try {
      const opts = controllerWrite(user, apiVersionOf(namespaceDefinition));
      return (await registry.update(namespaceDefinition, undefined, name, change(ns), opts, subresource)).object as NamespaceObject;
    } catch (e) {
      if (statusOf(e) === 404) return undefined;
      if (statusOf(e) !== 409 || attempt >= 5) throw e;
    }
  }
}

const resourceName = (def: ResourceDefinition) => `${def.plural}.${def.group}`;

/** Deletes every namespaced object in the namespace; returns how long to wait for objects held by finalizers (0: all gone). */
async function deleteAllContent(registry: RegistryClient, clock: ClockPort, ns: NamespaceObject): Promise<number> {
  const name = ns.metadata.name!;
  const outcome: DeletionOutcome = { deleteErrors: [], remaining: new Map(), finalizers: new Map() };
  let estimate = 0;
  // Kinds in parallel: each consistent list may wait for its cache to catch up; the waits overlap.
  const kinds = registry.definitions.filter((d) => d.namespaced);
  const results = await Promise.allSettled(kinds.map((def) => deleteKind(registry, def, name)));
  results.forEach((r, i) => {
    const def = kinds[i];
    if (r.status === 'rejected') return void outcome.deleteErrors.push((r.reason as Error).message);
    const left = r.value;
    if (left.length === 0) return;
    outcome.remaining.set(resourceName(def), left.length);
    const held = left.flatMap((o) => o.metadata.finalizers ?? []);
    for (const f of held) outcome.finalizers.set(f, (outcome.finalizers.get(f) ?? 0) + 1);
    if (held.length === 0) outcome.deleteErrors.push(`unexpected items still remain in namespace: ${name} for gvr: ${def.group}/${def.version}, Resource=${def.plural}`);
    else estimate = Math.max(estimate, finalizerEstimateSeconds);
  });
  const now = timestamp(clock.now());
  const { conditions, changed } = updateConditions(ns.status?.conditions as NamespaceCondition[] | undefined, outcome, now);
  if (changed) {
    try {
      await writeNamespace(registry, name, 'status', (n) => ({ ...n, status: { ...(n.status ?? {}), conditions: conditions as unknown as Array<Record<string, unknown>> } }));
    } catch {
      // Conditions are informative; the next pass writes them again.
    }
  }
  if (outcome.deleteErrors.length) throw new Error(outcome.deleteErrors.join('; '));
  return estimate;
}

/**
 * Deletes the kind's objects in the namespace (in the background); returns
 * those still there. The first pass works from the watch cache as it is;
 * a consistent list then catches what the cache had not seen yet.
 */
async function deleteKind(registry: RegistryClient, def: ResourceDefinition, namespace: string): Promise<KObject[]> {
  const opts = controllerDelete(user, apiVersionOf(def));
  const deleteEach = async (items: KObject[]) => {
    for (const o of items) {
      try {
        await registry.delete(def, namespace, o.metadata.name!, opts);
      } catch (e) {
        if (statusOf(e) !== 404) throw e;
      }
    }
  };
  if (def.deleteCollection !== false) await registry.deleteCollection(def, { namespace, resourceVersion: '0' }, opts);
  else await deleteEach((await registry.list(def, { namespace, resourceVersion: '0' })).items);
  let left = (await registry.list(def, { namespace })).items;
  const missed = left.filter((o) => !o.metadata.deletionTimestamp);
  if (missed.length) {
    await deleteEach(missed);
    left = (await registry.list(def, { namespace })).items;
  }
  return left;
}
