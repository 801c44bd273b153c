/**
 * Internal apiextensions values as Go's encoding/json prints them in field
 * errors: the internal types carry no JSON tags, so every field appears
 * under its Go name, zero values included (`{"Name":"v1","Served":true,...}`).
 * Upstream shows spec.versions this way when their storage flags or names
 * are wrong.
 */
import { goJson } from '../../machinery/managed-fields/go-values';
import { isPlainObject } from '../../machinery/object';
import type { JSONSchemaProps } from '../../machinery/structural';
import type { Column, Version } from './crd-internal';

type Field = [goName: string, json: string];

const struct = (fields: Field[]) => `{${fields.map(([k, v]) => `${goJson(k)}:${v}`).join(',')}}`;
const str = (v: unknown) => goJson(typeof v === 'string' ? v : '');
const bool = (v: unknown) => (v === true ? 'true' : 'false');
const ptr = (v: unknown) => (v === undefined || v === null ? 'null' : goJson(v));
const list = <T>(v: T[] | undefined | null, each: (x: T) => string) => (v ? `[${v.map(each).join(',')}]` : 'null');
const map = <T>(v: Record<string, T> | undefined | null, each: (x: T) => string) =>
  v ? `{${Object.keys(v).sort().map((k) => `${goJson(k)}:${each(v[k])}`).join(',')}}` : 'null';

const orBool = (v: unknown) => {
  if (v === undefined || v === null) return 'null';
  return struct([['Allows', bool(v !== false)], ['Schema', isPlainObject(v) ? props(v as JSONSchemaProps) : 'null']]);
};

/** An internal JSONSchemaProps, every field in declaration order. */
export function props(s: JSONSchemaProps | undefined | null): string {
  if (!s) return 'null';
  const items = s.items;
  return struct([
    ['ID', str(s.id)], ['Schema', str(s.$schema)], ['Ref', ptr(s.$ref)], ['Description', str(s.description)], ['Type', str(s.type)],
    ['Nullable', bool(s.nullable)], ['Format', str(s.format)], ['Title', str(s.title)], ['Default', ptr(s.default)], ['Maximum', ptr(s.maximum)],
    ['ExclusiveMaximum', bool(s.exclusiveMaximum)], ['Minimum', ptr(s.minimum)], ['ExclusiveMinimum', bool(s.exclusiveMinimum)],
    ['MaxLength', ptr(s.maxLength)], ['MinLength', ptr(s.minLength)], ['Pattern', str(s.pattern)], ['MaxItems', ptr(s.maxItems)],
    ['MinItems', ptr(s.minItems)], ['UniqueItems', bool(s.uniqueItems)], ['MultipleOf', ptr(s.multipleOf)], ['Enum', list(s.enum, goJson)],
    ['MaxProperties', ptr(s.maxProperties)], ['MinProperties', ptr(s.minProperties)], ['Required', list(s.required, goJson)],
    ['Items', items === undefined || items === null ? 'null' : struct([['Schema', Array.isArray(items) ? 'null' : props(items)], ['JSONSchemas', Array.isArray(items) ? list(items, props) : 'null']])],
    ['AllOf', list(s.allOf, props)], ['OneOf', list(s.oneOf, props)], ['AnyOf', list(s.anyOf, props)], ['Not', props(s.not)],
    ['Properties', map(s.properties, props)], ['AdditionalProperties', orBool(s.additionalProperties)], ['PatternProperties', map(s.patternProperties, props)],
    ['Dependencies', map(s.dependencies, (d) => struct([['Schema', Array.isArray(d) ? 'null' : props(d)], ['Property', Array.isArray(d) ? list(d, goJson) : 'null']]))],
    ['AdditionalItems', orBool(s.additionalItems)], ['Definitions', map(s.definitions, props)],
    ['ExternalDocs', s.externalDocs ? struct([['Description', str(s.externalDocs.description)], ['URL', str(s.externalDocs.url)]]) : 'null'],
    ['Example', ptr(s.example)], ['XPreserveUnknownFields', ptr(s['x-kubernetes-preserve-unknown-fields'])],
    ['XEmbeddedResource', bool(s['x-kubernetes-embedded-resource'])], ['XIntOrString', bool(s['x-kubernetes-int-or-string'])],
    ['XListMapKeys', list(s['x-kubernetes-list-map-keys'], goJson)], ['XListType', ptr(s['x-kubernetes-list-type'])], ['XMapType', ptr(s['x-kubernetes-map-type'])],
    ['XValidations', list(s['x-kubernetes-validations'], (r) =>
      struct([['Rule', str(r.rule)], ['Message', str(r.message)], ['MessageExpression', str(r.messageExpression)], ['Reason', ptr(r.reason)], ['FieldPath', str(r.fieldPath)], ['OptionalOldSelf', ptr(r.optionalOldSelf)]]),
    )],
  ]);
}

const column = (c: Column) =>
  struct([['Name', str(c.name)], ['Type', str(c.type)], ['Format', str(c.format)], ['Description', str(c.description)], ['Priority', goJson(c.priority ?? 0)], ['JSONPath', str(c.jsonPath)]]);

function version(v: Version): string {
  const sub = v.subresources;
  const scale = sub?.scale;
  return struct([
    ['Name', str(v.name)],
    ['Served', bool(v.served)],
    ['Storage', bool(v.storage)],
    ['Deprecated', bool(v.deprecated)],
    ['DeprecationWarning', ptr(v.deprecationWarning)],
    ['Schema', v.schema ? struct([['OpenAPIV3Schema', props(v.schema.openAPIV3Schema)]]) : 'null'],
    [
      'Subresources',
      sub
        ? struct([
            ['Status', sub.status ? '{}' : 'null'],
            ['Scale', scale ? struct([['SpecReplicasPath', str(scale.specReplicasPath)], ['StatusReplicasPath', str(scale.statusReplicasPath)], ['LabelSelectorPath', ptr(scale.labelSelectorPath)]]) : 'null'],
          ])
        : 'null',
    ],
    ['AdditionalPrinterColumns', list(v.additionalPrinterColumns, column)],
    ['SelectableFields', list(v.selectableFields, (f) => struct([['JSONPath', str(f.jsonPath)]]))],
  ]);
}

/** The internal spec.versions, as field errors show them. */
export const renderVersions = (versions: Version[]): string => list(versions, version);
