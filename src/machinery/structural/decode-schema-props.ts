/**
 * An openAPIV3Schema as the API server decodes it into Go's JSONSchemaProps
 * and writes it back: a value of the wrong JSON type is encoding/json's error
 * (a 400 for the whole CRD), unknown keywords are dropped, and omitempty
 * drops what Go holds as empty (false, "", null pointers).
 */
import { isPlainObject, ownValue } from '../object';
import { goNumber, isGoInt } from './go-format';
import type { JSONSchemaProps } from './json-schema-props';

type Kind = 'string' | '*string' | 'bool' | '*bool' | 'float' | 'int' | 'json' | 'strings' | 'jsons' | 'schema' | 'schemas' | 'schemaMap' | 'orArray' | 'orBool' | 'deps' | 'docs' | 'rules';

const fields: Record<string, Kind> = {
  id: 'string', $schema: 'string', $ref: '*string', description: 'string', type: 'string', format: 'string', title: 'string', default: 'json',
  maximum: 'float', exclusiveMaximum: 'bool', minimum: 'float', exclusiveMinimum: 'bool', maxLength: 'int', minLength: 'int', pattern: 'string',
  maxItems: 'int', minItems: 'int', uniqueItems: 'bool', multipleOf: 'float', enum: 'jsons', maxProperties: 'int', minProperties: 'int',
  required: 'strings', items: 'orArray', allOf: 'schemas', oneOf: 'schemas', anyOf: 'schemas', not: 'schema', properties: 'schemaMap',
  additionalProperties: 'orBool', patternProperties: 'schemaMap', dependencies: 'deps', additionalItems: 'orBool', definitions: 'schemaMap',
  externalDocs: 'docs', example: 'json', nullable: 'bool', 'x-kubernetes-preserve-unknown-fields': '*bool', 'x-kubernetes-embedded-resource': 'bool',
  'x-kubernetes-int-or-string': 'bool', 'x-kubernetes-list-map-keys': 'strings', 'x-kubernetes-list-type': '*string', 'x-kubernetes-map-type': '*string',
  'x-kubernetes-validations': 'rules',
};
const goTypes: Partial<Record<Kind, string>> = { string: 'string', '*string': 'string', bool: 'bool', '*bool': 'bool', float: 'float64', int: 'int64', strings: '[]string' };
const ruleFields: Record<string, Kind> = { rule: 'string', message: 'string', messageExpression: 'string', reason: '*string', fieldPath: 'string', optionalOldSelf: '*bool' };

export class SchemaDecodeError extends Error {}

function jsonKind(v: unknown): string {
  if (typeof v === 'number') return isGoInt(v) ? 'number' : `number ${goNumber(v)}`;
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  return Array.isArray(v) ? 'array' : 'object';
}

class Decoder {
  constructor(private readonly prefix: string) {}

  private fail(v: unknown, struct: string, field: string[], type: string): never {
    throw new SchemaDecodeError(`json: cannot unmarshal ${jsonKind(v)} into Go struct field ${struct}.${[this.prefix, ...field].filter(Boolean).join('.')} of type ${type}`);
  }

  schema(v: unknown, field: string[]): JSONSchemaProps {
    if (!isPlainObject(v)) this.fail(v, 'JSONSchemaProps', field, 'v1.JSONSchemaProps');
    const out: Record<string, unknown> = {};
    for (const [key, raw] of Object.entries(v)) {
      const kind = ownValue(fields, key);
      if (!kind || raw === undefined) continue;
      const decoded = this.value(raw, kind, [...field, key], 'JSONSchemaProps');
      if (decoded !== undefined) out[key] = decoded;
    }
    return out as JSONSchemaProps;
  }

  private value(v: unknown, kind: Kind, field: string[], struct: string): unknown {
    // null leaves Go's field at its zero value: nothing is written back.
    if (v === null) return undefined;
    const scalar = (ok: boolean) => (ok ? v : this.fail(v, struct, field, goTypes[kind]!));
    switch (kind) {
      case 'string':
        return scalar(typeof v === 'string') || undefined;
      case '*string':
        return scalar(typeof v === 'string');
      case 'bool':
        return scalar(typeof v === 'boolean') || undefined;
      case '*bool':
        return scalar(typeof v === 'boolean');
      case 'float':
        return scalar(typeof v === 'number');
      case 'int':
        return scalar(typeof v === 'number' && isGoInt(v));
      case 'json':
        return v;
      case 'strings':
        if (!Array.isArray(v)) this.fail(v, struct, field, '[]string');
        return v.map((x) => (x === null ? '' : typeof x === 'string' ? x : this.fail(x, struct, field, 'string')));
      case 'jsons':
        if (!Array.isArray(v)) this.fail(v, struct, field, '[]v1.JSON');
        return v;
      case 'schema':
        return this.schema(v, field);
      case 'schemas':
        if (!Array.isArray(v)) this.fail(v, struct, field, '[]v1.JSONSchemaProps');
        return v.map((x) => (x === null ? {} : this.schema(x, field)));
      case 'schemaMap':
        if (!isPlainObject(v)) this.fail(v, struct, field, 'map[string]v1.JSONSchemaProps');
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, x === null ? {} : this.schema(x, field)]));
      case 'orArray':
        if (Array.isArray(v)) return v.map((x) => (x === null ? {} : this.schema(x, field)));
        return this.schema(v, field);
      case 'orBool':
        if (typeof v === 'boolean') return v;
        if (!isPlainObject(v)) throw new SchemaDecodeError('JSONSchemaPropsOrBool: expected boolean or schema');
        return this.schema(v, field);
      case 'deps':
        if (!isPlainObject(v)) this.fail(v, struct, field, 'v1.JSONSchemaDependencies');
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, Array.isArray(x) ? this.value(x, 'strings', field, struct) : this.schema(x, field)]));
      case 'docs':
        if (!isPlainObject(v)) this.fail(v, struct, field, 'v1.ExternalDocumentation');
        return Object.fromEntries(
          ['description', 'url'].filter((k) => v[k] !== undefined && v[k] !== null && v[k] !== '').map((k) => [k, this.value(v[k], 'string', [...field, k], 'ExternalDocumentation')]),
        );
      case 'rules':
        if (!Array.isArray(v)) this.fail(v, struct, field, 'v1.ValidationRules');
        return v.map((r) => {
          if (!isPlainObject(r)) this.fail(r, struct, field, 'v1.ValidationRule');
          const rule: Record<string, unknown> = { rule: '' };
          for (const [k, kindOf] of Object.entries(ruleFields)) {
            if (r[k] === undefined) continue;
            const d = this.value(r[k], kindOf, [...field, k], 'ValidationRule');
            if (d !== undefined) rule[k] = d;
          }
          return rule;
        });
    }
  }
}

/**
 * Decodes `raw` as Go would; `prefix` is the JSON path Go names in errors
 * (`spec.versions.schema.openAPIV3Schema`). Throws SchemaDecodeError.
 */
export function decodeSchemaProps(raw: unknown, prefix: string): JSONSchemaProps {
  return new Decoder(prefix).schema(raw, []);
}
