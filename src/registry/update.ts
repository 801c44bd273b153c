/**
 * The optimistic-concurrency loop shared by PUT, PATCH and apply (upstream's
 * GuaranteedUpdate): read, produce the new version, admit and validate it,
 * write it with compare-and-swap, and on a lost race start again from the
 * value that won, unless the client pinned a resourceVersion.
 */
import { errors } from '../machinery/status';
import { KObject, deepEqual } from '../machinery/object';
import { KeyNotFoundError, KeyValue, PutOptions, RevisionMismatchError } from '../ports/storage.port';
import { bumpGeneration, carrySystemFields, checkTypeMeta, keepSubresourceFields, resetManagedFieldsRequest, resetObjectMetaForStatus, shapeAsStored, validateUpdate } from './admission';
import { decodeKeyValue, encodeForStorage } from './codec';
import { encodeWithinLimit } from './object-size';
import { rememberWrite } from './encoded-objects';
import { writtenCopier } from './decoded-writes';
import type { RevisionSlot } from './with-revision';
import { ObjectResult } from './results';
import { strategyContext } from './context';
import { WriteOptions } from './request';
import type { AdmissionAttributes } from './admission-chain';
import { ignoreManagedFieldsTimestamps, recordManagedFields } from './managed-fields';
import type { RegistryDeps } from './context';
import type { AsyncConverter, ResourceDefinition } from '../machinery/resource-definition';
import { converterOf, convertFromStorage, convertToStorage } from './conversion';
import type { CurrentValue } from './reader';

/**
 * Produces the new version of an object from the stored one (undefined when
 * absent). `old` is compared with the result afterwards, so it is never
 * changed, and the result must share nothing with it that is changed later:
 * a producer that edits a copy takes one from `copy()`, decoded afresh from
 * the stored bytes (cheaper than cloning `old`); the JSON, merge and strategic
 * patch functions copy their input themselves and are handed `old`.
 */
export type UpdateFn = (old: KObject | undefined, copy: () => KObject) => Promise<KObject>;

/** What the loop needs of the kind's store (store.ts). */
export interface UpdatingStore {
  readonly def: ResourceDefinition;
  readonly deps: RegistryDeps;
  readonly ref: { group: string; plural: string; kind: string };
  key(namespace: string | undefined, name: string): string;
  putOptions(): PutOptions | undefined;
  create(namespace: string | undefined, obj: KObject, opts: WriteOptions, created?: boolean): Promise<ObjectResult>;
  written(obj: KObject, stored: Buffer, revision: number, created?: boolean, slot?: RevisionSlot): ObjectResult;
  convertedBack(converter: AsyncConverter, stored: KObject, revision: number, created?: boolean): Promise<ObjectResult>;
  /** The watch cache's copy of the value under `key`, if it holds one: a guess at what storage holds. */
  cached?(key: string): CurrentValue | undefined;
}

const maxCasAttempts = 16;

/** What an attempt prepared to write over `current`. */
interface Prepared {
  old: KObject;
  obj: KObject;
  stored: KObject;
  encoded: Buffer;
  finalizing: boolean;
  converter: AsyncConverter | undefined;
}

export async function guaranteedUpdate(
  store: UpdatingStore,
  namespace: string | undefined,
  name: string,
  opts: WriteOptions,
  subresource: string | undefined,
  pinned: boolean,
  produce: UpdateFn,
  createOnMissing = store.def.allowCreateOnUpdate && !subresource,
): Promise<ObjectResult> {
  const { def } = store;
  const key = store.key(namespace, name);
  // As upstream's GuaranteedUpdate, the first attempt starts from the watch cache's object when it has one (on etcd
  // this saves reading the value back). It may be stale, so whatever it leads to short of a successful write (an
  // error, a precondition or a write that fails, no change at all) is checked against storage (guessHeld).
  const guess = opts.dryRun ? undefined : store.cached?.(key);
  // A failed compare-and-swap returns the value that won, so a retry needs no second read.
  let known: { value: KeyValue | undefined } | undefined;
  /** Storage's value if it still is the guessed revision (the same bytes, without resourceVersion); else the next attempt starts from it. */
  const guessHeld = async (): Promise<KeyValue | undefined> => {
    const fresh = await store.deps.storage.get(key);
    if (fresh && fresh.modRevision === guess?.modRevision) return fresh;
    known = { value: fresh };
    return undefined;
  };
  for (let attempt = 0; attempt < maxCasAttempts; attempt++) {
    const guessed = attempt === 0 && !!guess;
    const current: CurrentValue | undefined = guessed ? guess : known ? known.value : await store.deps.storage.get(key);
    known = undefined;
    if (!current) {
      if (!createOnMissing) throw errors.notFound(store.ref, name);
      const obj = await produce(undefined, () => {
        throw new Error('no stored object to copy');
      });
      if (obj.metadata.resourceVersion) throw errors.notFound(store.ref, name);
      try {
        return await store.create(namespace, obj, opts, true);
      } catch (e) {
        if ((e as { status?: { reason?: string } }).status?.reason === 'AlreadyExists' && attempt + 1 < maxCasAttempts) continue;
        throw e;
      }
    }
    let prepared: Prepared;
    try {
      prepared = await prepare(store, key, name, current, opts, subresource, produce);
    } catch (e) {
      if (guessed && !(await guessHeld())) continue;
      throw e;
    }
    const { old, obj, stored, encoded, finalizing, converter } = prepared;
    // Unchanged content (key order aside) is not written: no new resourceVersion, no watch event.
    if (!finalizing && (encoded.equals(current.value) || sameContent(obj, old))) {
      const held = guessed ? await guessHeld() : current;
      if (!held) continue;
      return store.written(old, held.value, held.modRevision);
    }
    if (opts.dryRun) return ObjectResult.of(obj);
    try {
      if (finalizing) {
        await store.deps.storage.delete(key, current.modRevision);
        return ObjectResult.of(obj);
      }
      const slot = rememberWrite(def, key, encoded, stored);
      const rev = await store.deps.storage.update(key, encoded, current.modRevision, store.putOptions());
      obj.metadata.resourceVersion = String(rev);
      if (converter) return store.convertedBack(converter, stored, rev);
      return store.written(obj, encoded, rev, false, slot);
    } catch (e) {
      // Another remover of the last finalizer won the race: the object is gone either way (upstream answers 200).
      if (finalizing && e instanceof KeyNotFoundError) return ObjectResult.of(obj);
      if (e instanceof RevisionMismatchError || e instanceof KeyNotFoundError) {
        // Changed under a pinned resourceVersion: a conflict, unless the attempt started from a guess (its check is
        // made again on the value that won). Deleted meanwhile: the next attempt answers not found, as upstream does.
        if (pinned && !guessed && e instanceof RevisionMismatchError) throw errors.staleResourceVersion(store.ref, name);
        if (e instanceof RevisionMismatchError && e.current) known = { value: e.current };
        else if (e instanceof KeyNotFoundError) known = { value: undefined };
        continue;
      }
      throw e;
    }
  }
  throw errors.conflict(store.ref, name, 'too many concurrent updates; please try again');
}

