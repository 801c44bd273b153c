/**
 * Whether a CRD version's schema is structural, as upstream's ValidateStructural
 * (apiextensions-apiserver schema/validation.go and complete.go): every
 * specified node has a type, value validations under allOf/anyOf/oneOf/not
 * restrict only what the structural part declares and carry no generic fields
 * or extensions, int-or-string and embedded-resource have their shapes, and
 * metadata at the root restricts only name and generateName. Errors come
 * sorted by their text, as upstream sorts them.
 */
import { errorText, FieldError, fieldErrors, FieldPath } from '../field-errors';
import { compareGoStrings } from '../go-string-order';
import { ownValue } from '../object';
import { additionalPropertiesSchema, isSet, itemsSchema, JSONSchemaProps, nonEmpty, sortedKeys } from './json-schema-props';
import { compileGoRegexp } from './go-regexp';

type Level = 'root' | 'item' | 'field';

/** Go's zero value: absent, null, false, "" or an empty list or map. */
const isZero = (v: unknown) =>
  v === undefined || v === null || v === false || v === '' || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0);

/** Whether `s` sets nothing but the given keys. */
const onlySets = (s: JSONSchemaProps, allowed: string[]) => Object.entries(s).every(([k, v]) => allowed.includes(k) || isZero(v));

/** `anyOf: [{type: integer}, {type: string}]` and nothing else in those two. */
function isIntOrStringAnyOf(anyOf: JSONSchemaProps[] | undefined): boolean {
  return (
    anyOf?.length === 2 && anyOf[0].type === 'integer' && anyOf[1].type === 'string' && onlySets(anyOf[0], ['type']) && onlySets(anyOf[1], ['type'])
  );
}

export function validateStructural(s: JSONSchemaProps, path: FieldPath): FieldError[] {
  const errs = [...invariants(s, 'root', path), ...completeness(s, s, path, path)];
  return errs.sort((a, b) => compareGoStrings(errorText(a), errorText(b)));
}

const typeMissing: Record<Level, string> = {
  root: 'must not be empty at the root',
  item: 'must not be empty for specified array items',
  field: 'must not be empty for specified object fields',
};

