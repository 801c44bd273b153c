/**
 * kube-openapi's SchemaValidator, walked the way upstream walks it: per node
 * the type, allOf/anyOf/oneOf/not, string, format, number, list, enum and
 * object checks run in that order, each counting towards the match count
 * that picks which failing anyOf/oneOf branch gets reported. Child values
 * are validated through a factory so ratcheting can correlate them with the
 * old object (upstream's NewValidatorForField/Index options).
 */
import { deepEqual, isPlainObject } from '../object';
import { goJsonType, goV, isGoInt } from './go-format';
import { compileGoRegexp } from './go-regexp';
import { knownFormat, validatesFormat } from './value-formats';
import { isFloat64AJSONInteger, validateNumber } from './value-numbers';
import { junctorErrors, OpenAPIError, openAPIErrors, Result } from './value-result';
import type { VNode } from './value-schema';

export interface ChildValidators {
  field(key: string, node: VNode, path: string, value: unknown): Result;
  index(i: number, node: VNode, path: string, value: unknown): Result;
}

export const plainChildren: ChildValidators = {
  field: (_key, node, path, value) => validateNode(node, path, value, plainChildren),
  index: (_i, node, path, value) => validateNode(node, path, value, plainChildren),
};

const isNull = (v: unknown) => v === null || v === undefined;

export function validateNode(n: VNode, path: string, data: unknown, children: ChildValidators = plainChildren): Result {
  const result = new Result();
  if (isNull(data)) return result.merge(typeCheck(n, path, null), enumCheck(n, path, null));
  const run = (r: Result | undefined) => result.merge(r).inc();
  if (n.types.length > 0 || n.format) run(typeCheck(n, path, data));
  run(junctors(n, path, data));
  if (typeof data === 'string') {
    run(stringCheck(n, path, data));
    if (n.format && knownFormat(n.format)) run(validatesFormat(n.format, data) ? undefined : Result.of(openAPIErrors.invalidType(path, n.format, data)));
  }
  if (typeof data === 'number') run(validateNumber(n, path, data));
  if (Array.isArray(data)) run(listCheck(n, path, data, children));
  run(enumCheck(n, path, data));
  if (isPlainObject(data)) run(objectCheck(n, path, data, children));
  return result.inc();
}

function typeCheck(n: VNode, path: string, data: unknown): Result {
  const ok = new Result().inc();
  if (isNull(data)) {
    const refused = n.types.length > 0 && !n.types.includes('null') && !n.nullable;
    return refused ? Result.of(openAPIErrors.invalidType(path, n.types.join(','), 'null')) : ok;
  }
  const { type, format } = goJsonType(data);
  const stringOrList = typeof data === 'string' || Array.isArray(data);
  const floatInt = type === 'number' && isFloat64AJSONInteger(data as number) && n.types.includes('integer');
  const intFloat = type === 'integer' && n.types.includes('number');
  // A non-string value must also match the declared format's type (upstream's quirk names the format here).
  if (!stringOrList && n.format && !(n.types.includes(type) || format === n.format || floatInt || intFloat)) {
    return Result.of(openAPIErrors.invalidType(path, n.format, format));
  }
  if (!(n.types.includes('number') || n.types.includes('integer')) && n.format && stringOrList) return ok;
  if (!(n.types.includes(type) || floatInt || intFloat)) return Result.of(openAPIErrors.invalidType(path, n.types.join(','), type));
  return ok;
}

/** allOf/anyOf/oneOf/not: each branch is a whole validator at the same path (not ratcheted, as upstream). */
function junctors(n: VNode, path: string, data: unknown): Result {
  const main = new Result();
  if (n.anyOf.length > 0) {
    let best: Result | undefined;
    let firstSuccess: Result | undefined;
    for (const sub of n.anyOf) {
      const r = validateNode(sub, path, data);
      if (r.valid) {
        best = undefined;
        firstSuccess = r;
        break;
      }
      if (!best || r.matchCount > best.matchCount) best = r;
    }
    if (!firstSuccess) main.add(junctorErrors.anyOf(path));
    main.merge(best ?? firstSuccess);
  }
  if (n.oneOf.length > 0) {
    let best: Result | undefined;
    let firstSuccess: Result | undefined;
    let validated = 0;
    for (const sub of n.oneOf) {
      const r = validateNode(sub, path, data);
      if (r.valid) {
        validated++;
        best = undefined;
        firstSuccess ??= r;
        continue;
      }
      if (validated === 0 && (!best || r.matchCount > best.matchCount)) best = r;
    }
    if (validated !== 1) {
      main.add(junctorErrors.oneOf(path, validated === 0 ? 'Found none valid' : `Found ${validated} valid alternatives`));
      main.merge(best);
    } else main.merge(firstSuccess);
  }
  if (n.allOf.length > 0) {
    let validated = 0;
    for (const sub of n.allOf) {
      const r = validateNode(sub, path, data);
      if (r.valid) validated++;
      main.merge(r);
    }
    if (validated !== n.allOf.length) main.add(junctorErrors.allOf(path, validated === 0 ? '. None validated' : ''));
  }
  if (n.not && validateNode(n.not, path, data).valid) main.add(junctorErrors.not(path));
  return main.inc();
}

