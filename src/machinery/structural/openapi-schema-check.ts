/**
 * Upstream's ValidateCustomResourceDefinitionOpenAPISchema (apiextensions
 * validation.go): keywords CRDs refuse ($ref, id, definitions, uniqueItems,
 * patternProperties...), additionalProperties beside properties, defaults
 * where pruning could not tell them apart, the shapes of
 * x-kubernetes-list-type / -list-map-keys / -map-type, and the static part of
 * x-kubernetes-validations (compiling them is cel-schema-rules.ts's part).
 */
import { FieldError, fieldErrors, FieldPath, RenderedValue } from '../field-errors';
import { goJson } from '../managed-fields/go-values';
import { ownValue } from '../object';
import { isSet, itemsSchema, JSONSchemaProps, nonEmpty, sortedKeys } from './json-schema-props';
import { newStructuralError } from './structural-unsupported';
import { validFieldPath } from './valid-field-path';

export interface SchemaRuleOptions {
  allowDefaults: boolean;
  /** Refuse types outside OpenAPI v3's six (kept off on updates of CRDs that already had such types). */
  requireValidPropertyType: boolean;
  /** Items of a list-type=set must be atomic (kept off for CRDs stored before the rule). */
  requireAtomicSetType: boolean;
  /** Map-list keys are required or defaulted and not nullable; set/map items not nullable. */
  requireMapListKeysMapSetValidation: boolean;
}

interface Context {
  allowDefaults: boolean;
  disallowDefaultsReason: string;
  insideResourceMeta: boolean;
  /** Collects the nodes whose subtree has errors (upstream compiles no CEL rules there). */
  dirty?: Set<JSONSchemaProps>;
}

const openapiV3Types = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const metaFields = new Set(['metadata', 'kind', 'apiVersion']);
const supportedReasons = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];
const newlines = /[\n\r]+/;
/** Go's []string and *string bad values print as JSON. */
const json = (v: unknown) => new RenderedValue(goJson(v));

/** `dirty`, when given, receives every node whose subtree (junctors included) has an error. */
export function validateOpenAPISchema(schema: JSONSchemaProps, path: FieldPath, opts: SchemaRuleOptions, dirty?: Set<JSONSchemaProps>): FieldError[] {
  return walk(schema, path, { allowDefaults: opts.allowDefaults, disallowDefaultsReason: '', insideResourceMeta: false, dirty }, true, opts);
}

const forbidDefaults = (c: Context, reason: string): Context => ({ ...c, allowDefaults: false, disallowDefaultsReason: reason });