function invariants(s: JSONSchemaProps | undefined, lvl: Level, p: FieldPath): FieldError[] {
  if (!s) return [];
  const errs: FieldError[] = [];
  const type = s.type ?? '';
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  const items = itemsSchema(s);
  if (type === 'array' && !items) errs.push(fieldErrors.required(p.child('items'), 'must be specified'));
  errs.push(...invariants(items, 'item', p.child('items')));
  for (const k of sortedKeys(s.properties)) errs.push(...invariants(s.properties![k], 'field', p.child('properties').key(k)));
  if (isSet(s.additionalProperties)) {
    if (lvl === 'root') errs.push(fieldErrors.forbidden(p.child('additionalProperties'), 'must not be used at the root'));
    errs.push(...invariants(additionalPropertiesSchema(s), 'field', p.child('additionalProperties')));
  }
  if (intOrString && preserve) {
    errs.push(fieldErrors.invalid(p.child('x-kubernetes-preserve-unknown-fields'), true, 'must be false if x-kubernetes-int-or-string is true'));
  }
  if (intOrString && embedded) {
    errs.push(fieldErrors.invalid(p.child('x-kubernetes-embedded-resource'), true, 'must be false if x-kubernetes-int-or-string is true'));
  }
  const skipAnyOf = isIntOrStringAnyOf(s.anyOf);
  const skipFirstAllOfAnyOf = (s.allOf?.length ?? 0) >= 1 && isIntOrStringAnyOf(s.allOf![0].anyOf);
  errs.push(...valueValidation(s, skipAnyOf, skipFirstAllOfAnyOf, lvl, p));

  const checkMetadata = lvl === 'root' || embedded;
  const embeddedObject = 'must be object if x-kubernetes-embedded-resource is true';
  if (embedded && type !== 'object') {
    errs.push(type ? fieldErrors.invalid(p.child('type'), type, embeddedObject) : fieldErrors.required(p.child('type'), embeddedObject));
  } else if (!type && !intOrString && !preserve) {
    errs.push(fieldErrors.required(p.child('type'), typeMissing[lvl]));
  }
  if (embedded && isSet(s.additionalProperties)) {
    errs.push(fieldErrors.forbidden(p.child('additionalProperties'), 'must not be used if x-kubernetes-embedded-resource is set'));
  }
  if (lvl === 'root' && type && type !== 'object') errs.push(fieldErrors.invalid(p.child('type'), type, 'must be object at the root'));
  for (const meta of ['kind', 'apiVersion']) {
    const prop = s.properties?.[meta];
    if (prop && checkMetadata && prop.type !== 'string') {
      errs.push(fieldErrors.invalid(p.child('properties').key(meta).child('type'), prop.type ?? '', 'must be string'));
    }
  }
  const metadata = s.properties?.metadata;
  if (metadata) errs.push(...metadataInvariants(metadata, checkMetadata, lvl, p.child('properties').key('metadata')));
  if (embedded && !preserve && !nonEmpty(s.properties)) {
    errs.push(
      fieldErrors.required(p.child('properties'), 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'),
    );
  }
  return errs;
}

/** metadata must be an object; at the root it may restrict only name and generateName. */
function metadataInvariants(s: JSONSchemaProps, checkMetadata: boolean, lvl: Level, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (checkMetadata && s.type !== 'object') errs.push(fieldErrors.invalid(p.child('type'), s.type ?? '', 'must be object'));
  if (lvl === 'root') {
    const props = Object.keys(s.properties ?? {});
    const onlyNames = props.length > 0 && props.every((k) => k === 'name' || k === 'generateName');
    const allowed = ['type', 'default', ...(onlyNames ? ['properties'] : [])];
    // additionalProperties: false is still a value (a non-nil StructuralOrBool upstream).
    if (!onlySets(s, allowed) || isSet(s.additionalProperties)) {
      errs.push(fieldErrors.forbidden(p, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
    }
  }
  return errs;
}

/** The junctors under a structural node, and its pattern. */
function valueValidation(s: JSONSchemaProps, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, lvl: Level, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!skipAnyOf) (s.anyOf ?? []).forEach((x, i) => errs.push(...nested(x, false, lvl, p.child('anyOf').index(i))));
  (s.allOf ?? []).forEach((x, i) => errs.push(...nested(x, skipFirstAllOfAnyOf && i === 0, lvl, p.child('allOf').index(i))));
  (s.oneOf ?? []).forEach((x, i) => errs.push(...nested(x, false, lvl, p.child('oneOf').index(i))));
  if (s.not) errs.push(...nested(s.not, false, lvl, p.child('not')));
  if (s.pattern) {
    const re = compileGoRegexp(s.pattern);
    if (!re.ok) errs.push(fieldErrors.invalid(p.child('pattern'), s.pattern, `must be a valid regular expression, but isn't: ${re.error}`));
  }
  return errs;
}

const forbiddenNested: Array<[keyof JSONSchemaProps, string]> = [
  ['default', 'must be undefined to be structural'],
  ['title', 'must be empty to be structural'],
  ['description', 'must be empty to be structural'],
  ['nullable', 'must be false to be structural'],
  ['x-kubernetes-preserve-unknown-fields', 'must be false to be structural'],
  ['x-kubernetes-embedded-resource', 'must be false to be structural'],
  ['x-kubernetes-int-or-string', 'must be false to be structural'],
  ['x-kubernetes-list-map-keys', 'must be empty to be structural'],
  ['x-kubernetes-list-type', 'must be undefined to be structural'],
  ['x-kubernetes-map-type', 'must be undefined to be structural'],
  ['x-kubernetes-validations', 'must be empty to be structural'],
];

/** A schema under a junctor: value validations only. */
function nested(v: JSONSchemaProps | undefined, skipAnyOf: boolean, lvl: Level, p: FieldPath): FieldError[] {
  if (!v) return [];
  const errs = valueValidation(v, skipAnyOf, false, lvl, p);
  errs.push(...nested(itemsSchema(v), false, lvl, p.child('items')));
  for (const k of sortedKeys(v.properties)) errs.push(...nested(v.properties![k], false, 'field', p.child('properties').key(k)));
  if (v.type) errs.push(fieldErrors.forbidden(p.child('type'), 'must be empty to be structural'));
  // additionalProperties: false is no schema and not "set" for a junctor (upstream keeps only true or a schema).
  if (v.additionalProperties === true || additionalPropertiesSchema(v)) {
    errs.push(fieldErrors.forbidden(p.child('additionalProperties'), 'must be undefined to be structural'));
  }
  for (const [key, detail] of forbiddenNested) {
    const value = v[key];
    const set = key === 'default' ? isSet(value) : key === 'x-kubernetes-list-type' || key === 'x-kubernetes-map-type' ? isSet(value) : !isZero(value);
    if (set) errs.push(fieldErrors.forbidden(p.child(key), detail));
  }
  if (v.properties?.metadata) errs.push(fieldErrors.forbidden(p.child('properties').key('metadata'), 'must not be specified in a nested context'));
  return errs;
}

/** Every value validation applies to something the structural part specifies. */
function completeness(v: JSONSchemaProps, s: JSONSchemaProps | undefined, sPath: FieldPath, vPath: FieldPath): FieldError[] {
  if (!s) return [fieldErrors.required(sPath, `because it is defined in ${vPath}`)];
  const errs: FieldError[] = [];
  if (v.not) errs.push(...nestedCompleteness(v.not, s, sPath, vPath.child('not')));
  (v.allOf ?? []).forEach((x, i) => errs.push(...nestedCompleteness(x, s, sPath, vPath.child('allOf').index(i))));
  (v.anyOf ?? []).forEach((x, i) => errs.push(...nestedCompleteness(x, s, sPath, vPath.child('anyOf').index(i))));
  (v.oneOf ?? []).forEach((x, i) => errs.push(...nestedCompleteness(x, s, sPath, vPath.child('oneOf').index(i))));
  return errs;
}

function nestedCompleteness(v: JSONSchemaProps, s: JSONSchemaProps | undefined, sPath: FieldPath, vPath: FieldPath): FieldError[] {
  if (!s) return [fieldErrors.required(sPath, `because it is defined in ${vPath}`)];
  const errs = completeness(v, s, sPath, vPath);
  const vItems = itemsSchema(v);
  if (vItems) errs.push(...nestedCompleteness(vItems, itemsSchema(s), sPath.child('items'), vPath.child('items')));
  for (const k of sortedKeys(v.properties)) {
    const sFld = ownValue(s.properties, k);
    const sp = sPath.child('properties').key(k);
    const vp = vPath.child('properties').key(k);
    if (!sFld) errs.push(fieldErrors.required(sp, `because it is defined in ${vp}`));
    else errs.push(...nestedCompleteness(v.properties![k], sFld, sp, vp));
  }
  return errs;
}
