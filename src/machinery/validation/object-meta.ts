/**
 * Common ObjectMeta validation, as upstream's ValidateObjectMeta and
 * ValidateObjectMetaUpdate (apimachinery api/validation/objectmeta.go, 1.32),
 * plus the opt-in finalizer rule of the core-group wrapper.
 */
import { FieldError, FieldPath, RenderedValue, fieldErrors } from '../field-errors';
import type { ManagedFieldsEntry, ObjectMeta, OwnerReference } from '../object';
import { byteLength, isQualifiedName, isValidLabelValue, NameValidator, validateNamespaceName } from './names';

export const FIELD_IMMUTABLE_ERROR_MSG = 'field is immutable';
export const IS_NEGATIVE_ERROR_MSG = 'must be greater than or equal to 0';
export const TOTAL_ANNOTATION_SIZE_LIMIT_B = 256 * 1024;
const FIELD_MANAGER_MAX_LENGTH = 128;
const MAX_SUBRESOURCE_NAME_LENGTH = 256;
const STANDARD_FINALIZERS = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

export interface ObjectMetaOptions {
  namespaced: boolean;
  /** The kind's name rule (ResourceDefinition.validateName). */
  validateName: NameValidator;
  /**
   * Add core validation's check that unprefixed finalizers are standard ones
   * (`kubernetes`, `orphan`, `foregroundDeletion`), at `finalizers[i]`.
   */
  kubeFinalizers?: boolean;
}

export interface ObjectMetaUpdateOptions {
  kubeFinalizers?: boolean;
  /**
   * Upstream also rejects an empty resourceVersion here; the store has always
   * filled it in by then, so it is opt-in for callers that validate earlier.
   */
  requireResourceVersion?: boolean;
}

const toPath = (p: FieldPath | string) => (typeof p === 'string' ? FieldPath.root(p) : p);

export function validateObjectMetaCreate(meta: ObjectMeta, opts: ObjectMetaOptions, path: FieldPath | string = 'metadata'): FieldError[] {
  const p = toPath(path);
  const errs: FieldError[] = [];
  const generateName = meta.generateName ?? '';
  const name = meta.name ?? '';
  const namespace = meta.namespace ?? '';
  if (generateName) {
    for (const msg of opts.validateName(generateName, true)) errs.push(fieldErrors.invalid(p.child('generateName'), generateName, msg));
  }
  if (!name) errs.push(fieldErrors.required(p.child('name'), 'name or generateName is required'));
  else for (const msg of opts.validateName(name, false)) errs.push(fieldErrors.invalid(p.child('name'), name, msg));

  if (opts.namespaced) {
    if (!namespace) errs.push(fieldErrors.required(p.child('namespace')));
    else for (const msg of validateNamespaceName(namespace, false)) errs.push(fieldErrors.invalid(p.child('namespace'), namespace, msg));
  } else if (namespace) {
    errs.push(fieldErrors.forbidden(p.child('namespace'), 'not allowed on this type'));
  }

  const generation = meta.generation ?? 0;
  if (generation < 0) errs.push(fieldErrors.invalid(p.child('generation'), generation, IS_NEGATIVE_ERROR_MSG));
  errs.push(...validateLabels(meta.labels, p.child('labels')));
  errs.push(...validateAnnotations(meta.annotations, p.child('annotations')));
  errs.push(...validateOwnerReferences(meta.ownerReferences, p.child('ownerReferences')));
  errs.push(...validateFinalizers(meta.finalizers, p.child('finalizers')));
  errs.push(...validateManagedFields(meta.managedFields, p.child('managedFields')));
  if (opts.kubeFinalizers) errs.push(...validateKubeFinalizers(meta.finalizers, p.child('finalizers')));
  return errs;
}

