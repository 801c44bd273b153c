/**
 * Checks an applied configuration against the schema, as upstream's typed
 * conversion of the apply patch does: wrong JSON types, bad list items and
 * duplicate list keys are errors (`.spec.ports: duplicate entries for key
 * [port=80]`). Undeclared fields are errors when `strict`; otherwise they are
 * removed from the configuration and reported as dotted paths for warnings.
 */
import { isPlainObject } from '../object';
import type { Schema } from '../schema/schema';
import { elementString, serializeElement } from './path';
import { atomOf, fieldType, goPlain, goTypeName, goValueRepr, listItemElement } from './typed';

export interface ConfigReport {
  /** Upstream ValidationErrors texts, `<path>: <message>`. */
  errors: string[];
  /** Undeclared fields that were dropped (`spec.foo`, `spec.items[0].bar`). */
  unknownFields: string[];
}

export function validateConfig(config: unknown, schema: Schema, strict: boolean): ConfigReport {
  const report: ConfigReport = { errors: [], unknownFields: [] };
  walk(config, schema, '', '', strict, report);
  return report;
}

/** Formats a report's errors as upstream's ValidationErrors.Error(). */
export function validationMessage(errors: string[]): string {
  return errors.length === 1 ? errors[0] : ['errors:', ...errors.map((e) => `  ${e}`)].join('\n');
}

function scalarError(schema: Schema | undefined, v: unknown): string | undefined {
  if (v === null || !schema) return undefined;
  if (schema['x-kubernetes-int-or-string'] || schema.anyOf) {
    return typeof v === 'string' || typeof v === 'number' ? undefined : `expected string or number, got ${goValueRepr(v)}`;
  }
  switch (schema.type) {
    case 'string':
      return typeof v === 'string' ? undefined : `expected string, got ${goValueRepr(v)}`;
    case 'integer':
    case 'number':
      return typeof v === 'number' ? undefined : `expected numeric (int or float), got ${goTypeName(v)}`;
    case 'boolean':
      return typeof v === 'boolean' ? undefined : `expected boolean, got ${goPlain(v)}`;
    default:
      return undefined;
  }
}

/** `path` is upstream's spelling (`.a[x=1].b`), `dotted` the unknown-field spelling (`a[0].b`). */
function walk(v: unknown, schema: Schema | undefined, path: string, dotted: string, strict: boolean, r: ConfigReport): void {
  const atom = atomOf(schema, v);
  const at = (msg: string): void => {
    r.errors.push(`${path}: ${msg}`);
  };
  if (atom.kind === 'scalar') {
    const err = scalarError(atom.schema, v);
    if (err) at(err);
    return;
  }
  if (v === null || v === undefined) return;
  if (atom.kind === 'list') {
    if (!Array.isArray(v)) return at(`expected list, got ${goPlain(v)}`);
    const seen = new Set<string>();
    v.forEach((item, i) => {
      let childPath = `${path}[${i}]`;
      if (atom.relation !== 'atomic') {
        const pe = listItemElement(atom, item);
        if (typeof pe === 'string') return at(`element ${i}: ${pe}`);
        const id = serializeElement(pe);
        if (seen.has(id)) return at(`duplicate entries for key ${elementString(pe)}`);
        seen.add(id);
        childPath = `${path}${elementString(pe)}`;
      }
      walk(item, atom.items, childPath, `${dotted}[${i}]`, strict, r);
    });
    return;
  }
  if (!isPlainObject(v)) return at(`expected map, got ${goPlain(v)}`);
  for (const key of Object.keys(v)) {
    const ft = fieldType(atom, key);
    const childDotted = dotted ? `${dotted}.${key}` : key;
    if (!ft.known) {
      if (strict) r.errors.push(`${path}.${key}: field not declared in schema`);
      else {
        r.unknownFields.push(childDotted);
        delete v[key];
      }
      continue;
    }
    walk(v[key], ft.schema, `${path}.${key}`, childDotted, strict, r);
  }
}
