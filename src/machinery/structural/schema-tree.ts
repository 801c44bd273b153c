/**
 * A CRD schema as the project's Schema tree (machinery/schema/schema.ts), so
 * that server-side apply (list types, map keys, map types), OpenAPI
 * publishing and other Schema walkers serve custom resources the way they
 * serve built-in kinds. The root's metadata is ObjectMeta (a $ref to the
 * declared class, as upstream publishes it), apiVersion and kind are strings.
 *
 * By default only the structural part is kept: allOf/oneOf/not and anyOf
 * (other than int-or-string's) are value validations, and the Schema
 * walkers would read an anyOf as a scalar. `withValueValidations` keeps them
 * for publishing. There are no Go tags here (x-go-*), so shapeAsGo leaves
 * custom resources as they are, and no $ref below the root's metadata.
 *
 * Not for decoding: checkAndPrune would report type mismatches as decode
 * errors and prune metadata as declared; custom resources are pruned with
 * pruneUnknownFields and type-checked by validateValue instead.
 */
import { ObjectMetaSchema } from '../meta.types';
import type { Schema } from '../schema/schema';
import { additionalPropertiesSchema, itemsSchema, JSONSchemaProps } from './json-schema-props';

const schemaTypes = new Set(['object', 'array', 'string', 'integer', 'number', 'boolean']);

/** Keys copied as they are: documentation, value validations and Kubernetes extensions. */
const copied: Array<keyof JSONSchemaProps> = [
  'description', 'format', 'title', 'default', 'example', 'nullable', 'enum', 'required', 'maximum', 'exclusiveMaximum', 'minimum',
  'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'multipleOf', 'maxProperties', 'minProperties',
  'externalDocs', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string',
  'x-kubernetes-list-type', 'x-kubernetes-list-map-keys', 'x-kubernetes-map-type', 'x-kubernetes-validations',
];

export interface SchemaTreeOptions {
  /** Keep allOf/anyOf/oneOf/not (for OpenAPI v3 publishing). */
  withValueValidations?: boolean;
}

function convert(s: JSONSchemaProps, opts: SchemaTreeOptions): Schema {
  const out: Schema = {};
  if (s.type && schemaTypes.has(s.type)) out.type = s.type as Schema['type'];
  for (const key of copied) if (s[key] !== undefined && s[key] !== null) (out as Record<string, unknown>)[key] = s[key];
  if (s.properties) out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, convert(v, opts)]));
  const items = itemsSchema(s);
  if (items) out.items = convert(items, opts);
  const ap = additionalPropertiesSchema(s);
  if (ap) out.additionalProperties = convert(ap, opts);
  else if (typeof s.additionalProperties === 'boolean') out.additionalProperties = s.additionalProperties;
  if (s['x-kubernetes-int-or-string']) {
    // As the built-in kinds declare IntOrString (schema/declare.ts).
    out.anyOf = [{ type: 'integer' }, { type: 'string' }];
    delete out.type;
  }
  if (opts.withValueValidations) {
    if (s.anyOf) out.anyOf = s.anyOf.map((x) => convert(x, opts));
    for (const key of ['allOf', 'oneOf'] as const) if (s[key]) (out as Record<string, unknown>)[key] = s[key]!.map((x) => convert(x, opts));
    if (s.not) out.not = convert(s.not, opts);
  }
  return out;
}

/** The Schema tree of a version's openAPIV3Schema, rooted as a resource. */
export function toSchemaTree(schema: JSONSchemaProps, opts: SchemaTreeOptions = {}): Schema {
  const root = convert(schema, opts);
  root.type ??= 'object';
  const properties = { ...(root.properties ?? {}) };
  properties.apiVersion = { type: 'string', ...(properties.apiVersion ?? {}) };
  properties.kind = { type: 'string', ...(properties.kind ?? {}) };
  const described = properties.metadata?.description;
  properties.metadata = { $ref: `#/definitions/${ObjectMetaSchema.name}`, ...(described ? { description: described } : {}) };
  root.properties = properties;
  return root;
}
