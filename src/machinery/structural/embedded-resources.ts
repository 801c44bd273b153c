/**
 * TypeMeta and ObjectMeta of embedded resources (`x-kubernetes-embedded-resource`),
 * as upstream's schema/objectmeta package handles them: on decode, apiVersion
 * and kind must be strings and metadata is read into ObjectMeta and written
 * back (unknown fields gone); on validation, apiVersion and kind are required
 * and well-formed and metadata passes ObjectMeta validation (a missing name
 * is allowed, and names only need to be path segments).
 */
import { FieldError, fieldErrors, FieldPath } from '../field-errors';
import { isPlainObject, ObjectMeta, ownValue } from '../object';
import { isDNS1035Label, validatePathSegmentName } from '../validation/names';
import { validateObjectMetaCreate } from '../validation/object-meta';
import { goBadValue } from './go-format';
import { additionalPropertiesSchema, itemsSchema, JSONSchemaProps, sortedKeys } from './json-schema-props';
import { decodeObjectMeta } from './objectmeta-decode';
import { childPath, indexPath, keyPath, OptionalPath } from './optional-path';

const asRoot = (s: JSONSchemaProps | undefined, isResourceRoot: boolean): JSONSchemaProps | undefined =>
  isResourceRoot && !s?.['x-kubernetes-embedded-resource'] ? { ...(s ?? {}), 'x-kubernetes-embedded-resource': true } : s;

const invalid = (p: FieldPath, v: unknown, detail: string): FieldError => fieldErrors.invalid(p, goBadValue(v), detail);

/**
 * Upstream's objectmeta.Coerce: normalizes embedded resources' metadata in
 * place; returns the first type error (or, with `dropInvalid`, drops the bad
 * field instead).
 */
export function coerceEmbeddedResources(
  obj: unknown,
  schema: JSONSchemaProps | undefined,
  isResourceRoot = false,
  path?: FieldPath,
  dropInvalid = false,
): FieldError | undefined {
  return coerce(obj, asRoot(schema, isResourceRoot), path, dropInvalid);
}

function coerce(x: unknown, s: JSONSchemaProps | undefined, p: OptionalPath, drop: boolean): FieldError | undefined {
  if (!s) return undefined;
  if (Array.isArray(x)) {
    const items = itemsSchema(s);
    for (let i = 0; i < x.length; i++) {
      const err = coerce(x[i], items, indexPath(p, i), drop);
      if (err) return err;
    }
    return undefined;
  }
  if (!isPlainObject(x)) return undefined;
  for (const k of sortedKeys(x)) {
    if (s['x-kubernetes-embedded-resource']) {
      if ((k === 'apiVersion' || k === 'kind') && typeof x[k] !== 'string') {
        if (!drop) return invalid(childPath(p, k), x[k], 'must be a string');
        delete x[k];
      } else if (k === 'metadata') {
        const meta = decodeObjectMeta(x.metadata);
        if (meta.ok) x.metadata = meta.meta;
        else if (!drop) return invalid(childPath(p, 'metadata'), x.metadata, meta.error);
      }
    }
    const prop = ownValue(s.properties, k);
    const ap = additionalPropertiesSchema(s);
    const err = prop ? coerce(x[k], prop, childPath(p, k), drop) : ap ? coerce(x[k], ap, keyPath(p, k), drop) : undefined;
    if (err) return err;
  }
  return undefined;
}

/** Upstream's objectmeta.Validate: every embedded resource's TypeMeta and ObjectMeta. */
export function validateEmbeddedResources(obj: unknown, schema: JSONSchemaProps | undefined, isResourceRoot = false, path?: FieldPath): FieldError[] {
  return validate(obj, asRoot(schema, isResourceRoot), path);
}

function validate(x: unknown, s: JSONSchemaProps | undefined, p: OptionalPath): FieldError[] {
  if (!s) return [];
  if (Array.isArray(x)) return x.flatMap((v, i) => validate(v, itemsSchema(s), indexPath(p, i)));
  if (!isPlainObject(x)) return [];
  const errs = s['x-kubernetes-embedded-resource'] ? embeddedResource(x, p) : [];
  const ap = additionalPropertiesSchema(s);
  for (const k of sortedKeys(x)) {
    const prop = ownValue(s.properties, k);
    if (prop) errs.push(...validate(x[k], prop, childPath(p, k)));
    else if (ap) errs.push(...validate(x[k], ap, keyPath(p, k)));
  }
  return errs;
}

function embeddedResource(x: Record<string, unknown>, p: OptionalPath): FieldError[] {
  const errs: FieldError[] = [];
  if (x.apiVersion === undefined) errs.push(fieldErrors.required(childPath(p, 'apiVersion')));
  if (x.kind === undefined) errs.push(fieldErrors.required(childPath(p, 'kind')));
  const apiVersion = x.apiVersion;
  if (apiVersion !== undefined) {
    const ap = childPath(p, 'apiVersion');
    if (typeof apiVersion !== 'string') errs.push(invalid(ap, apiVersion, 'must be a string'));
    else if (apiVersion === '') errs.push(fieldErrors.invalid(ap, apiVersion, 'must not be empty'));
    else if (apiVersion !== '/' && apiVersion.split('/').length > 2) errs.push(fieldErrors.invalid(ap, apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
  }
  const kind = x.kind;
  if (kind !== undefined) {
    const kp = childPath(p, 'kind');
    if (typeof kind !== 'string') errs.push(invalid(kp, kind, 'must be a string'));
    else if (kind === '') errs.push(fieldErrors.invalid(kp, kind, 'must not be empty'));
    else {
      const msgs = isDNS1035Label(kind.toLowerCase());
      if (msgs.length) errs.push(fieldErrors.invalid(kp, kind, `may have mixed case, but should otherwise match: ${msgs.join(',')}`));
    }
  }
  if (x.metadata !== undefined) {
    const mp = childPath(p, 'metadata');
    const meta = decodeObjectMeta(x.metadata);
    if (!meta.ok) errs.push(invalid(mp, x.metadata, meta.error));
    else {
      const m: ObjectMeta = { ...meta.meta, name: (meta.meta.name as string | undefined) || 'fakename' };
      errs.push(...validateObjectMetaCreate(m, { namespaced: !!m.namespace, validateName: validatePathSegmentName }, mp));
    }
  }
  return errs;
}
