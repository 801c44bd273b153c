/**
 * Checks a decoded body against a kind's declared schema: unknown fields are
 * reported by path (`spec.foo`, `spec.items[0].bar`) and removed, values of
 * the wrong JSON type are reported, numbers that do not fit an integer
 * field's Go type are worded as upstream's decoder words them, and null list
 * items of struct type become {} as Go decodes them.
 */
import { Schema, deref, itemSchema, propertySchema } from './schema';
import { isPlainObject, ownValue } from '../object';

export interface DecodeReport {
  unknownFields: string[];
  typeErrors: string[];
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'object') return 'object';
  return typeof v;
}

const int32Range = { min: -(2 ** 31), max: 2 ** 31 - 1 };
/** int64 as far as a JSON number here can carry it exactly. */
const int64Range = { min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER };

/** The Go type of an integer field: declared int32 or int64; IntOrString's integer is an int32. */
function integerType(s: Schema): 'int32' | 'int64' | undefined {
  if (s['x-kubernetes-int-or-string']) return s.format === 'quantity' ? undefined : 'int32';
  if (s.type !== 'integer') return undefined;
  return s.format === 'int32' ? 'int32' : 'int64';
}

/** Why a number does not fit the integer type, in the decoder's words; undefined when it fits. */
function integerProblem(v: number, type: 'int32' | 'int64', field: string, owner: string): string | undefined {
  const range = type === 'int32' ? int32Range : int64Range;
  if (Number.isInteger(v) && v >= range.min && v <= range.max) return undefined;
  const where = `Go struct field ${owner}.${field} of type ${type}`;
  if (type === 'int64' && Number.isInteger(v) && Number.isFinite(v) && Math.abs(v) < 2 ** 63) {
    // A valid int64 for upstream, but this server would round it.
    return `json: cannot unmarshal number beyond 2^53 into ${where}: integers above ${Number.MAX_SAFE_INTEGER} are not kept exactly, so they are refused`;
  }
  return `json: cannot unmarshal number ${v} into ${where}`;
}

/** Go struct name for messages: the declared class, without our `Schema` suffix. */
function structName(ref: string | undefined, fallback: string): string {
  if (!ref) return fallback;
  let name = structNames.get(ref);
  if (name === undefined) structNames.set(ref, (name = ref.slice(ref.lastIndexOf('/') + 1).replace(/Schema$/, '')));
  return name;
}

/** By $ref: the walk asks for every field of every body, and the schemas' references are few and never change. */
const structNames = new Map<string, string>();

const goType: Record<string, string> = {
  string: 'string',
  integer: 'int64',
  number: 'float64',
  boolean: 'bool',
  object: 'object',
  array: 'array',
};

function matchesType(s: Schema, v: unknown): boolean {
  if (s['x-kubernetes-int-or-string']) return typeof v === 'string' || typeof v === 'number';
  switch (s.type) {
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number';
    case 'boolean':
      return typeof v === 'boolean';
    case 'array':
      return Array.isArray(v);
    case 'object':
      return isPlainObject(v);
    default:
      return true;
  }
}

/**
 * Walks `value` (mutating it: unknown fields are deleted) and reports what it
 * found. `rootName` names the top-level struct in messages (the kind).
 */
export function checkAndPrune(value: unknown, schema: Schema, path = '', rootName = ''): DecodeReport {
  const report: DecodeReport = { unknownFields: [], typeErrors: [] };
  walk(value, schema, path, report, rootName, true);
  return report;
}

/** checkAndPrune's report, leaving `value` as it is. */
export function checkTypes(value: unknown, schema: Schema, path = '', rootName = ''): DecodeReport {
  const report: DecodeReport = { unknownFields: [], typeErrors: [] };
  walk(value, schema, path, report, rootName, false);
  return report;
}

function walk(value: unknown, raw: Schema | undefined, path: string, report: DecodeReport, owner: string, prune: boolean): void {
  const s = deref(raw);
  if (!s || value === null || value === undefined) return;
  const intType = typeof value === 'number' ? integerType(s) : undefined;
  if (intType) {
    const problem = integerProblem(value as number, intType, path, owner);
    if (problem) report.typeErrors.push(problem);
    return;
  }
  if (typeof value === 'number' && s['x-kubernetes-int-or-string'] && Number.isInteger(value) && !Number.isSafeInteger(value)) {
    report.typeErrors.push(`${path}: quantity ${value} is beyond 2^53 and would be rounded; write it as a string`);
    return;
  }
  if (!matchesType(s, value)) {
    const expected = s.type === 'integer' ? (s.format === 'int32' ? 'int32' : 'int64') : (goType[s.type ?? ''] ?? s.type);
    report.typeErrors.push(`${path || '<root>'}: expected ${expected}, got ${typeName(value)}`);
    return;
  }
  if (s['x-kubernetes-preserve-unknown-fields']) return;
  if (Array.isArray(value)) {
    const item = deref(s)?.items;
    // Go decodes a null list item of struct type as the zero struct, which validation then reports.
    // (A zero struct has nothing to report: without pruning, the null is simply skipped.)
    if (prune && itemSchema(s)?.properties) value.forEach((v, i) => v === null && (value[i] = {}));
    value.forEach((v, i) => walk(v, item, `${path}[${i}]`, report, structName(item?.$ref, owner), prune));
    return;
  }
  if (!isPlainObject(value)) return;
  const props = s.properties;
  const entries = typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
  for (const key of Object.keys(value)) {
    const field = ownValue(props, key);
    const declared = field ?? entries;
    const child = field ? deref(field) : entries ? propertySchema(s, key) : undefined;
    const childPath = path ? `${path}.${key}` : key;
    if (!child) {
      if (props || s.additionalProperties === false) {
        report.unknownFields.push(childPath);
        if (prune) delete value[key];
      }
      continue;
    }
    walk(value[key], child, childPath, report, structName(declared?.$ref, owner), prune);
  }
}
