/**
 * A built-in stand-in for the garbage collector's finalizer work, since this
 * server runs no kube-controller-manager. Deleting with propagationPolicy
 * Orphan or Foreground leaves the object with an `orphan` or
 * `foregroundDeletion` finalizer; without this controller it would stay
 * forever. It finds such objects and, like upstream's garbage collector:
 *  - orphan: removes the owner reference to the object from every dependent
 *    (objects whose ownerReferences name its uid), then the finalizer;
 *  - foregroundDeletion: deletes each dependent (in foreground itself when it
 *    has dependents; a dependent with another live owner only loses the
 *    reference), and removes the finalizer once no dependent with
 *    blockOwnerDeletion remains.
 * Removing the last finalizer deletes the object (the store's finalizing
 * path). Background cascading (deleting dependents of owners that are gone)
 * is not done. A storage watch marks the state dirty; a timer rereads every
 * kind when dirty, while work is pending, and every 30 s regardless.
 */
import { KObject, OwnerReference } from '../machinery/object';
import { apiVersionOf, ResourceDefinition, UserInfo } from '../machinery/resource-definition';
import type { StoragePort, WatchHandle } from '../ports/storage.port';
import { foregroundFinalizer, orphanFinalizer } from './delete';
import { listFromStorage } from './list';
import { compilePredicate } from './predicate';
import type { Registry } from './registry';
import type { DeleteOptions, WriteOptions } from './request';

type Log = (level: string, msg: string, extra?: object) => void;

interface Item {
  def: ResourceDefinition;
  obj: KObject;
}

const gcUser: UserInfo = {
  username: 'system:serviceaccount:kube-system:generic-garbage-collector',
  groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
};

const fullRescanMs = 30_000;

export interface GcFinalizerController {
  /** One pass over every kind (also what the timer runs). */
  sync(): Promise<void>;
  stop(): void;
}

export function startGcFinalizers(registry: Registry, storage: StoragePort, log: Log, intervalMs = 250): GcFinalizerController {
  let dirty = true;
  let pending = false;
  let lastFull = 0;
  let running: Promise<void> | undefined;
  let handle: WatchHandle | undefined;
  let stopped = false;

  const watch = async () => {
    if (stopped) return;
    try {
      const from = await storage.currentRevision();
      if (stopped) return;
      handle = storage.watch('/', from, {
        onEvents: (events) => {
          if (pending || events.some((e) => e.value?.includes('"deletionTimestamp"'))) dirty = true;
        },
        onError: () => {
          dirty = true;
          setTimeout(() => void watch(), 1000).unref();
        },
      });
    } catch {
      setTimeout(() => void watch(), 1000).unref();
    }
  };
  void watch();

  const sync = (): Promise<void> => {
    running ??= pass(registry, log)
      .then((stillPending) => {
        pending = stillPending;
        if (stillPending) dirty = true;
      })
      .catch((e) => {
        dirty = true;
        log('warn', 'finalizer controller pass failed', { error: (e as Error).message });
      })
      .finally(() => (running = undefined));
    return running;
  };
  const timer = setInterval(() => {
    if (running || stopped) return;
    if (!dirty && Date.now() - lastFull < fullRescanMs) return;
    dirty = false;
    lastFull = Date.now();
    void sync();
  }, intervalMs);
  timer.unref();

  return {
    sync,
    stop() {
      stopped = true;
      clearInterval(timer);
      handle?.cancel();
    },
  };
}

const hasGcFinalizer = (o: KObject) => !!o.metadata.deletionTimestamp && !!o.metadata.finalizers?.some((f) => f === orphanFinalizer || f === foregroundFinalizer);

