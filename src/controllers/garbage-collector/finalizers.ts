/**
 * The garbage collector's finalizer work (kube-controller-manager's
 * garbage-collector-controller, reduced to what this server needs).
 * Deleting with propagationPolicy Orphan or Foreground leaves the object with
 * an `orphan` or `foregroundDeletion` finalizer; without this controller it
 * would stay forever. It finds such objects and, like upstream's collector:
 *  - orphan: removes the owner reference to the object from every dependent
 *    (objects whose ownerReferences name its uid), then the finalizer;
 *  - foregroundDeletion: deletes each dependent (in foreground itself when it
 *    has dependents; a dependent with another live owner only loses the
 *    reference), and removes the finalizer once no dependent with
 *    blockOwnerDeletion remains.
 * Removing the last finalizer deletes the object (the store's finalizing
 * path). Background cascading (deleting dependents of owners that are gone)
 * is not done. A pass runs when the watch cache applied a change to an
 * object being deleted (and, while an owner waits, any deletion), again
 * soon while work is pending, and every 30 s regardless; it reads with
 * consistent lists.
 */
import { KObject, OwnerReference } from '../../machinery/object';
import { apiVersionOf, ResourceDefinition } from '../../machinery/resource-definition';
import { foregroundFinalizer, orphanFinalizer } from '../../registry/delete';
import type { RegistryClient } from '../registry-client';
import { beingDeleted, type ScanCache, type WatchAllChanges } from '../changes';
import type { DeleteOptions, WriteOptions } from '../../registry/request';
import { serviceAccountUser, statusOf, type Log } from '../controller-identity';
import { startPassLoop, type PassLoop } from '../pass-loop';

interface Item {
  def: ResourceDefinition;
  obj: KObject;
}

const gcUser = serviceAccountUser('generic-garbage-collector');

const fullRescanMs = 30_000;

/** While an owner waits for its dependents, a pass this often at least (their deletions wake it sooner). */
const waitingRetryMs = 1000;

export function startGcFinalizers(registry: RegistryClient, log: Log, { watchAll, scan }: { watchAll: WatchAllChanges; scan: ScanCache }): PassLoop {
  let waiting = false;
  return startPassLoop({
    name: 'garbage-collector-controller',
    // A dependent that goes away may release its owner: deletions count while an owner waits.
    subscribe: (wake) => watchAll(wake, (o) => beingDeleted(o) || (waiting && !o.json)),
    log,
    resyncMs: fullRescanMs,
    pass: async (stopped) => {
      waiting = await pass(registry, scan, log, stopped);
      return waiting ? waitingRetryMs : undefined;
    },
  });
}

const hasGcFinalizer = (o: KObject) => !!o.metadata.deletionTimestamp && !!o.metadata.finalizers?.some((f) => f === orphanFinalizer || f === foregroundFinalizer);

/** One pass; true while some owner still waits for its dependents. */
async function pass(registry: RegistryClient, scan: ScanCache, log: Log, stopped: () => boolean): Promise<boolean> {
  if (!mayHaveOwners(registry, scan)) return false;
  // Consistent lists: a dependent created just before its owner's deletion must not be missed.
  const all = await listAll(registry);
  const owners = all.filter((i) => hasGcFinalizer(i.obj));
  if (owners.length === 0) return false;
  const byUid = new Map(all.filter((i) => i.obj.metadata.uid).map((i) => [i.obj.metadata.uid!, i]));
  let waiting = false;
  for (const owner of owners) {
    if (stopped()) return true;
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

/**
 * Whether some object may be an owner waiting for the collector, judged from
 * the cached JSON: most passes find none, and decoding every object of every
 * kind for that (a pass runs at start and every 30 s) would cost a copy of the
 * whole cache in garbage. A false positive only means a full pass; the pass
 * itself reads consistently.
 */
function mayHaveOwners(registry: RegistryClient, scan: ScanCache): boolean {
  const marks = ['"deletionTimestamp"', `"${orphanFinalizer}"`, `"${foregroundFinalizer}"`];
  const waiting = (json: Buffer) => json.includes(marks[0]) && (json.includes(marks[1]) || json.includes(marks[2]));
  return registry.definitions.some((def) => scan(def, waiting));
}

async function listAll(registry: RegistryClient): Promise<Item[]> {
  // All kinds at once: each consistent list may wait for the cache to catch up (up to seconds on an etcd
  // without progress notifications), and those waits must not add up kind after kind.
  const lists = await Promise.all(registry.definitions.map(async (def) => ({ def, items: (await registry.list(def, {})).items })));
  return lists.flatMap(({ def, items }) => items.map((obj) => ({ def, obj })));
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

const notFound = (e: unknown) => statusOf(e) === 404;

/**
 * Changes one object if it is still the same one (uid): read from storage,
 * changed, written back with the resourceVersion it was read at; a race
 * reads again.
 */
async function mutate(registry: RegistryClient, item: Item, change: (obj: KObject) => boolean): Promise<void> {
  const { def, obj } = item;
  const { namespace, name, uid } = obj.metadata;
  for (let attempt = 0; ; attempt++) {
    let current: KObject;
    try {
      current = (await registry.get(def, namespace, name!)).object;
    } catch (e) {
      if (notFound(e)) return;
      throw e;
    }
    if (current.metadata.uid !== uid || !change(current)) return;
    try {
      await registry.update(def, namespace, name!, current, writeOptions(def));
      return;
    } catch (e) {
      if (notFound(e)) return;
      if (statusOf(e) !== 409 || attempt >= 5) throw e;
    }
  }
}

function dropOwnerRef(registry: RegistryClient, dep: Item, ownerUid: string): Promise<void> {
  return mutate(registry, dep, (o) => {
    const refs = o.metadata.ownerReferences ?? [];
    const kept = refs.filter((r) => r.uid !== ownerUid);
    if (kept.length === refs.length) return false;
    if (kept.length) o.metadata.ownerReferences = kept;
    else delete o.metadata.ownerReferences;
    return true;
  });
}

function removeFinalizer(registry: RegistryClient, owner: Item, finalizer: string): Promise<void> {
  return mutate(registry, owner, (o) => {
    const fins = o.metadata.finalizers ?? [];
    if (!fins.includes(finalizer)) return false;
    o.metadata.finalizers = fins.filter((f) => f !== finalizer);
    return true;
  });
}

async function deleteDependent(registry: RegistryClient, dep: Item, hasDependents: boolean): Promise<void> {
  const { def, obj } = dep;
  const opts: DeleteOptions = { ...writeOptions(def), preconditions: { uid: obj.metadata.uid } };
  if (hasDependents) opts.propagationPolicy = 'Foreground';
  try {
    await registry.delete(def, obj.metadata.namespace, obj.metadata.name!, opts);
  } catch (e) {
    if (!notFound(e) && statusOf(e) !== 409) throw e;
  }
}
