/**
 * The parts of create and update that are the same for every kind: type
 * meta, system metadata, namespace reconciliation and validation.
 */
import { errors } from '../machinery/status';
import { FieldError } from '../machinery/field-errors';
import { andThen, type MaybePromise } from '../machinery/maybe-async';
import { KObject, deepEqual, dropKey, hasTypeMetaFirst, isPlainObject } from '../machinery/object';
import { ResourceDefinition, StrategyContext, apiVersionOf } from '../machinery/resource-definition';
import { validateObjectMetaCreate, validateObjectMetaUpdate } from '../machinery/validation/object-meta';
import { shapeAsGo } from '../machinery/schema/go-shape';
import { kindSchema } from '../machinery/schema/schema';
import { isResetManagedFields } from '../machinery/managed-fields';

/** Rejects a body whose apiVersion or kind names another type; fills them when absent. */
export function checkTypeMeta(def: ResourceDefinition, obj: KObject): void {
  const expected = apiVersionOf(def);
  if (obj.apiVersion !== undefined && obj.apiVersion !== '' && obj.apiVersion !== expected) {
    throw errors.badRequest(`the API version in the data (${obj.apiVersion}) does not match the expected API version (${expected})`);
  }
  if (obj.kind !== undefined && obj.kind !== '' && obj.kind !== def.kind) {
    throw errors.badRequest(
      `${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}: the kind in the data (${obj.kind}) does not match the expected kind (${def.kind})`,
    );
  }
  // Upstream serializes kind and apiVersion first; keep that order for humans and diffs. Bodies usually arrive in
  // that order (the HTTP adapter puts them first); reordering in place deletes keys, which leaves the object slow to read from then on.
  if (hasTypeMetaFirst(obj)) {
    obj.kind = def.kind;
    obj.apiVersion = expected;
    return;
  }
  const rest = Object.entries(obj).filter(([k]) => k !== 'kind' && k !== 'apiVersion');
  for (const k of Object.keys(obj)) delete obj[k];
  Object.assign(obj, { kind: def.kind, apiVersion: expected }, Object.fromEntries(rest));
}

export function ensureMetadata(def: ResourceDefinition, obj: unknown): KObject {
  if (!isPlainObject(obj)) {
    throw errors.badRequest(`${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}: the body must be a JSON object`);
  }
  if (obj.metadata === undefined || obj.metadata === null) obj.metadata = {};
  if (!isPlainObject(obj.metadata)) {
    throw errors.badRequest(`${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}: metadata must be an object`);
  }
  return obj as KObject;
}

/** Body namespace vs URL namespace, as upstream's EnsureObjectNamespaceMatchesRequestNamespace. */
export function reconcileNamespace(def: ResourceDefinition, obj: KObject, namespace: string | undefined): void {
  if (!def.namespaced) {
    dropKey(obj.metadata, 'namespace');
    return;
  }
  const bodyNs = obj.metadata.namespace;
  if (bodyNs === undefined || bodyNs === '') obj.metadata.namespace = namespace;
  else if (bodyNs !== namespace) throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
}

/** Throws Invalid with the metadata's errors, then the kind's; a promise only when the kind's validation waits. */
export function validateCreate(def: ResourceDefinition, obj: KObject, ctx: StrategyContext): MaybePromise<void> {
  const metaErrs = validateObjectMetaCreate(obj.metadata, { namespaced: def.namespaced, validateName: def.validateName });
  return andThen(def.strategy.validate(obj, ctx), (kindErrs) => invalidIfAny(def, obj, metaErrs, kindErrs));
}

export function validateUpdate(def: ResourceDefinition, obj: KObject, old: KObject, ctx: StrategyContext, subresource?: string): MaybePromise<void> {
  const metaErrs = [
    ...validateObjectMetaCreate(obj.metadata, { namespaced: def.namespaced, validateName: def.validateName }),
    ...validateObjectMetaUpdate(obj.metadata, old.metadata),
  ];
  const kindErrs = subresource ? def.subresources[subresource].validateUpdate(obj, old, ctx) : def.strategy.validateUpdate(obj, old, ctx);
  return andThen(kindErrs, (errs) => invalidIfAny(def, obj, metaErrs, errs));
}

function invalidIfAny(def: ResourceDefinition, obj: KObject, metaErrs: FieldError[], kindErrs: FieldError[]): void {
  if (metaErrs.length || kindErrs.length) throw errors.invalid(def, obj.metadata.name ?? '', [...metaErrs, ...kindErrs]);
}

/** Fields of a new version that only the server sets, copied from the stored one. */
export function carrySystemFields(obj: KObject, old: KObject): void {
  const m = obj.metadata;
  const o = old.metadata;
  m.generation = o.generation;
  if (!m.uid) m.uid = o.uid;
  m.creationTimestamp = o.creationTimestamp;
  if (o.deletionTimestamp) m.deletionTimestamp = o.deletionTimestamp;
  else dropKey(m, 'deletionTimestamp');
  if (o.deletionGracePeriodSeconds !== undefined) m.deletionGracePeriodSeconds = o.deletionGracePeriodSeconds;
  else dropKey(m, 'deletionGracePeriodSeconds');
  if (m.generation === undefined) dropKey(m, 'generation');
}

/** The user metadata a subresource that opted into upstream's ResetObjectMetaForStatus may not change. */
const statusResetMeta = ['labels', 'annotations', 'finalizers', 'ownerReferences'] as const;

export function resetObjectMetaForStatus(obj: KObject, old: KObject): void {
  for (const key of statusResetMeta) {
    const prev = old.metadata[key];
    if (prev === undefined) delete obj.metadata[key];
    else (obj.metadata as Record<string, unknown>)[key] = structuredClone(prev);
  }
}

/**
 * The object as upstream's Go types store and serve it: each field's JSON tag
 * decides whether an empty value is left out or written (go-shape.ts).
 * managedFields stay as sent: they are the field manager's input (`[]` asks
 * for a reset), and it rewrites them next.
 */
export function shapeAsStored(def: ResourceDefinition, obj: KObject): void {
  const sent = obj.metadata.managedFields;
  shapeAsGo(obj, kindSchema(def));
  if (sent !== undefined) obj.metadata.managedFields = sent;
}

/** Bumps generation when any generation-tracked field changed. */
export function bumpGeneration(def: ResourceDefinition, obj: KObject, old: KObject): void {
  if (!def.usesGeneration) return;
  const ignored = def.generationIgnores;
  const fields = ignored ? [...new Set([...Object.keys(obj), ...Object.keys(old)])].filter((f) => !ignored.includes(f)) : (def.generationFields ?? ['spec']);
  const changed = fields.some((f) => !deepEqual(obj[f], old[f]));
  const base = old.metadata.generation ?? 1;
  obj.metadata.generation = changed ? base + 1 : base;
}

/** Main-resource writes never change the parts a subresource owns (status). */
export function keepSubresourceFields(def: ResourceDefinition, obj: KObject, old: KObject | undefined): void {
  if (!def.subresources.status) return;
  if (old && old.status !== undefined) obj.status = structuredClone(old.status);
  else dropKey(obj, 'status');
}

/** `[{}]` resets tracking like `[]` (upstream); normalized before validation, which would reject the empty entry. */
export function resetManagedFieldsRequest(obj: KObject): void {
  if (isResetManagedFields(obj.metadata.managedFields)) obj.metadata.managedFields = [];
}
