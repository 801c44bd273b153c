/**
 * The generic store: create, get, update and delete for any ResourceDefinition.
 * It never asks which kind it serves; per-kind behaviour comes from the
 * definition's strategy and flags.
 */
import { errors } from '../machinery/status';
import { RenderedValue } from '../machinery/field-errors';
import { KObject, deepCopy, dropKey } from '../machinery/object';
import { AsyncConverter, ResourceDefinition } from '../machinery/resource-definition';
import { KeyExistsError, KeyValue, PutOptions } from '../ports/storage.port';
import { checkTypeMeta, keepSubresourceFields, reconcileNamespace, resetManagedFieldsRequest, shapeAsStored, validateCreate } from './admission';
import { decodeKeyValue } from './codec';
import { converterOf, convertFromStorage, convertToStorage } from './conversion';
import { encodeWithinLimit } from './object-size';
import { rememberWrite } from './encoded-objects';
import type { RevisionSlot } from './with-revision';
import { ObjectResult } from './results';
import { guaranteedUpdate, type UpdateFn } from './update';
import type { CurrentValue } from './reader';
import { RegistryDeps, resourceRef, strategyContext, timestamp } from './context';
import { objectKey } from './keys';
import { generateName, generateNameAttempts } from './names';
import { WriteOptions } from './request';
import type { AdmissionAttributes } from './admission-chain';
import { recordManagedFields } from './managed-fields';

export type { UpdateFn } from './update';



export class ResourceStore {
  constructor(
    readonly def: ResourceDefinition,
    readonly deps: RegistryDeps,
    /** The watch cache's copy of a value, for an update's first attempt (UpdatingStore.cached). */
    readonly cached?: (key: string) => CurrentValue | undefined,
  ) {}

  get ref() {
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
  written(obj: KObject, stored: Buffer, revision: number, created = false, slot?: RevisionSlot): ObjectResult {
    const own = !this.def.storedAs || (this.def.storedAs.sameForm && !this.def.storedAs.converter);
    return own ? ObjectResult.ofStored(obj, stored, revision, created, slot) : ObjectResult.of(obj, created);
  }

  /** The answer to a write of a kind converted by a call: what was stored, converted back (as upstream decodes it). */
  async convertedBack(converter: AsyncConverter, stored: KObject, revision: number, created = false): Promise<ObjectResult> {
    const out = { ...stored, metadata: { ...stored.metadata, resourceVersion: String(revision) } };
    return ObjectResult.of(await convertFromStorage(converter, out), created);
  }

  async create(namespace: string | undefined, obj: KObject, opts: WriteOptions, created = false): Promise<ObjectResult> {
    const { def } = this;
    const ctx = strategyContext(this.deps, opts.user, opts.warnings);
    checkTypeMeta(def, obj);
    const meta = obj.metadata;
    const clientRV = meta.resourceVersion;
    for (const f of ['creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'selfLink', 'resourceVersion'] as const) dropKey(meta, f);
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
    // Awaited only when a plugin has to wait: most writes pass every plugin synchronously.
    const admitted = admission?.admit(attributes());
    if (admitted) await admitted;
    meta.uid = this.deps.random.uuid();
    meta.creationTimestamp = timestamp(this.deps.clock.now());
    if (def.usesGeneration) meta.generation = 1;
    else dropKey(meta, 'generation');
    keepSubresourceFields(def, obj, undefined);
    def.strategy.prepareForCreate?.(obj, ctx);
    def.strategy.applyDefaults?.(obj, ctx);
    const generate = !meta.name && !!meta.generateName;
    if (generate) meta.name = generateName(meta.generateName!, this.deps.random);
    resetManagedFieldsRequest(obj);
    // Awaited only when the kind's validation or admission has to wait.
    const valid = validateCreate(def, obj, ctx);
    if (valid) await valid;
    const checked = def.admit?.('create', obj, undefined, undefined, ctx);
    if (checked) await checked;
    if (clientRV && !opts.dryRun) throw errors.untyped('resourceVersion should not be set on objects to be created');
    def.strategy.canonicalize?.(obj);
    shapeAsStored(def, obj);
    recordManagedFields(def, obj, undefined, opts, this.deps.clock.now());
    const allowed = admission?.validate(attributes());
    if (allowed) await allowed;

    const converter = converterOf(def);
    for (let attempt = 1; ; attempt++) {
      const key = this.key(meta.namespace, meta.name!);
      try {
        // A kind converted by a call is stored as converted (again on a retry: the generated name changed).
        const stored = converter ? await convertToStorage(converter, obj) : obj;
        const encoded = encodeWithinLimit(def, stored);
        if (opts.dryRun) {
          const existing = await this.deps.storage.get(key);
          if (existing) throw new KeyExistsError(key);
          return ObjectResult.of(obj, created);
        }
        const slot = rememberWrite(def, key, encoded, stored);
        const rev = await this.deps.storage.create(key, encoded, this.putOptions());
        meta.resourceVersion = String(rev);
        if (converter) return this.convertedBack(converter, stored, rev, created);
        return this.written(obj, encoded, rev, created, slot);
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
      const obj = deepCopy(body);
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

  /** PUT and PATCH's read-produce-write loop (update.ts). */
  guaranteedUpdate(
    namespace: string | undefined,
    name: string,
    opts: WriteOptions,
    subresource: string | undefined,
    pinned: boolean,
    produce: UpdateFn,
    createOnMissing = this.def.allowCreateOnUpdate && !subresource,
  ): Promise<ObjectResult> {
    return guaranteedUpdate(this, namespace, name, opts, subresource, pinned, produce, createOnMissing);
  }
}

function safeDecode(def: ResourceDefinition, kv: KeyValue): KObject | undefined {
  try {
    return decodeKeyValue(def, kv);
  } catch {
    return undefined;
  }
}