export function validateObjectMetaUpdate(
  newMeta: ObjectMeta,
  oldMeta: ObjectMeta,
  path: FieldPath | string = 'metadata',
  opts: ObjectMetaUpdateOptions = {},
): FieldError[] {
  const p = toPath(path);
  const errs: FieldError[] = [];
  if (oldMeta.deletionTimestamp) errs.push(...validateNoNewFinalizers(newMeta.finalizers, oldMeta.finalizers, p.child('finalizers')));
  if (opts.requireResourceVersion && !newMeta.resourceVersion) {
    errs.push(fieldErrors.invalid(p.child('resourceVersion'), newMeta.resourceVersion ?? '', 'must be specified for an update'));
  }
  const newGen = newMeta.generation ?? 0;
  if (newGen < (oldMeta.generation ?? 0)) errs.push(fieldErrors.invalid(p.child('generation'), newGen, 'must not be decremented'));

  for (const f of ['name', 'namespace', 'uid'] as const) {
    const nv = newMeta[f] ?? '';
    if (nv !== (oldMeta[f] ?? '')) errs.push(fieldErrors.invalid(p.child(f), nv, FIELD_IMMUTABLE_ERROR_MSG));
  }
  // metav1.Time compares by instant; an unset creationTimestamp is Go's zero time, an unset deletionTimestamp nil.
  const nc = newMeta.creationTimestamp ?? undefined;
  if (!sameInstant(nc, oldMeta.creationTimestamp ?? undefined)) {
    errs.push(fieldErrors.invalid(p.child('creationTimestamp'), goTime(nc, true), FIELD_IMMUTABLE_ERROR_MSG));
  }
  if (!sameInstant(newMeta.deletionTimestamp, oldMeta.deletionTimestamp)) {
    errs.push(fieldErrors.invalid(p.child('deletionTimestamp'), goTime(newMeta.deletionTimestamp, false), FIELD_IMMUTABLE_ERROR_MSG));
  }
  const ng = newMeta.deletionGracePeriodSeconds ?? null;
  if (ng !== (oldMeta.deletionGracePeriodSeconds ?? null)) {
    errs.push(fieldErrors.invalid(p.child('deletionGracePeriodSeconds'), ng, FIELD_IMMUTABLE_ERROR_MSG));
  }

  errs.push(...validateLabels(newMeta.labels, p.child('labels')));
  errs.push(...validateAnnotations(newMeta.annotations, p.child('annotations')));
  errs.push(...validateOwnerReferences(newMeta.ownerReferences, p.child('ownerReferences')));
  errs.push(...validateManagedFields(newMeta.managedFields, p.child('managedFields')));
  if (opts.kubeFinalizers) errs.push(...validateKubeFinalizers(newMeta.finalizers, p.child('finalizers')));
  return errs;
}

/** Label keys as qualified names (value = key), values as label values (value = value). */
export function validateLabels(labels: Record<string, string> | undefined, path: FieldPath | string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    errs.push(...validateLabelName(k, path));
    for (const msg of isValidLabelValue(v ?? '')) errs.push(fieldErrors.invalid(path, v, msg));
  }
  return errs;
}

export function validateLabelName(name: string, path: FieldPath | string): FieldError[] {
  return isQualifiedName(name).map((msg) => fieldErrors.invalid(path, name, msg));
}

export function validateAnnotations(annotations: Record<string, string> | undefined, path: FieldPath | string): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) {
    // Qualified-name rules, but case-insensitive.
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(fieldErrors.invalid(path, k, msg));
    total += byteLength(k) + byteLength(v ?? '');
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT_B) errs.push(fieldErrors.tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT_B));
  return errs;
}

/** Go's schema.ParseGroupVersion, undefined on error. */
function parseGroupVersion(gv: string): { group: string; version: string } | undefined {
  if (gv === '' || gv === '/') return { group: '', version: '' };
  const parts = gv.split('/');
  if (parts.length === 1) return { group: '', version: gv };
  if (parts.length === 2) return { group: parts[0], version: parts[1] };
  return undefined;
}

function validateOwnerReference(ref: OwnerReference, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const gv = parseGroupVersion(ref.apiVersion ?? '') ?? { group: '', version: '' };
  const kind = ref.kind ?? '';
  if (!gv.version) errs.push(fieldErrors.invalid(path.child('apiVersion'), ref.apiVersion ?? '', 'version must not be empty'));
  if (!kind) errs.push(fieldErrors.invalid(path.child('kind'), kind, 'kind must not be empty'));
  if (!ref.name) errs.push(fieldErrors.invalid(path.child('name'), ref.name ?? '', 'name must not be empty'));
  if (!ref.uid) errs.push(fieldErrors.invalid(path.child('uid'), ref.uid ?? '', 'uid must not be empty'));
  // Core v1 Events may not own anything.
  if (gv.group === '' && gv.version === 'v1' && kind === 'Event') {
    errs.push(fieldErrors.invalid(path, ref, `${gv.group}/${gv.version}, Kind=${kind} is disallowed from being an owner`));
  }
  return errs;
}