/** One pass; true while some owner still waits for its dependents. */
async function pass(registry: Registry, log: Log): Promise<boolean> {
  // Read from storage, not the watch cache: a dependent created just before its owner's deletion must not be missed.
  const all = await listAll(registry);
  const owners = all.filter((i) => hasGcFinalizer(i.obj));
  if (owners.length === 0) return false;
  const byUid = new Map(all.filter((i) => i.obj.metadata.uid).map((i) => [i.obj.metadata.uid!, i]));
  let waiting = false;
  for (const owner of owners) {
    const deps = all.filter((i) => dependsOn(i, owner));
    const fins = owner.obj.metadata.finalizers ?? [];
    try {
      if (fins.includes(orphanFinalizer)) {
        for (const d of deps) await dropOwnerRef(registry, d, owner.obj.metadata.uid!);
        await removeFinalizer(registry, owner, orphanFinalizer);
      } else if (fins.includes(foregroundFinalizer)) {
        let blocking = false;
        for (const d of deps) {
          const ref = d.obj.metadata.ownerReferences!.find((r) => r.uid === owner.obj.metadata.uid)!;
          if (hasSolidOwner(d, owner.obj.metadata.uid!, byUid)) {
            await dropOwnerRef(registry, d, owner.obj.metadata.uid!);
            continue;
          }
          if (ref.blockOwnerDeletion) blocking = true;
          if (!d.obj.metadata.deletionTimestamp) await deleteDependent(registry, d, all.some((i) => dependsOn(i, d)));
        }
        if (blocking) waiting = true;
        else await removeFinalizer(registry, owner, foregroundFinalizer);
      }
    } catch (e) {
      waiting = true;
      log('warn', 'finalizer controller could not process an object', { resource: owner.def.plural, name: owner.obj.metadata.name, error: (e as Error).message });
    }
  }
  return waiting;
}

async function listAll(registry: Registry): Promise<Item[]> {
  const all: Item[] = [];
  for (const def of registry.definitions) {
    const list = await listFromStorage(def, registry.deps.storage, { predicate: compilePredicate(def) });
    for (const obj of list.items) all.push({ def, obj });
  }
  return all;
}

/** Owner references only count within the dependent's namespace, or to cluster-scoped owners. */
function dependsOn(dep: Item, owner: Item): boolean {
  const uid = owner.obj.metadata.uid;
  if (!uid || !dep.obj.metadata.ownerReferences?.some((r) => r.uid === uid)) return false;
  return !owner.def.namespaced || dep.obj.metadata.namespace === owner.obj.metadata.namespace;
}

/** Another owner that exists and is not itself waiting on its dependents. */
function hasSolidOwner(dep: Item, ownerUid: string, byUid: Map<string, Item>): boolean {
  return (dep.obj.metadata.ownerReferences ?? []).some((r: OwnerReference) => {
    if (r.uid === ownerUid) return false;
    const other = byUid.get(r.uid);
    return !!other && !(other.obj.metadata.deletionTimestamp && other.obj.metadata.finalizers?.includes(foregroundFinalizer));
  });
}

function writeOptions(def: ResourceDefinition): WriteOptions {
  return { user: gcUser, dryRun: false, fieldManager: 'kube-controller-manager', fieldValidation: 'Ignore', warnings: [], apiVersion: apiVersionOf(def) };
}

const notFound = (e: unknown) => (e as { status?: { code?: number } }).status?.code === 404;

/** Changes one object if it is still the same one (uid), through the normal update path. */
async function mutate(registry: Registry, item: Item, change: (obj: KObject) => boolean): Promise<void> {
  const { def, obj } = item;
  try {
    await registry.store(def).guaranteedUpdate(obj.metadata.namespace, obj.metadata.name!, writeOptions(def), undefined, false, async (old) => {
      if (!old || old.metadata.uid !== obj.metadata.uid) throw Object.assign(new Error('gone'), { status: { code: 404 } });
      const next = structuredClone(old);
      if (!change(next)) return old;
      return next;
    });
  } catch (e) {
    if (!notFound(e)) throw e;
  }
}

function dropOwnerRef(registry: Registry, dep: Item, ownerUid: string): Promise<void> {
  return mutate(registry, dep, (o) => {
    const refs = o.metadata.ownerReferences ?? [];
    const kept = refs.filter((r) => r.uid !== ownerUid);
    if (kept.length === refs.length) return false;
    if (kept.length) o.metadata.ownerReferences = kept;
    else delete o.metadata.ownerReferences;
    return true;
  });
}

function removeFinalizer(registry: Registry, owner: Item, finalizer: string): Promise<void> {
  return mutate(registry, owner, (o) => {
    const fins = o.metadata.finalizers ?? [];
    if (!fins.includes(finalizer)) return false;
    o.metadata.finalizers = fins.filter((f) => f !== finalizer);
    return true;
  });
}

async function deleteDependent(registry: Registry, dep: Item, hasDependents: boolean): Promise<void> {
  const { def, obj } = dep;
  const opts: DeleteOptions = { ...writeOptions(def), preconditions: { uid: obj.metadata.uid } };
  if (hasDependents) opts.propagationPolicy = 'Foreground';
  try {
    await registry.delete(def, obj.metadata.namespace, obj.metadata.name!, opts);
  } catch (e) {
    if (!notFound(e) && (e as { status?: { code?: number } }).status?.code !== 409) throw e;
  }
}
