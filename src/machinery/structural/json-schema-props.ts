/**
 * The OpenAPI v3 schema of a CustomResourceDefinition version
 * (apiextensions.k8s.io/v1 JSONSchemaProps) as plain JSON, and a walk over
 * every subschema. Go reads absent and null the same for pointer fields and
 * omits false and "" for its plain ones, so helpers here decide "set" the way
 * upstream's rules do (`set` for pointers and slices, truthy for bools and
 * strings).
 */

export type JSONValue = null | boolean | number | string | JSONValue[] | { [key: string]: JSONValue };

/** One `x-kubernetes-validations` entry: a CEL rule (evaluated by the CEL module, not here). */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

export interface ExternalDocumentation {
  description?: string;
  url?: string;
}

export interface JSONSchemaProps {
  id?: string;
  $schema?: string;
  $ref?: string;
  description?: string;
  type?: string;
  format?: string;
  title?: string;
  default?: JSONValue;
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  multipleOf?: number;
  enum?: JSONValue[];
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  /** A schema, or (refused by validation) an array of schemas. */
  items?: JSONSchemaProps | JSONSchemaProps[];
  allOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps | boolean;
  patternProperties?: Record<string, JSONSchemaProps>;
  dependencies?: Record<string, JSONSchemaProps | string[]>;
  additionalItems?: JSONSchemaProps | boolean;
  definitions?: Record<string, JSONSchemaProps>;
  externalDocs?: ExternalDocumentation;
  example?: JSONValue;
  nullable?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: ValidationRule[];
}

/** A Go pointer, slice or map field: set unless absent or null (an empty list still counts). */
export const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/** The single items schema, when `items` is one (the only form a structural schema has). */
export function itemsSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return s.items && !Array.isArray(s.items) ? s.items : undefined;
}

/** The additionalProperties schema, when it is one rather than a boolean. */
export function additionalPropertiesSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return typeof s.additionalProperties === 'object' && s.additionalProperties !== null ? s.additionalProperties : undefined;
}

/** Go's `len(x) > 0` on an optional slice or map. */
export const nonEmpty = (v: unknown[] | Record<string, unknown> | undefined | null): boolean =>
  !!v && (Array.isArray(v) ? v.length > 0 : Object.keys(v).length > 0);

/** Every direct subschema: items, junctors, properties, additionalProperties, patternProperties, additionalItems, definitions, dependencies. */
export function subschemas(s: JSONSchemaProps): JSONSchemaProps[] {
  const out: JSONSchemaProps[] = [];
  if (Array.isArray(s.items)) out.push(...s.items);
  else if (s.items) out.push(s.items);
  for (const list of [s.allOf, s.anyOf, s.oneOf]) if (list) out.push(...list);
  if (s.not) out.push(s.not);
  for (const map of [s.properties, s.patternProperties, s.definitions]) if (map) out.push(...Object.values(map));
  const ap = additionalPropertiesSchema(s);
  if (ap) out.push(ap);
  if (typeof s.additionalItems === 'object' && s.additionalItems) out.push(s.additionalItems);
  for (const dep of Object.values(s.dependencies ?? {})) if (!Array.isArray(dep) && dep) out.push(dep);
  return out;
}

/** Upstream's SchemaHas: whether `pred` holds for the schema or any subschema. */
export function schemaHas(s: JSONSchemaProps | undefined, pred: (s: JSONSchemaProps) => boolean): boolean {
  if (!s) return false;
  if (pred(s)) return true;
  return subschemas(s).some((c) => schemaHas(c, pred));
}

/** Map keys in Go's sorted order (upstream iterates maps at random; a fixed order keeps messages stable). */
export function sortedKeys(m: Record<string, unknown> | undefined): string[] {
  return Object.keys(m ?? {}).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