/** One attempt's new version of `current`: produced, checked against its preconditions, admitted, validated and encoded. */
async function prepare(store: UpdatingStore, key: string, name: string, current: CurrentValue, opts: WriteOptions, subresource: string | undefined, produce: UpdateFn): Promise<Prepared> {
  const { def } = store;
  const ctx = strategyContext(store.deps, opts.user, opts.warnings);
  const converter = converterOf(def);
  // A kind converted by a call is updated in the request's version: the stored object is converted first.
  // A large value this process wrote is copied from its decoded form, not decoded again (decoded-writes.ts).
  const decode = (!converter && writtenCopier(def, current)) || (() => decodeKeyValue(def, current));
  const old = converter ? await convertFromStorage(converter, decodeKeyValue(def, current)) : decode();
  const obj = await produce(old, converter ? () => structuredClone(old) : decode);
  checkTypeMeta(def, obj);
  const rv = obj.metadata.resourceVersion;
  if (rv && rv !== old.metadata.resourceVersion) throw errors.staleResourceVersion(store.ref, name);
  if (obj.metadata.uid && obj.metadata.uid !== old.metadata.uid) {
    throw errors.conflict(
      store.ref,
      name,
      `StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${obj.metadata.uid}, UID in object meta: ${old.metadata.uid}`,
    );
  }
  carrySystemFields(obj, old);
  const attributes: AdmissionAttributes = {
    operation: 'UPDATE',
    definition: def,
    namespace: obj.metadata.namespace,
    name,
    subresource,
    object: obj,
    oldObject: old,
    user: opts.user,
    dryRun: opts.dryRun,
    options: opts,
  };
  const admitted = store.deps.admission?.admit(attributes);
  if (admitted) await admitted;
  if (subresource) {
    const sub = def.subresources[subresource];
    if (sub.resetObjectMeta) resetObjectMetaForStatus(obj, old);
    sub.prepareForUpdate(obj, old, ctx);
  } else {
    keepSubresourceFields(def, obj, old);
    def.strategy.prepareForUpdate?.(obj, old, ctx);
    def.strategy.applyDefaults?.(obj, ctx);
  }
  resetManagedFieldsRequest(obj);
  const valid = validateUpdate(def, obj, old, ctx, subresource);
  if (valid) await valid;
  const checked = def.admit?.('update', obj, old, subresource, ctx);
  if (checked) await checked;
  def.strategy.canonicalize?.(obj);
  shapeAsStored(def, obj);
  // Compared in stored shape, so an empty map that Go leaves out is no spec change (as Semantic.DeepEqual).
  if (!subresource) bumpGeneration(def, obj, old);
  recordManagedFields(def, obj, old, opts, store.deps.clock.now(), subresource);
  const validated = store.deps.admission?.validate(attributes);
  if (validated) await validated;
  obj.metadata.resourceVersion = old.metadata.resourceVersion;
  ignoreManagedFieldsTimestamps(obj, old);

  // The last finalizer is gone: the object goes, unless the kind itself still holds it.
  const finalizing = !!obj.metadata.deletionTimestamp && !(obj.metadata.finalizers?.length) && !def.strategy.deletion?.holds(obj);
  // A write that only ends a deletion stores nothing new, so it is never refused for size.
  const stored = converter ? await convertToStorage(converter, obj) : obj;
  const encoded = finalizing ? encodeForStorage(def, stored) : encodeWithinLimit(def, stored);
  return { old, obj, stored, encoded, finalizing, converter };
}

/**
 * Whether two objects (both in stored shape, the same resourceVersion) would
 * store the same content: compared in memory, as the JSON they encode to
 * (undefined members are absent), without encoding or parsing either.
 */
function sameContent(obj: KObject, old: KObject): boolean {
  const { selfLink: _a, ...meta } = obj.metadata;
  const { selfLink: _b, ...oldMeta } = old.metadata;
  return deepEqual({ ...obj, metadata: meta }, { ...old, metadata: oldMeta });
}
