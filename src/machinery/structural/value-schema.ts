/**
 * A CRD schema compiled once into the node kube-openapi's SchemaValidator
 * walks. Two flavours, as upstream builds two: custom resources are checked
 * against ConvertJSONSchemaProps' form (int-or-string typed as
 * `integer,string`, formats the server does not know dropped), default values
 * against Structural.ToKubeOpenAPI's form (neither).
 */
import { additionalPropertiesSchema, itemsSchema, JSONSchemaProps, JSONValue, sortedKeys } from './json-schema-props';
import { knownFormat } from './value-formats';

export interface VNode {
  types: string[];
  nullable: boolean;
  format: string;
  enum?: JSONValue[];
  multipleOf?: number;
  maximum?: number;
  exclusiveMaximum: boolean;
  minimum?: number;
  exclusiveMinimum: boolean;
  maxLength?: number;
  minLength?: number;
  pattern: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems: boolean;
  maxProperties?: number;
  minProperties?: number;
  required: string[];
  /** In Go's sorted order (upstream's map order is random). */
  properties?: Array<[string, VNode]>;
  propertyMap?: Map<string, VNode>;
  additionalProperties?: { allows: boolean; schema?: VNode };
  items?: VNode;
  allOf: VNode[];
  anyOf: VNode[];
  oneOf: VNode[];
  not?: VNode;
  listType?: string;
  listMapKeys: string[];
}

export type Flavour = 'resource' | 'default';

const caches: Record<Flavour, WeakMap<JSONSchemaProps, VNode>> = { resource: new WeakMap(), default: new WeakMap() };

/** StripUnsupportedFormatsPostProcessor: formats the validator would not check are dropped. */
function keptFormat(format: string, types: string[]): string {
  if (!format) return '';
  const type = types.length === 1 ? types[0] : '';
  if (type === '' || type === 'string') return knownFormat(format) ? format : '';
  if (type === 'integer') return format === 'int32' || format === 'int64' ? format : '';
  if (type === 'number') return format === 'float' || format === 'double' ? format : '';
  return '';
}

const num = (v: unknown) => (typeof v === 'number' ? v : undefined);

export function compileValueSchema(s: JSONSchemaProps, flavour: Flavour): VNode {
  const cache = caches[flavour];
  const known = cache.get(s);
  if (known) return known;
  let types = s.type ? [s.type] : [];
  if (flavour === 'resource' && s['x-kubernetes-int-or-string']) types = ['integer', 'string'];
  const sub = (x: JSONSchemaProps) => compileValueSchema(x, flavour);
  const items = itemsSchema(s);
  const ap = s.additionalProperties;
  const node: VNode = {
    types,
    nullable: s.nullable === true,
    format: flavour === 'resource' ? keptFormat(s.format ?? '', types) : (s.format ?? ''),
    enum: s.enum ?? undefined,
    multipleOf: num(s.multipleOf),
    maximum: num(s.maximum),
    exclusiveMaximum: s.exclusiveMaximum === true,
    minimum: num(s.minimum),
    exclusiveMinimum: s.exclusiveMinimum === true,
    maxLength: num(s.maxLength),
    minLength: num(s.minLength),
    pattern: s.pattern ?? '',
    maxItems: num(s.maxItems),
    minItems: num(s.minItems),
    uniqueItems: s.uniqueItems === true,
    maxProperties: num(s.maxProperties),
    minProperties: num(s.minProperties),
    required: s.required ?? [],
    items: items ? sub(items) : undefined,
    allOf: (s.allOf ?? []).map(sub),
    anyOf: (s.anyOf ?? []).map(sub),
    oneOf: (s.oneOf ?? []).map(sub),
    not: s.not ? sub(s.not) : undefined,
    listType: s['x-kubernetes-list-type'] ?? undefined,
    listMapKeys: s['x-kubernetes-list-map-keys'] ?? [],
  };
  if (s.properties) {
    node.properties = sortedKeys(s.properties).map((k) => [k, sub(s.properties![k])]);
    node.propertyMap = new Map(node.properties);
  }
  if (ap !== undefined && ap !== null) {
    const schema = additionalPropertiesSchema(s);
    node.additionalProperties = { allows: ap !== false, schema: schema ? sub(schema) : undefined };
  }
  cache.set(s, node);
  return node;
}