/** maxLength, minLength and pattern; only the first failure is reported. */
function stringCheck(n: VNode, path: string, s: string): Result | undefined {
  const runes = [...s].length;
  if (n.maxLength !== undefined && runes > n.maxLength) return Result.of(openAPIErrors.tooLong(path, n.maxLength, s));
  if (n.minLength !== undefined && runes < n.minLength) return Result.of(openAPIErrors.tooShort(path, n.minLength, s));
  if (n.pattern) {
    const re = compileGoRegexp(n.pattern);
    if (!re.ok) return Result.of(openAPIErrors.pattern(path, `${n.pattern}, but pattern is invalid: ${re.error}`, s));
    if (!re.test(s)) return Result.of(openAPIErrors.pattern(path, n.pattern, s));
  }
  return undefined;
}

function listCheck(n: VNode, path: string, list: unknown[], children: ChildValidators): Result {
  const r = new Result();
  if (n.items) list.forEach((v, i) => r.merge(children.index(i, n.items!, `${path}[${i}]`, v)));
  if (n.minItems !== undefined && list.length < n.minItems) r.add(openAPIErrors.tooFewItems(path, n.minItems, list.length));
  if (n.maxItems !== undefined && list.length > n.maxItems) r.add(openAPIErrors.tooManyItems(path, n.maxItems, list.length));
  if (n.uniqueItems && list.some((v, i) => list.slice(0, i).some((u) => deepEqual(u, v)))) r.add(openAPIErrors.duplicateItems(path));
  return r.inc();
}

/** Go's reflect conversion of a decoded value to an enum value's type, then DeepEqual. */
function enumMatches(data: unknown, e: unknown): boolean {
  if (isNull(e) || isNull(data)) return false;
  if (typeof e === 'number') {
    if (typeof data !== 'number') return false;
    // An integral enum value decodes as int64: a float converts to it by truncation.
    return isGoInt(e) ? Math.trunc(data) === e : data === e;
  }
  if (typeof e === 'string') {
    if (typeof data === 'string') return data === e;
    // Go converts an integer to the string of that code point.
    if (typeof data === 'number' && isGoInt(data)) {
      const valid = data >= 0 && data <= 0x10ffff && !(data >= 0xd800 && data <= 0xdfff);
      return (valid ? String.fromCodePoint(data) : '\ufffd') === e;
    }
    return false;
  }
  if (typeof e === 'boolean') return data === e;
  return Array.isArray(e) === Array.isArray(data) && typeof data === 'object' && deepEqual(data, e);
}

function enumCheck(n: VNode, path: string, data: unknown): Result | undefined {
  if (!n.enum || n.enum.length === 0) return undefined;
  if (n.enum.some((e) => enumMatches(data, e))) return undefined;
  return Result.of(openAPIErrors.enum(path, data ?? null, n.enum, goV(n.enum)));
}

function objectCheck(n: VNode, path: string, obj: Record<string, unknown>, children: ChildValidators): Result {
  const r = new Result();
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  if (n.minProperties !== undefined && keys.length < n.minProperties) r.add(openAPIErrors.tooFewProperties(path, n.minProperties, keys.length));
  if (n.maxProperties !== undefined && keys.length > n.maxProperties) r.add(openAPIErrors.tooManyProperties(path, n.maxProperties, keys.length));
  const declared = (k: string) => n.propertyMap?.has(k) ?? false;
  const ap = n.additionalProperties;
  if (ap && !ap.allows) {
    for (const k of keys) if (!declared(k)) r.add(forbiddenProperty(path, k));
  } else if (ap?.schema) {
    for (const k of keys) if (!declared(k)) r.merge(children.field(k, ap.schema, `${path}.${k}`, obj[k]));
  }
  for (const [name, sub] of n.properties ?? []) {
    if (obj[name] !== undefined) r.merge(children.field(name, sub, path ? `${path}.${name}` : name, obj[name]));
  }
  for (const k of n.required) if (obj[k] === undefined) r.add(openAPIErrors.required(`${path}.${k}`));
  return r;
}

function forbiddenProperty(path: string, key: string): OpenAPIError {
  return { code: 'UnallowedProperty', name: path, value: key, message: `${path}.${key} in body is a forbidden property` };
}
