/**
 * The generic store: create, get, update and delete for any ResourceDefinition.
 * It never asks which kind it serves; per-kind behaviour comes from the
 * definition's strategy and flags.
 */
import { errors } from '../machinery/status';
import { RenderedValue } from '../machinery/field-errors';
import { KObject, deepEqual } from '../machinery/object';
import { ResourceDefinition } from '../machinery/resource-definition';
import { KeyExistsError, KeyNotFoundError, KeyValue, PutOptions, RevisionMismatchError } from '../ports/storage.port';
import {
  bumpGeneration,
  carrySystemFields,
  checkTypeMeta,
  keepSubresourceFields,
  reconcileNamespace,
  resetObjectMetaForStatus,
  shapeAsStored,
  validateCreate,
  validateUpdate,
} from './admission';
import { decodeKeyValue, encodeForStorage } from './codec';
import { encodeWithinLimit } from './object-size';
import { ObjectResult } from './results';
import { RegistryDeps, resourceRef, strategyContext, timestamp } from './context';
import { objectKey } from './keys';
import { generateName, generateNameAttempts } from './names';
import { WriteOptions } from './request';
import type { AdmissionAttributes } from './admission-chain';
import { ignoreManagedFieldsTimestamps, recordManagedFields } from './managed-fields';
import { isResetManagedFields } from '../machinery/managed-fields';

/**
 * Produces the new version of an object from the stored one (undefined when
 * absent). `old` is compared with the result afterwards, so it is never
 * changed, and the result must share nothing with it that is changed later:
 * a producer that edits a copy takes one from `copy()`, decoded afresh from
 * the stored bytes (cheaper than cloning `old`); the JSON, merge and strategic
 * patch functions copy their input themselves and are handed `old`.
 */
export type UpdateFn = (old: KObject | undefined, copy: () => KObject) => Promise<KObject>;


const maxCasAttempts = 16;

export class ResourceStore {
  constructor(
    readonly def: ResourceDefinition,
    protected readonly deps: RegistryDeps,
  ) {}

  protected get ref() {
    return resourceRef(this.def);
  }

  get storage() {
    return this.deps.storage;
  }

  now(): Date {
    return this.deps.clock.now();
  }

  key(namespace: string | undefined, name: string): string {
    return objectKey(this.def, namespace, name);
  }

  /** Both admission phases of a DELETE of `old` (admission cannot change what a delete does). */
  async admitDelete(old: KObject, opts: WriteOptions): Promise<void> {
    const admission = this.deps.admission;
    if (!admission) return;
    const attributes: AdmissionAttributes = {
      operation: 'DELETE',
      definition: this.def,
      namespace: old.metadata.namespace,
      name: old.metadata.name ?? '',
      oldObject: old,
      user: opts.user,
      dryRun: opts.dryRun,
      options: opts,
    };
    await admission.admit(attributes);
    await admission.validate(attributes);
  }

  /** Every write of a kind with a TTL (events) renews it, as upstream's TTLFunc. */
  putOptions(): PutOptions | undefined {
    const ttlSeconds = this.deps.ttlSeconds?.(this.def);
    return ttlSeconds ? { ttlSeconds } : undefined;
  }

  async getRaw(namespace: string | undefined, name: string): Promise<KeyValue | undefined> {
    return this.deps.storage.get(this.key(namespace, name));
  }

  async get(namespace: string | undefined, name: string): Promise<KObject> {
    const kv = await this.getRaw(namespace, name);
    if (!kv) throw errors.notFound(this.ref, name);
    return decodeKeyValue(this.def, kv);
  }

  /** The result of a write: the bytes it stored answer in JSON (not a second encoding), where they are the kind's own form. */
  private written(obj: KObject, stored: Buffer, revision: number, created = false): ObjectResult {
    const own = !this.def.storedAs || this.def.storedAs.sameForm;
    return own ? ObjectResult.ofStored(obj, stored, revision, created) : ObjectResult.of(obj, created);
  }

