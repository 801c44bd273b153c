/**
 * Upstream's handling of a custom resource, composed from the pieces here in
 * upstream's order, for the registry's strategy of a CRD-defined kind:
 * decoding (prune, drop non-nullable nulls, coerce embedded metadata, then
 * defaults) and validation (TypeMeta, schema with ratcheting on update, scale
 * paths, embedded resources, list-type uniqueness). ObjectMeta is left to the
 * registry's generic checks; CEL rules run after these unless `celBlocked`.
 */
import { FieldError, fieldErrors, FieldPath } from '../field-errors';
import { isPlainObject } from '../object';
import { applyDefaults } from './defaulting';
import { coerceEmbeddedResources, validateEmbeddedResources } from './embedded-resources';
import { goTypeName, goV, isGoInt } from './go-format';
import type { JSONSchemaProps } from './json-schema-props';
import { validateListSetsAndMaps } from './list-types';
import { pruneNonNullableNulls, pruneUnknownFields } from './pruning';
import { validateValue, validateValueUpdate } from './value-validation';

export interface CustomResourceKind {
  group: string;
  version: string;
  kind: string;
  /** The version's scale subresource, when it has one. */
  scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string | null };
}

/**
 * Decoding a request body or a stored object: unknown fields pruned (their
 * paths returned for warnings or strict decoding), nulls dropped, embedded
 * metadata read as ObjectMeta, defaults applied. Returns the first
 * embedded-metadata error, which upstream turns into a decode error.
 */
export function decodeCustomResource(obj: Record<string, unknown>, schema: JSONSchemaProps | undefined, preserveUnknownFields = false): { unknownFields: string[]; error?: FieldError } {
  let unknownFields: string[] = [];
  if (!preserveUnknownFields) {
    unknownFields = pruneUnknownFields(obj, schema, true);
    pruneNonNullableNulls(obj, schema);
  }
  const error = coerceEmbeddedResources(obj, schema, false);
  applyDefaults(obj, schema);
  return error ? { unknownFields, error } : { unknownFields };
}

function typeMetaErrors(obj: Record<string, unknown>, k: CustomResourceKind): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = `${k.group}/${k.version}`;
  if ((obj.kind ?? '') !== k.kind) errs.push(fieldErrors.invalid('kind', obj.kind ?? '', `must be ${k.kind}`));
  if ((obj.apiVersion ?? '') !== apiVersion) errs.push(fieldErrors.invalid('apiVersion', obj.apiVersion ?? '', `must be ${apiVersion}`));
  return errs;
}

/** unstructured.NestedInt64/NestedString along a `.a.b` path, with their accessor errors. */
function nested(obj: unknown, path: string, want: 'int64' | 'string'): { value: unknown; error?: string } {
  const fields = path.replace(/^\./, '').split('.');
  let cur: unknown = obj;
  for (let i = 0; i < fields.length; i++) {
    if (!isPlainObject(cur)) {
      const at = `.${fields.slice(0, i).join('.')}`;
      return { value: undefined, error: `${at} accessor error: ${goV(cur)} is of the type ${goTypeName(cur)}, expected map[string]interface{}` };
    }
    cur = cur[fields[i]];
    if (cur === undefined) return { value: undefined };
  }
  const ok = want === 'int64' ? typeof cur === 'number' && isGoInt(cur) : typeof cur === 'string';
  if (!ok) return { value: undefined, error: `.${fields.join('.')} accessor error: ${goV(cur)} is of the type ${goTypeName(cur)}, expected ${want}` };
  return { value: cur };
}

function replicasErrors(obj: unknown, path: string): FieldError[] {
  const r = nested(obj, path, 'int64');
  const value = (r.value as number | undefined) ?? 0;
  if (r.error) return [fieldErrors.invalid(path, value, r.error)];
  if (value < 0) return [fieldErrors.invalid(path, value, 'should be a non-negative integer')];
  if (value > 2 ** 31 - 1) return [fieldErrors.invalid(path, value, `should be less than or equal to ${2 ** 31 - 1}`)];
  return [];
}

function scaleStatusErrors(obj: unknown, scale: CustomResourceKind['scale']): FieldError[] {
  if (!scale) return [];
  const errs = replicasErrors(obj, scale.statusReplicasPath);
  if (scale.labelSelectorPath) {
    const r = nested(obj, scale.labelSelectorPath, 'string');
    if (r.error) errs.push(fieldErrors.invalid(scale.labelSelectorPath, '', r.error));
  }
  return errs;
}

export function validateCustomResource(obj: Record<string, unknown>, schema: JSONSchemaProps | undefined, k: CustomResourceKind): FieldError[] {
  const typeMeta = typeMetaErrors(obj, k);
  if (typeMeta.length) return typeMeta;
  return [
    ...(schema ? validateValue(schema, obj) : []),
    ...(k.scale ? replicasErrors(obj, k.scale.specReplicasPath) : []),
    ...scaleStatusErrors(obj, k.scale),
    ...validateEmbeddedResources(obj, schema, false),
    ...validateListSetsAndMaps(schema, obj),
  ];
}

/** Updates: errors in parts unchanged from `old` are dropped (ratcheting), and list-type uniqueness only binds if the old object kept it. */
export function validateCustomResourceUpdate(obj: Record<string, unknown>, old: Record<string, unknown>, schema: JSONSchemaProps | undefined, k: CustomResourceKind, ratcheting = true): FieldError[] {
  const typeMeta = typeMetaErrors(obj, k);
  if (typeMeta.length) return typeMeta;
  const oldLists = validateListSetsAndMaps(schema, old);
  return [
    ...(schema ? validateValueUpdate(schema, obj, old, undefined, ratcheting) : []),
    ...(k.scale ? replicasErrors(obj, k.scale.specReplicasPath) : []),
    ...scaleStatusErrors(obj, k.scale),
    ...validateEmbeddedResources(obj, schema, false),
    ...(oldLists.length === 0 ? validateListSetsAndMaps(schema, obj) : []),
  ];
}

/** Writes to /status: the status against `properties.status`, with ratcheting. */
export function validateCustomResourceStatusUpdate(obj: Record<string, unknown>, old: Record<string, unknown>, schema: JSONSchemaProps | undefined, k: CustomResourceKind, ratcheting = true): FieldError[] {
  const typeMeta = typeMetaErrors(obj, k);
  if (typeMeta.length) return typeMeta;
  const statusSchema = schema?.properties?.status;
  const errs: FieldError[] = [];
  if (obj.status !== undefined && statusSchema) errs.push(...validateValueUpdate(statusSchema, obj.status, old.status, FieldPath.root('status'), ratcheting));
  errs.push(...scaleStatusErrors(obj, k.scale));
  const lists = validateListSetsAndMaps(schema, obj);
  if (lists.length && validateListSetsAndMaps(schema, old).length === 0) errs.push(...lists);
  return errs;
}

/** Upstream skips CEL rules when these already failed (wrong type, missing, too long...), adding this error instead. */
export function celBlocked(errs: FieldError[]): FieldError | undefined {
  const blocking = new Set(['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid']);
  if (!errs.some((e) => blocking.has(e.type))) return undefined;
  return { type: 'FieldValueInvalid', field: '<nil>', badValue: null, detail: 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation' };
}
