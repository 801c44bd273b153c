/**
 * The declared types turned into one JSON-Schema-like tree per kind, with
 * Kubernetes' x-kubernetes-* extensions. Built once from class-validator and
 * class-transformer metadata; recursive types stay as $ref and are resolved
 * on demand.
 */
import 'reflect-metadata';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { ownValue } from '../object';
// class-transformer keeps its @Type() metadata here; the schema generator needs it for nested classes.
// eslint-disable-next-line @typescript-eslint/no-var-requires
const { defaultMetadataStorage } = require('class-transformer/cjs/storage');

export interface Schema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  $ref?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  required?: string[];
  enum?: unknown[];
  format?: string;
  description?: string;
  anyOf?: Schema[];
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  /** Our own: the upstream Go field's JSON tag (declare.ts OmitEmpty/EmitEmpty); not published in OpenAPI. */
  'x-go-omitempty'?: boolean;
  'x-go-pointer'?: boolean;
  [extension: string]: unknown;
}

let definitions: Record<string, Schema> | undefined;

/** Every declared class's schema, keyed by class name (names are unique across kinds). */
export function allDefinitions(): Record<string, Schema> {
  if (!definitions) {
    const raw = validationMetadatasToSchemas({ classTransformerMetadataStorage: defaultMetadataStorage, refPointerPrefix: '#/definitions/' });
    definitions = JSON.parse(JSON.stringify(raw)) as Record<string, Schema>;
    for (const def of Object.values(definitions)) tidy(def);
  }
  return definitions;
}

/** Drops generator noise: `type: undefined` from int-or-string overrides and object types on arrays of refs. */
function tidy(s: Schema): void {
  if (s.anyOf) delete s.type;
  if (s.$ref) {
    for (const k of Object.keys(s)) if (k !== '$ref' && !k.startsWith('x-') && k !== 'description') delete s[k];
  }
  for (const child of Object.values(s.properties ?? {})) tidy(child);
  if (s.items) tidy(s.items);
  if (typeof s.additionalProperties === 'object') tidy(s.additionalProperties);
}

/** Resolved $ref nodes: the tree is built once and never changes, and walks resolve the same nodes on every request. */
const resolved = new WeakMap<Schema, Schema>();

/** Follows a $ref, keeping the referring node's extensions and description. */
export function deref(s: Schema | undefined): Schema | undefined {
  if (!s || !s.$ref) return s;
  let out = resolved.get(s);
  if (!out) {
    const name = s.$ref.slice(s.$ref.lastIndexOf('/') + 1);
    const target = allDefinitions()[name];
    if (!target) throw new Error(`schema reference ${s.$ref} is not declared`);
    const { $ref: _ignored, ...own } = s;
    out = { ...target, ...own };
    resolved.set(s, out);
  }
  return out;
}

export function schemaOf(root: Function): Schema {
  const s = allDefinitions()[root.name];
  if (!s) throw new Error(`no schema declared for ${root.name}`);
  return s;
}

/** A kind's schema: its own tree (kinds defined at run time), else its declared root class's. */
export function kindSchema(def: { schemaRoot?: Function; schema?: Schema; kind: string }): Schema {
  if (def.schema) return def.schema;
  if (!def.schemaRoot) throw new Error(`${def.kind} declares no schema`);
  return schemaOf(def.schemaRoot);
}

/** The name a kind's schema is published under (OpenAPI definitions). */
export function kindSchemaName(def: { schemaRoot?: Function; schemaName?: string; kind: string }): string {
  return def.schemaName ?? def.schemaRoot?.name ?? def.kind;
}

export function propertySchema(s: Schema | undefined, name: string): Schema | undefined {
  const d = deref(s);
  if (!d) return undefined;
  const p = ownValue(d.properties, name);
  if (p) return deref(p);
  if (typeof d.additionalProperties === 'object') return deref(d.additionalProperties);
  return undefined;
}

export function itemSchema(s: Schema | undefined): Schema | undefined {
  const d = deref(s);
  return d?.items ? deref(d.items) : undefined;
}
