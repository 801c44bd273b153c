/**
 * OpenAPI v3 (structural) schema → CEL type and size bounds, as upstream's
 * SchemaDeclType (apiserver/pkg/cel/common/schemas.go): objects with
 * properties become object types, additionalProperties maps, arrays lists,
 * int-or-string dyn, strings with format byte/duration/date/date-time become
 * bytes/duration/timestamp. Untyped x-kubernetes-preserve-unknown-fields
 * nodes are not exposed (upstream cannot type them either). Sizes are bounded
 * by maxLength/maxItems/maxProperties or by what fits in a 3 MiB request.
 */
import type { SizeBounds } from './cost/estimate-types';
import { escapePropertyName } from './escaping';
import { T, type CelT } from './types';

export interface OpenApiSchema {
  type?: string;
  format?: string;
  properties?: Record<string, OpenApiSchema>;
  items?: OpenApiSchema;
  additionalProperties?: OpenApiSchema | boolean;
  required?: string[];
  enum?: unknown[];
  default?: unknown;
  maxLength?: number;
  maxItems?: number;
  maxProperties?: number;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
}

export interface DeclType {
  readonly type: CelT;
  readonly bounds: SizeBounds;
  /** Fewest JSON bytes a value takes, which bounds how many fit in a request. */
  readonly minSerializedSize: number;
}

/** Upstream's limits.go. */
export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;
const MAX_DURATION_SIZE_JSON = 32;
const MAX_DATETIME_SIZE_JSON = 32;
const MIN_DURATION_SIZE_JSON = 3;
const JSON_DATE_SIZE = 12;
const MIN_DATETIME_SIZE_JSON = 21;
const MIN_STRING_SIZE = 2;
const MIN_BOOL_SIZE = 4;
const MIN_NUMBER_SIZE = 1;

const zeroIfNegative = (n: number) => (n < 0 ? 0 : n);
const simple = (type: CelT, minSerializedSize: number, maxElements = 0): DeclType => ({ type, bounds: { maxElements }, minSerializedSize });

/** The fields every resource root exposes even when its schema omits them. */
function withTypeAndObjectMeta(s: OpenApiSchema): OpenApiSchema {
  const p = s.properties ?? {};
  const str = (x?: OpenApiSchema) => x?.type === 'string';
  const meta = p.metadata;
  if (str(p.kind) && str(p.apiVersion) && meta?.type === 'object' && str(meta.properties?.name) && str(meta.properties?.generateName)) return s;
  return {
    ...s,
    properties: {
      ...p,
      kind: { type: 'string' },
      apiVersion: { type: 'string' },
      metadata: { type: 'object', properties: { name: { type: 'string' }, generateName: { type: 'string' } } },
    },
  };
}

function maxStringLengthPerRequest(s: OpenApiSchema): number {
  if (s['x-kubernetes-int-or-string']) return MAX_REQUEST_SIZE_BYTES - 2;
  switch (s.format) {
    case 'duration':
      return MAX_DURATION_SIZE_JSON;
    case 'date':
      return JSON_DATE_SIZE;
    case 'date-time':
      return MAX_DATETIME_SIZE_JSON;
    default:
      return MAX_REQUEST_SIZE_BYTES - 2;
  }
}

/** maxLength counts code points; sizes reason in bytes, so up to 4 per character. */
const maxElementsFromMaxLength = (s: OpenApiSchema) => zeroIfNegative(s.maxLength!) * 4;

/**
 * The CEL declaration for a schema node, or undefined when rules cannot see
 * it. `typeName` names object types (nested ones get `.field` suffixes).
 */
export function schemaDeclType(s: OpenApiSchema | undefined, isResourceRoot: boolean, typeName = 'Object'): DeclType | undefined {
  if (!s) return undefined;
  if (s['x-kubernetes-int-or-string']) {
    // the smallest serialized int-or-string is 0
    return simple(T.dyn, 1, s.maxLength !== undefined ? maxElementsFromMaxLength(s) : maxStringLengthPerRequest(s));
  }
  if (isResourceRoot) s = withTypeAndObjectMeta(s);
  switch (s.type) {
    case 'array': {
      if (!s.items) return undefined;
      const items = schemaDeclType(s.items, !!s.items['x-kubernetes-embedded-resource'], `${typeName}.@idx`);
      if (!items) return undefined;
      const maxItems = s.maxItems !== undefined ? zeroIfNegative(s.maxItems) : Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (items.minSerializedSize + 1));
      return { type: T.list(items.type), bounds: { maxElements: maxItems, items: items.bounds }, minSerializedSize: 2 };
    }
    case 'object': {
      const ap = s.additionalProperties;
      if (ap && typeof ap === 'object') {
        const values = schemaDeclType(ap, !!ap['x-kubernetes-embedded-resource'], `${typeName}.@elem`);
        if (!values) return undefined;
        // key "" + colon + comma + the smallest value
        const maxProperties = s.maxProperties !== undefined ? zeroIfNegative(s.maxProperties) : Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (values.minSerializedSize + 6));
        return {
          type: T.map(T.string, values.type),
          bounds: { maxElements: maxProperties, keys: { maxElements: MAX_REQUEST_SIZE_BYTES - 2 }, values: values.bounds },
          minSerializedSize: 2,
        };
      }
      const required = new Set(s.required ?? []);
      const fields = new Map<string, CelT>();
      const fieldBounds = new Map<string, SizeBounds>();
      let minSerializedSize = 2;
      for (const [name, prop] of Object.entries(s.properties ?? {})) {
        const field = schemaDeclType(prop, !!prop['x-kubernetes-embedded-resource'], `${typeName}.${name}`);
        if (!field) continue;
        const celName = escapePropertyName(name);
        if (celName !== undefined) {
          fields.set(celName, field.type);
          fieldBounds.set(celName, field.bounds);
        }
        // required properties without a default always appear: "name": value,
        if (required.has(name) && prop.default === undefined) minSerializedSize += name.length + field.minSerializedSize + 4;
      }
      return { type: T.object(typeName, fields), bounds: { maxElements: 0, fields: fieldBounds }, minSerializedSize };
    }
    case 'string':
      switch (s.format) {
        case 'byte':
          return simple(T.bytes, MIN_STRING_SIZE, s.maxLength !== undefined ? zeroIfNegative(s.maxLength) : maxStringLengthPerRequest(s));
        case 'duration':
          return simple(T.duration, MIN_DURATION_SIZE_JSON, maxStringLengthPerRequest(s));
        case 'date':
          return simple(T.timestamp, JSON_DATE_SIZE, maxStringLengthPerRequest(s));
        case 'date-time':
          return simple(T.timestamp, MIN_DATETIME_SIZE_JSON, maxStringLengthPerRequest(s));
      }
      if (s.maxLength !== undefined) return simple(T.string, MIN_STRING_SIZE, maxElementsFromMaxLength(s));
      if (s.enum?.length) return simple(T.string, MIN_STRING_SIZE, Math.max(0, ...s.enum.map((v) => (typeof v === 'string' ? Buffer.byteLength(v) : 0))));
      return simple(T.string, MIN_STRING_SIZE, maxStringLengthPerRequest(s));
    case 'boolean':
      return simple(T.bool, MIN_BOOL_SIZE);
    case 'number':
      return simple(T.double, MIN_NUMBER_SIZE);
    case 'integer':
      return simple(T.int, MIN_NUMBER_SIZE);
  }
  return undefined;
}
