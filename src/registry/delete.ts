/**
 * DELETE of one object: preconditions, garbage-collection finalizers, the
 * finalizer-held path (set deletionTimestamp, keep the object) and the real
 * delete, as upstream's Store.Delete; plus the unsafe delete of an object
 * that no longer decodes (ignoreStoreReadErrorWithClusterBreakingPotential).
 */
import { errors, successStatus, Status } from '../machinery/status';
import { KObject } from '../machinery/object';
import { KeyNotFoundError, KeyValue, RevisionMismatchError } from '../ports/storage.port';
import { CorruptObjectError, decodeKeyValue, encodeForStorage } from './codec';
import { timestamp } from './context';
import { DeleteOptions } from './request';
import type { ResourceStore } from './store';

export const orphanFinalizer = 'orphan';
export const foregroundFinalizer = 'foregroundDeletion';

export interface DeleteResult {
  code: 200 | 202;
  body: KObject | Status;
  /** The object as it was before deletion (or as it now is, when finalizers hold it). */
  object: KObject;
  deleted: boolean;
}

/**
 * The finalizer list after applying the propagation policy (upstream's
 * deletionFinalizersForGarbageCollection): an explicit policy wins, else an
 * existing orphan/foregroundDeletion finalizer stays; the default is Background.
 */
export function gcFinalizers(current: string[], opts: Pick<DeleteOptions, 'propagationPolicy' | 'orphanDependents'>): string[] {
  let policy = opts.propagationPolicy;
  if (opts.orphanDependents !== undefined) policy = opts.orphanDependents ? 'Orphan' : 'Background';
  if (!policy) return current;
  const next = current.filter((f) => f !== orphanFinalizer && f !== foregroundFinalizer);
  if (policy === 'Orphan') next.push(orphanFinalizer);
  if (policy === 'Foreground') next.push(foregroundFinalizer);
  const same = next.length === current.length && next.every((f) => current.includes(f));
  return same ? current : next;
}

export async function deleteObject(store: ResourceStore, namespace: string | undefined, name: string, opts: DeleteOptions): Promise<DeleteResult> {
  const { def } = store;
  const ref = { group: def.group, plural: def.plural };
  const storage = store.storage;
  const key = store.key(namespace, name);
  for (let attempt = 0; attempt < 16; attempt++) {
    const current = await storage.get(key);
    if (!current) throw errors.notFound(ref, name);
    let old: KObject;
    try {
      old = decodeKeyValue(def, current);
    } catch (e) {
      if (!(e instanceof CorruptObjectError)) throw e;
      if (!opts.ignoreStoreReadErrorWithClusterBreakingPotential) throw errors.internal(e.message);
      return unsafeDelete(store, key, current, name);
    }
    if (opts.ignoreStoreReadErrorWithClusterBreakingPotential) {
      throw errors.invalid({ group: def.group, kind: def.plural }, name, [
        {
          type: 'FieldValueInvalid',
          field: 'ignoreStoreReadErrorWithClusterBreakingPotential',
          badValue: true,
          detail: 'is exclusively used to delete corrupt object(s), try again by removing this option',
        },
      ]);
    }
    checkPreconditions(def.kind, def.group, name, old, opts);
    await store.admitDelete(old, opts);

    const kindRules = def.strategy.deletion;
    const firstRequest = !old.metadata.deletionTimestamp;
    if (kindRules?.markFirst && firstRequest) {
      const marked = await markForKind(store, key, current, old, opts);
      if (marked) return marked;
      continue;
    }
    // Still held by the kind (e.g. a namespace whose content is being removed): nothing to do yet.
    if (kindRules?.holds(old) && !firstRequest) return { code: 200, body: old, object: old, deleted: false };

    const finalizers = gcFinalizers(old.metadata.finalizers ?? [], opts);
    if (finalizers.length > 0) {
      // Finalizers hold the object: mark it as being deleted instead (upstream's markAsDeleting).
      const obj = structuredClone(old);
      obj.metadata.finalizers = finalizers;
      const now = timestamp(store.now());
      if (!obj.metadata.deletionTimestamp) {
        if (obj.metadata.generation && obj.metadata.generation > 0) obj.metadata.generation += 1;
        obj.metadata.deletionTimestamp = now;
      } else if (Date.parse(obj.metadata.deletionTimestamp) > Date.parse(now)) obj.metadata.deletionTimestamp = now;
      obj.metadata.deletionGracePeriodSeconds = 0;
      const code = opts.orphanDependents === false ? 202 : 200;
      if (opts.dryRun) return { code, body: obj, object: obj, deleted: false };
      const encoded = encodeForStorage(def, obj);
      if (encoded.equals(encodeForStorage(def, old))) return { code, body: old, object: old, deleted: false };
      try {
        const rev = await storage.update(key, encoded, current.modRevision);
        obj.metadata.resourceVersion = String(rev);
        return { code, body: obj, object: obj, deleted: false };
      } catch (e) {
        if (e instanceof RevisionMismatchError || e instanceof KeyNotFoundError) continue;
        throw e;
      }
    }

    const body: KObject | Status = def.returnDeletedObject
      ? old
      : successStatus({ name, ...(def.group ? { group: def.group } : {}), kind: def.plural, uid: old.metadata.uid });
    if (opts.dryRun) return { code: 200, body, object: old, deleted: false };
    try {
      await storage.delete(key, current.modRevision);
      return { code: 200, body, object: old, deleted: true };
    } catch (e) {
      if (e instanceof RevisionMismatchError) continue;
      if (e instanceof KeyNotFoundError) throw errors.notFound(ref, name);
      throw e;
    }
  }
  throw errors.conflict(ref, name, 'too many concurrent updates; please try again');
}