/** specStandardValidatorV3.validate: the keywords OpenAPI v3 in CRDs does not support. */
function keywords(s: JSONSchemaProps, p: FieldPath, c: Context, opts: SchemaRuleOptions): FieldError[] {
  const errs: FieldError[] = [];
  if (opts.requireValidPropertyType && s.type && !openapiV3Types.includes(s.type)) errs.push(fieldErrors.notSupported(p.child('type'), s.type, openapiV3Types));
  if (isSet(s.default) && !c.allowDefaults) {
    errs.push(fieldErrors.forbidden(p.child('default'), `must not be set${c.disallowDefaultsReason ? ` ${c.disallowDefaultsReason}` : ''}`));
  }
  if (s.id) errs.push(fieldErrors.forbidden(p.child('id'), 'id is not supported'));
  if (isSet(s.additionalItems)) errs.push(fieldErrors.forbidden(p.child('additionalItems'), 'additionalItems is not supported'));
  if (nonEmpty(s.patternProperties)) errs.push(fieldErrors.forbidden(p.child('patternProperties'), 'patternProperties is not supported'));
  if (nonEmpty(s.definitions)) errs.push(fieldErrors.forbidden(p.child('definitions'), 'definitions is not supported'));
  if (isSet(s.dependencies)) errs.push(fieldErrors.forbidden(p.child('dependencies'), 'dependencies is not supported'));
  if (isSet(s.$ref)) errs.push(fieldErrors.forbidden(p.child('$ref'), '$ref is not supported'));
  if (s.type === 'null') errs.push(fieldErrors.forbidden(p.child('type'), 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(s.items) && s.items.length > 0) errs.push(fieldErrors.forbidden(p.child('items'), 'items must be a schema object and not an array'));
  if (c.insideResourceMeta && s['x-kubernetes-embedded-resource']) {
    errs.push(fieldErrors.forbidden(p.child('x-kubernetes-embedded-resource'), 'must not be used inside of resource meta'));
  }
  return errs;
}

function walk(s: JSONSchemaProps | undefined, p: FieldPath, c: Context, isRoot: boolean, opts: SchemaRuleOptions): FieldError[] {
  if (!s) return [];
  const errs = keywords(s, p, c, opts);
  if (s.uniqueItems) errs.push(fieldErrors.forbidden(p.child('uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  if (isSet(s.additionalProperties)) {
    const ap = s.additionalProperties!;
    if (nonEmpty(s.properties) && (ap === false || typeof ap === 'object')) {
      errs.push(fieldErrors.forbidden(p.child('additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
    }
    // Defaults inside maps of resource metadata cannot be pruned without a value to prune against.
    const sub = c.insideResourceMeta ? forbidDefaults(c, 'inside additionalProperties applying to object metadata') : c;
    if (typeof ap === 'object') errs.push(...walk(ap, p.child('additionalProperties'), sub, false, opts));
  }
  for (const name of sortedKeys(s.properties)) {
    let sub = c;
    if ((isRoot || s['x-kubernetes-embedded-resource']) && metaFields.has(name)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = forbidDefaults(sub, `in top-level ${name}`);
    }
    errs.push(...walk(s.properties![name], p.child('properties').key(name), sub, false, opts));
  }
  errs.push(...walk(s.not, p.child('not'), c, false, opts));
  (s.allOf ?? []).forEach((x, i) => errs.push(...walk(x, p.child('allOf').index(i), c, false, opts)));
  (s.oneOf ?? []).forEach((x, i) => errs.push(...walk(x, p.child('oneOf').index(i), c, false, opts)));
  (s.anyOf ?? []).forEach((x, i) => errs.push(...walk(x, p.child('anyOf').index(i), c, false, opts)));
  for (const k of sortedKeys(s.definitions)) errs.push(...walk(s.definitions![k], p.child('definitions').key(k), c, false, opts));
  if (Array.isArray(s.items)) s.items.forEach((x, i) => errs.push(...walk(x, p.child('items').index(i), c, false, opts)));
  else errs.push(...walk(s.items, p.child('items'), c, false, opts));
  for (const k of sortedKeys(s.dependencies)) {
    const dep = s.dependencies![k];
    if (!Array.isArray(dep)) errs.push(...walk(dep, p.child('dependencies').key(k), c, false, opts));
  }
  if (s['x-kubernetes-preserve-unknown-fields'] === false) {
    errs.push(fieldErrors.invalid(p.child('x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));
  }
  errs.push(...mapAndListTypes(s, p, opts), ...validationRules(s, p));
  if (errs.length) c.dirty?.add(s);
  return errs;
}

function mustBe(p: FieldPath, type: string | undefined, detail: string): FieldError {
  return type ? fieldErrors.invalid(p.child('type'), type, detail) : fieldErrors.required(p.child('type'), detail);
}

function mapAndListTypes(s: JSONSchemaProps, p: FieldPath, opts: SchemaRuleOptions): FieldError[] {
  const errs: FieldError[] = [];
  const mapType = s['x-kubernetes-map-type'];
  const listType = s['x-kubernetes-list-type'];
  const keys = s['x-kubernetes-list-map-keys'] ?? [];
  const items = itemsSchema(s);
  if (isSet(mapType) && s.type !== 'object') errs.push(mustBe(p, s.type, 'must be object if x-kubernetes-map-type is specified'));
  if (isSet(mapType) && mapType !== 'atomic' && mapType !== 'granular') {
    errs.push(fieldErrors.notSupported(p.child('x-kubernetes-map-type'), mapType, ['atomic', 'granular']));
  }
  if (isSet(listType) && s.type !== 'array') {
    errs.push(mustBe(p, s.type, 'must be array if x-kubernetes-list-type is specified'));
  } else if (opts.requireAtomicSetType && listType === 'set' && items) {
    const atomicItem = 'must be atomic as item of a list with x-kubernetes-list-type=set';
    const itemListType = items['x-kubernetes-list-type'];
    if (items.type === 'array' && isSet(itemListType) && itemListType !== 'atomic') {
      errs.push(fieldErrors.invalid(p.child('items').child('x-kubernetes-list-type'), json(itemListType), atomicItem));
    } else if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
      // Upstream reports the item's list type here, usually unset.
      errs.push(fieldErrors.invalid(p.child('items').child('x-kubernetes-map-type'), json(itemListType ?? null), atomicItem));
    }
  }
  if (isSet(listType) && !['atomic', 'set', 'map'].includes(listType!)) {
    errs.push(fieldErrors.notSupported(p.child('x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']));
  }
  if (keys.length > 0) {
    const detail = 'must be map if x-kubernetes-list-map-keys is non-empty';
    if (!isSet(listType)) errs.push(fieldErrors.required(p.child('x-kubernetes-list-type'), detail));
    else if (listType !== 'map') errs.push(fieldErrors.invalid(p.child('x-kubernetes-list-type'), listType, detail));
  }
  if (listType === 'map') errs.push(...mapListShape(s, p, keys, items));
  if (opts.requireMapListKeysMapSetValidation) errs.push(...mapListKeysMapSet(s, p));
  return errs;
}

function mapListShape(s: JSONSchemaProps, p: FieldPath, keys: string[], items: JSONSchemaProps | undefined): FieldError[] {
  const errs: FieldError[] = [];
  if (keys.length === 0) errs.push(fieldErrors.required(p.child('x-kubernetes-list-map-keys'), 'must not be empty if x-kubernetes-list-type is map'));
  if (!isSet(s.items)) errs.push(fieldErrors.required(p.child('items'), 'must have a schema if x-kubernetes-list-type is map'));
  if (isSet(s.items) && !items) errs.push(fieldErrors.invalid(p.child('items'), json(s.items), 'must only have a single schema if x-kubernetes-list-type is map'));
  if (items && items.type !== 'object') {
    errs.push(fieldErrors.invalid(p.child('items').child('type'), items.type ?? '', "must be object if parent array's x-kubernetes-list-type is map"));
  }
  if (items && items.type === 'object') {
    const seen = new Set<string>();
    for (const k of keys) {
      const prop = ownValue(items.properties, k);
      if (!prop) {
        errs.push(fieldErrors.invalid(p.child('x-kubernetes-list-map-keys'), json(keys), 'entries must all be names of item properties'));
      } else if (prop.type === 'array' || prop.type === 'object') {
        // Upstream shows the item's type ("object") as the bad value.
        const detail = "must be a scalar type if parent array's x-kubernetes-list-type is map";
        errs.push(fieldErrors.invalid(p.child('items').child('properties').key(k).child('type'), items.type, detail));
      }
      if (seen.has(k)) errs.push(fieldErrors.invalid(p.child('x-kubernetes-list-map-keys'), json(keys), 'must not contain duplicate entries'));
      seen.add(k);
    }
  }
  return errs;
}

/** Map-list keys required or defaulted and not nullable, set and map items not nullable. */
export function mapListKeysMapSet(s: JSONSchemaProps, p: FieldPath): FieldError[] {
  const items = itemsSchema(s);
  const listType = s['x-kubernetes-list-type'];
  if (!items || (listType !== 'set' && listType !== 'map')) return [];
  const errs: FieldError[] = [];
  if (items.nullable) errs.push(fieldErrors.forbidden(p.child('items').child('nullable'), `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  if (listType === 'map') {
    const required = new Set(items.required ?? []);
    for (const k of s['x-kubernetes-list-map-keys'] ?? []) {
      const prop = ownValue(items.properties, k);
      if (!prop) continue;
      const kp = p.child('items').child('properties').key(k);
      if (!required.has(k) && !isSet(prop.default)) {
        errs.push(fieldErrors.required(kp.child('default'), 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
      }
      if (prop.nullable) errs.push(fieldErrors.forbidden(kp.child('nullable'), 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
    }
  }
  return errs;
}

/** The CEL rules' static checks; compiling them is cel-schema-rules.ts's part. */
function validationRules(s: JSONSchemaProps, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  (s['x-kubernetes-validations'] ?? []).forEach((rule, i) => {
    const rp = p.child('x-kubernetes-validations').index(i);
    const trimmedRule = (rule.rule ?? '').trim();
    const message = rule.message ?? '';
    const trimmedMsg = message.trim();
    const messageExpression = rule.messageExpression ?? '';
    if (!trimmedRule) errs.push(fieldErrors.required(rp.child('rule'), 'rule is not specified'));
    else if (message.length > 0 && !trimmedMsg) errs.push(fieldErrors.invalid(rp.child('message'), message, 'message must be non-empty if specified'));
    else if (newlines.test(trimmedMsg)) errs.push(fieldErrors.invalid(rp.child('message'), message, 'message must not contain line breaks'));
    else if (newlines.test(trimmedRule) && !trimmedMsg) {
      errs.push(fieldErrors.required(rp.child('message'), 'message must be specified if rule contains line breaks'));
    }
    if (messageExpression.length > 0 && !messageExpression.trim()) {
      errs.push(fieldErrors.required(rp.child('messageExpression'), 'messageExpression must be non-empty if specified'));
    }
    if (isSet(rule.reason) && !supportedReasons.includes(rule.reason!)) errs.push(fieldErrors.notSupported(rp.child('reason'), rule.reason, supportedReasons));
    const fieldPath = rule.fieldPath ?? '';
    if (fieldPath.length > 0 && !fieldPath.trim()) errs.push(fieldErrors.invalid(rp.child('fieldPath'), fieldPath, 'fieldPath must be non-empty if specified'));
    if (newlines.test(fieldPath)) errs.push(fieldErrors.invalid(rp.child('fieldPath'), fieldPath, 'fieldPath must not contain line breaks'));
    // A schema that does not convert has its own errors; upstream counts the path valid then.
    if (fieldPath.length > 0 && !newStructuralError(s) && !validFieldPath(fieldPath, s).ok) {
      errs.push(fieldErrors.invalid(rp.child('fieldPath'), fieldPath, 'fieldPath must be a valid path'));
    }
  });
  return errs;
}