  async create(namespace: string | undefined, obj: KObject, opts: WriteOptions, created = false): Promise<ObjectResult> {
    const { def } = this;
    const ctx = strategyContext(this.deps, opts.user, opts.warnings);
    checkTypeMeta(def, obj);
    const meta = obj.metadata;
    const clientRV = meta.resourceVersion;
    for (const f of ['creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'selfLink', 'resourceVersion'] as const) {
      delete meta[f];
    }
    reconcileNamespace(def, obj, namespace);
    const admission = this.deps.admission;
    const attributes = (): AdmissionAttributes => ({
      operation: 'CREATE',
      definition: def,
      namespace: meta.namespace,
      name: meta.name ?? '',
      object: obj,
      user: opts.user,
      dryRun: opts.dryRun,
      options: opts,
    });
    await admission?.admit(attributes());
    meta.uid = this.deps.random.uuid();
    meta.creationTimestamp = timestamp(this.deps.clock.now());
    if (def.usesGeneration) meta.generation = 1;
    else delete meta.generation;
    keepSubresourceFields(def, obj, undefined);
    def.strategy.prepareForCreate?.(obj, ctx);
    def.strategy.applyDefaults?.(obj, ctx);
    const generate = !meta.name && !!meta.generateName;
    if (generate) meta.name = generateName(meta.generateName!, this.deps.random);
    resetManagedFieldsRequest(obj);
    await validateCreate(def, obj, ctx);
    await def.admit?.('create', obj, undefined, undefined, ctx);
    if (clientRV && !opts.dryRun) throw errors.untyped('resourceVersion should not be set on objects to be created');
    def.strategy.canonicalize?.(obj);
    shapeAsStored(def, obj);
    recordManagedFields(def, obj, undefined, opts, this.deps.clock.now());
    await admission?.validate(attributes());

    for (let attempt = 1; ; attempt++) {
      const key = this.key(meta.namespace, meta.name!);
      try {
        const encoded = encodeWithinLimit(def, obj);
        if (opts.dryRun) {
          const existing = await this.deps.storage.get(key);
          if (existing) throw new KeyExistsError(key);
          return ObjectResult.of(obj, created);
        }
        const rev = await this.deps.storage.create(key, encoded, this.putOptions());
        meta.resourceVersion = String(rev);
        return this.written(obj, encoded, rev, created);
      } catch (e) {
        if (!(e instanceof KeyExistsError)) throw e;
        if (generate && attempt < generateNameAttempts) {
          meta.name = generateName(meta.generateName!, this.deps.random);
          continue;
        }
        if (generate) throw errors.generateNameExhausted(this.ref, meta.name!);
        const existing = await this.deps.storage.get(key);
        const beingDeleted = !!(existing && safeDecode(def, existing)?.metadata.deletionTimestamp);
        throw errors.alreadyExists(this.ref, meta.name!, beingDeleted);
      }
    }
  }

  /** PUT: replace the object (or the subresource's part of it). */
  async update(namespace: string | undefined, name: string, body: KObject, opts: WriteOptions, subresource?: string): Promise<ObjectResult> {
    const { def } = this;
    checkTypeMeta(def, body);
    reconcileNamespace(def, body, namespace);
    if (body.metadata.name !== name) {
      throw errors.badRequest(`the name of the object (${body.metadata.name ?? ''}) does not match the name on the URL (${name})`);
    }
    const requestedRV = body.metadata.resourceVersion;
    return this.guaranteedUpdate(namespace, name, opts, subresource, !!requestedRV, async (old) => {
      const obj = structuredClone(body);
      if (!old) return obj;
      if (!requestedRV) {
        if (!def.allowUnconditionalUpdate) {
          throw errors.invalid(
            { group: def.group, kind: def.plural },
            name,
            [{ type: 'FieldValueInvalid', field: 'metadata.resourceVersion', badValue: new RenderedValue('0x0'), detail: 'must be specified for an update' }],
          );
        }
        obj.metadata.resourceVersion = old.metadata.resourceVersion;
      }
      return obj;
    });
  }

  /**
   * The optimistic-concurrency loop shared by PUT and PATCH: read, produce the
   * new version, validate, write with compare-and-swap, retry on a race unless
   * the client pinned a resourceVersion.
   */
  async guaranteedUpdate(
    namespace: string | undefined,
    name: string,
    opts: WriteOptions,
    subresource: string | undefined,
    pinned: boolean,
    produce: UpdateFn,
    createOnMissing = this.def.allowCreateOnUpdate && !subresource,
  ): Promise<ObjectResult> {
    const { def } = this;
    const key = this.key(namespace, name);
    const ctx = strategyContext(this.deps, opts.user, opts.warnings);
    // A failed compare-and-swap returns the value that won, so a retry needs no second read.
    let known: { value: KeyValue | undefined } | undefined;
    for (let attempt = 0; attempt < maxCasAttempts; attempt++) {
      const current = known ? known.value : await this.deps.storage.get(key);
      known = undefined;
      if (!current) {
        if (!createOnMissing) throw errors.notFound(this.ref, name);
        const obj = await produce(undefined, () => {
          throw new Error('no stored object to copy');
        });
        if (obj.metadata.resourceVersion) throw errors.notFound(this.ref, name);
        try {
          return await this.create(namespace, obj, opts, true);
        } catch (e) {
          if ((e as { status?: { reason?: string } }).status?.reason === 'AlreadyExists' && attempt + 1 < maxCasAttempts) continue;
          throw e;
        }
      }
      const old = decodeKeyValue(def, current);
      const obj = await produce(old, () => decodeKeyValue(def, current));
      checkTypeMeta(def, obj);
      const rv = obj.metadata.resourceVersion;
      if (rv && rv !== old.metadata.resourceVersion) throw errors.staleResourceVersion(this.ref, name);
      if (obj.metadata.uid && obj.metadata.uid !== old.metadata.uid) {
        throw errors.conflict(
          this.ref,
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
      await this.deps.admission?.admit(attributes);
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
      await validateUpdate(def, obj, old, ctx, subresource);
      await def.admit?.('update', obj, old, subresource, ctx);
      def.strategy.canonicalize?.(obj);
      shapeAsStored(def, obj);
      // Compared in stored shape, so an empty map that Go leaves out is no spec change (as Semantic.DeepEqual).
      if (!subresource) bumpGeneration(def, obj, old);
      recordManagedFields(def, obj, old, opts, this.deps.clock.now(), subresource);
      await this.deps.admission?.validate(attributes);
      obj.metadata.resourceVersion = old.metadata.resourceVersion;
      ignoreManagedFieldsTimestamps(obj, old);

      // The last finalizer is gone: the object goes, unless the kind itself still holds it.
      const finalizing = !!obj.metadata.deletionTimestamp && !(obj.metadata.finalizers?.length) && !def.strategy.deletion?.holds(obj);
      // A write that only ends a deletion stores nothing new, so it is never refused for size.
      const encoded = finalizing ? encodeForStorage(def, obj) : encodeWithinLimit(def, obj);
      // Unchanged content (key order aside) is not written: no new resourceVersion, no watch event.
      if (!finalizing && (encoded.equals(current.value) || sameContent(obj, old))) return this.written(old, current.value, current.modRevision);
      if (opts.dryRun) return ObjectResult.of(obj);
      try {
        if (finalizing) {
          await this.deps.storage.delete(key, current.modRevision);
          return ObjectResult.of(obj);
        }
        const rev = await this.deps.storage.update(key, encoded, current.modRevision, this.putOptions());
        obj.metadata.resourceVersion = String(rev);
        return this.written(obj, encoded, rev);
      } catch (e) {
        // Another remover of the last finalizer won the race: the object is gone either way (upstream answers 200).
        if (finalizing && e instanceof KeyNotFoundError) return ObjectResult.of(obj);
        if (e instanceof RevisionMismatchError || e instanceof KeyNotFoundError) {
          if (pinned) throw errors.staleResourceVersion(this.ref, name);
          if (e instanceof RevisionMismatchError && e.current) known = { value: e.current };
          else if (e instanceof KeyNotFoundError) known = { value: undefined };
          continue;
        }
        throw e;
      }
    }
    throw errors.conflict(this.ref, name, 'too many concurrent updates; please try again');
  }
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

/** `[{}]` resets tracking like `[]` (upstream); normalized before validation, which would reject the empty entry. */
function resetManagedFieldsRequest(obj: KObject): void {
  if (isResetManagedFields(obj.metadata.managedFields)) obj.metadata.managedFields = [];
}

function safeDecode(def: ResourceDefinition, kv: KeyValue): KObject | undefined {
  try {
    return decodeKeyValue(def, kv);
  } catch {
    return undefined;
  }
}
