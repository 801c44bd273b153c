/**
 * Checks a decoded body against a kind's declared schema: unknown fields are
 * reported by path (`spec.foo`, `spec.items[0].bar`) and removed, values of
 * the wrong JSON type are reported the way upstream's decoder words them, and
 * null list items of struct type become {} as Go decodes them.
 */
import { Schema, deref, itemSchema, propertySchema } from './schema';
import { isPlainObject } from '../object';

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

/** Walks `value` (mutating it: unknown fields are deleted) and reports what it found. */
export function checkAndPrune(value: unknown, schema: Schema, path = ''): DecodeReport {
  const report: DecodeReport = { unknownFields: [], typeErrors: [] };
  walk(value, schema, path, report);
  return report;
}

function walk(value: unknown, raw: Schema | undefined, path: string, report: DecodeReport): void {
  const s = deref(raw);
  if (!s || value === null || value === undefined) return;
  if (!matchesType(s, value)) {
    report.typeErrors.push(`${path || '<root>'}: expected ${goType[s.type ?? ''] ?? s.type}, got ${typeName(value)}`);
    return;
  }
  if (s['x-kubernetes-preserve-unknown-fields']) return;
  if (Array.isArray(value)) {
    const item = itemSchema(s);
    // Go decodes a null list item of struct type as the zero struct, which validation then reports.
    if (item?.properties) value.forEach((v, i) => v === null && (value[i] = {}));
    value.forEach((v, i) => walk(v, item, `${path}[${i}]`, report));
    return;
  }
  if (!isPlainObject(value)) return;
  const props = s.properties;
  for (const key of Object.keys(value)) {
    const child = props?.[key] ? deref(props[key]) : typeof s.additionalProperties === 'object' ? propertySchema(s, key) : undefined;
    const childPath = path ? `${path}.${key}` : key;
    if (!child) {
      if (props || s.additionalProperties === false) {
        report.unknownFields.push(childPath);
        delete value[key];
      }
      continue;
    }
    walk(value[key], child, childPath, report);
  }
}
