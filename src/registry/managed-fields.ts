/**
 * managedFields on every create, update and non-apply patch: the writing
 * manager gets (or extends) an `Update` entry owning the fields this write
 * changed, and every other manager loses them. A write that changes nothing
 * leaves the entries untouched, so it stays a no-op for the store.
 */
import {
  capUpdateManagers,
  createdFieldsV1,
  decodeManagedFields,
  emptyManaged,
  encodeManagedFields,
  FieldSet,
  isResetManagedFields,
  Managed,
  managerIdentifier,
  stripUntracked,
  trackedView,
  updateOwnership,
  UpdaterContext,
} from '../machinery/managed-fields';
import { deepEqual, KObject, ManagedFieldsEntry } from '../machinery/object';
import { apiVersionOf, ResourceDefinition } from '../machinery/resource-definition';
import { kindSchema } from '../machinery/schema/schema';
import { timestamp } from './context';
import type { WriteOptions } from './request';

export function recordManagedFields(def: ResourceDefinition, obj: KObject, old: KObject | undefined, opts: WriteOptions, now: Date, subresource?: string): void {
  if (opts.appliedManagedFields) return;
  const managed = baseManaged(obj.metadata.managedFields, old?.metadata.managedFields, !!subresource);
  const version = opts.apiVersion ?? apiVersionOf(def);
  const ctx = updaterContext(def, subresource);
  if (!old && managed.sets.size === 0 && ctx.resetTopLevel) {
    // A create that nobody owned anything of: the writer owns every field (the general path below finds the same).
    const fields = createdFieldsV1(obj, ctx.schema, ctx.resetTopLevel);
    if (fields) {
      const entry = { manager: opts.fieldManager || 'unknown', operation: 'Update' as const, apiVersion: version, time: timestamp(now), fieldsType: 'FieldsV1', fieldsV1: fields };
      return setManagedFields(obj, Object.keys(fields).length ? [entry] : undefined);
    }
  }
  const live = old ?? { metadata: {} };
  // With no entries there is nobody to take fields from: only what the writer may own needs comparing.
  const changed =
    managed.sets.size === 0
      ? stripUntracked(updateOwnership(trackedView(live), trackedView(obj), managed.sets, ctx))
      : stripUntracked(updateOwnership(withoutManagedFields(live), withoutManagedFields(obj), managed.sets, ctx));
  if (!changed.empty()) {
    const id = managerIdentifier({ manager: opts.fieldManager || 'unknown', operation: 'Update', apiVersion: version, subresource });
    const prev = managed.sets.get(id);
    managed.sets.set(id, { set: prev ? changed.union(prev.set) : changed, apiVersion: version, applied: false });
    managed.times.set(id, timestamp(now));
  }
  capUpdateManagers(managed);
  setManagedFields(obj, encodeManagedFields(managed));
}

/**
 * Which tracking a write starts from: the client's entries replace the
 * server's when valid and non-empty (`[]` or `[{}]` reset them), except on
 * subresources, which always keep the stored ones.
 */
function baseManaged(sent: ManagedFieldsEntry[] | undefined, stored: ManagedFieldsEntry[] | undefined, subresource: boolean): Managed {
  if (!subresource) {
    if (isResetManagedFields(sent)) return emptyManaged();
    const fromRequest = tryDecode(sent);
    if (fromRequest && fromRequest.sets.size > 0) return fromRequest;
  }
  return tryDecode(stored) ?? emptyManaged();
}

export function tryDecode(entries: ManagedFieldsEntry[] | undefined): Managed | undefined {
  try {
    return decodeManagedFields(entries);
  } catch {
    return undefined;
  }
}

/**
 * Fields a write through this endpoint never owns (upstream's reset fields):
 * the status on the main resource of a kind with a status subresource; on a
 * subresource everything but the status and, unless the subresource resets
 * it (resetObjectMeta), the metadata.
 */
export function updaterContext(def: ResourceDefinition, subresource?: string): UpdaterContext {
  let byDefinition = contexts.get(def);
  if (!byDefinition) contexts.set(def, (byDefinition = new Map()));
  let ctx = byDefinition.get(subresource ?? '');
  if (!ctx) byDefinition.set(subresource ?? '', (ctx = buildUpdaterContext(def, subresource)));
  return ctx;
}

/** One context per kind and subresource: they depend on the definition alone. */
const contexts = new WeakMap<ResourceDefinition, Map<string, UpdaterContext>>();

function buildUpdaterContext(def: ResourceDefinition, subresource?: string): UpdaterContext {
  const schema = kindSchema(def);
  if (subresource) {
    const owned = def.subresources[subresource].resetObjectMeta ? ['status'] : ['status', 'metadata'];
    return { schema, ignore: (s) => s.filter((p) => 'field' in p[0] && owned.includes(p[0].field)) };
  }
  const resetTopLevel = def.subresources.status ? ['status'] : [];
  if (resetTopLevel.length === 0) return { schema, resetTopLevel };
  const reset = FieldSet.of(...resetTopLevel.map((f) => [{ field: f }]));
  return { schema, ignore: (s) => s.recursiveDifference(reset), resetTopLevel };
}

/** The object without metadata.managedFields: itself when it has none (callers only read the result). */
export function withoutManagedFields(obj: KObject): KObject {
  if (obj.metadata && !('managedFields' in obj.metadata)) return obj;
  const { managedFields: _mf, ...metadata } = obj.metadata ?? {};
  return { ...obj, metadata };
}

export function setManagedFields(obj: KObject, entries: ManagedFieldsEntry[] | undefined): void {
  if (entries) obj.metadata.managedFields = entries;
  else delete obj.metadata.managedFields;
}

/**
 * When a write changed nothing but managedFields timestamps, keeps the
 * stored timestamps so the write stays a no-op (upstream's
 * IgnoreManagedFieldsTimestampsTransformer).
 */
export function ignoreManagedFieldsTimestamps(obj: KObject, old: KObject): void {
  const now = obj.metadata.managedFields;
  const before = old.metadata.managedFields;
  if (!now || !before || now.length !== before.length) return;
  const sameButTime = now.every((e, i) => deepEqual({ ...e, time: undefined }, { ...before[i], time: undefined }));
  if (!sameButTime || !deepEqual(withoutManagedFields(obj), withoutManagedFields(old))) return;
  obj.metadata.managedFields = before.map((e) => structuredClone(e));
}