export function validateOwnerReferences(refs: OwnerReference[] | undefined, path: FieldPath | string): FieldError[] {
  const p = toPath(path);
  const errs: FieldError[] = [];
  let firstController = '';
  for (const ref of refs ?? []) {
    errs.push(...validateOwnerReference(ref, p));
    if (ref.controller === true) {
      const current = `${ref.kind ?? ''}/${ref.name ?? ''}`;
      if (firstController) {
        errs.push(
          fieldErrors.invalid(
            p,
            refs,
            `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`,
          ),
        );
      } else {
        firstController = current;
      }
    }
  }
  return errs;
}

export function validateFinalizers(finalizers: string[] | undefined, path: FieldPath | string): FieldError[] {
  const errs: FieldError[] = [];
  const list = finalizers ?? [];
  for (const f of list) for (const msg of isQualifiedName(f)) errs.push(fieldErrors.invalid(path, f, msg));
  if (list.includes('orphan') && list.includes('foregroundDeletion')) {
    errs.push(fieldErrors.invalid(path, list, 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errs;
}

function validateKubeFinalizers(finalizers: string[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  (finalizers ?? []).forEach((f, i) => {
    if (!f.includes('/') && !STANDARD_FINALIZERS.has(f)) {
      errs.push(fieldErrors.invalid(path.index(i), f, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  });
  return errs;
}

export function validateNoNewFinalizers(newF: string[] | undefined, oldF: string[] | undefined, path: FieldPath | string): FieldError[] {
  const old = new Set(oldF ?? []);
  const extra = [...new Set(newF ?? [])].filter((f) => !old.has(f)).sort();
  if (extra.length === 0) return [];
  const list = `[]string{${extra.map((f) => JSON.stringify(f)).join(', ')}}`;
  return [fieldErrors.forbidden(path, `no new finalizers can be added if the object is being deleted, found new finalizers ${list}`)];
}

// unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

export function validateFieldManager(manager: string, path: FieldPath | string): FieldError[] {
  const errs: FieldError[] = [];
  const tooLong = byteLength(manager) > FIELD_MANAGER_MAX_LENGTH;
  if (tooLong) errs.push(fieldErrors.tooLong(path, FIELD_MANAGER_MAX_LENGTH));
  let pos = 0; // byte offset, as Go's range over a string
  for (const ch of manager) {
    if (!printable.test(ch)) {
      const code = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      errs.push(fieldErrors.invalid(path, manager, `invalid character U+${code} (at position ${pos})`));
      // Upstream reports every one, each with the whole name: past the limit that is n errors of n bytes, so one.
      if (tooLong) break;
    }
    pos += byteLength(ch);
  }
  return errs;
}

export function validateManagedFields(entries: ManagedFieldsEntry[] | undefined, path: FieldPath | string): FieldError[] {
  const p = toPath(path);
  const errs: FieldError[] = [];
  (entries ?? []).forEach((e, i) => {
    const ip = p.index(i);
    if (e.operation !== 'Apply' && e.operation !== 'Update') {
      errs.push(fieldErrors.invalid(ip.child('operation'), e.operation ?? '', 'must be `Apply` or `Update`'));
    }
    if (e.fieldsType && e.fieldsType !== 'FieldsV1') {
      errs.push(fieldErrors.invalid(ip.child('fieldsType'), e.fieldsType, 'must be `FieldsV1`'));
    }
    errs.push(...validateFieldManager(e.manager ?? '', ip.child('manager')));
    if (byteLength(e.subresource ?? '') > MAX_SUBRESOURCE_NAME_LENGTH) {
      errs.push(fieldErrors.tooLong(ip.child('subresource'), MAX_SUBRESOURCE_NAME_LENGTH));
    }
  });
  return errs;
}

function instant(t: string | undefined): number | undefined {
  if (!t) return undefined;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? undefined : ms;
}

function sameInstant(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return !a && !b;
  const [x, y] = [instant(a), instant(b)];
  return x !== undefined && y !== undefined ? x === y : a === b;
}

/** A metav1.Time as Go prints it (time.Time.String(), UTC); nil pointers print as null. */
function goTime(t: string | undefined, zeroIfUnset: boolean): unknown {
  if (!t) return zeroIfUnset ? new RenderedValue('0001-01-01 00:00:00 +0000 UTC') : null;
  const ms = instant(t);
  if (ms === undefined) return t;
  const iso = new Date(ms).toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  const frac = iso.slice(20, 23).replace(/0+$/, '');
  return new RenderedValue(`${iso.slice(0, 10)} ${iso.slice(11, 19)}${frac ? `.${frac}` : ''} +0000 UTC`);
}