/**
 * The first DELETE of a kind whose deletion it holds itself (upstream's
 * Namespace REST Delete): set deletionTimestamp without a grace period, let
 * the kind mark it (status.phase), apply the propagation policy's
 * finalizers, and keep the object. Undefined when a concurrent write won.
 */
async function markForKind(store: ResourceStore, key: string, current: KeyValue, old: KObject, opts: DeleteOptions): Promise<DeleteResult | undefined> {
  const { def } = store;
  const obj = structuredClone(old);
  obj.metadata.deletionTimestamp = timestamp(store.now());
  def.strategy.deletion!.onMark?.(obj);
  // Finalizers the kind added as it marked the object hold it as much as those it had.
  const held = obj.metadata.finalizers ?? [];
  const finalizers = gcFinalizers(held, opts);
  if (finalizers !== held) {
    if (finalizers.length) obj.metadata.finalizers = finalizers;
    else delete obj.metadata.finalizers;
  }
  if (opts.dryRun) return { code: 200, body: obj, object: obj, deleted: false };
  try {
    const rev = await store.storage.update(key, encodeForStorage(def, obj), current.modRevision, store.putOptions());
    obj.metadata.resourceVersion = String(rev);
    return { code: 200, body: obj, object: obj, deleted: false };
  } catch (e) {
    if (e instanceof RevisionMismatchError || e instanceof KeyNotFoundError) return undefined;
    throw e;
  }
}

/**
 * Removes an undecodable object without finalizers or preconditions. The
 * answer is the Status upstream's handler builds when the deleter returns no
 * object: Kind (not resource) in details, and a code.
 */
async function unsafeDelete(store: ResourceStore, key: string, current: KeyValue, name: string): Promise<DeleteResult> {
  try {
    await store.storage.delete(key, current.modRevision);
  } catch (e) {
    if (!(e instanceof KeyNotFoundError) && !(e instanceof RevisionMismatchError)) throw e;
  }
  const body: Status = { ...successStatus({ name, kind: store.def.kind }), code: 200 };
  return { code: 200, body, object: { metadata: { name } }, deleted: true };
}

function checkPreconditions(kind: string, group: string, name: string, old: KObject, opts: DeleteOptions): void {
  const p = opts.preconditions;
  if (!p) return;
  // Upstream names the Kind here (`ConfigMap "foo"`), not the resource.
  const kindRef = { group, plural: kind };
  if (p.uid && p.uid !== old.metadata.uid) {
    throw errors.conflict(
      kindRef,
      name,
      `the UID in the precondition (${p.uid}) does not match the UID in record (${old.metadata.uid}). The object might have been deleted and then recreated`,
    );
  }
  if (p.resourceVersion && p.resourceVersion !== old.metadata.resourceVersion) {
    throw errors.conflict(
      kindRef,
      name,
      `the ResourceVersion in the precondition (${p.resourceVersion}) does not match the ResourceVersion in record (${old.metadata.resourceVersion}). The object might have been modified`,
    );
  }
}
