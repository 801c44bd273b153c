/**
 * Decorators that add Kubernetes schema facts to class-validator declarations:
 * patch strategies, list types, descriptions. They feed the generated schema
 * (machinery/schema/schema.ts), which drives unknown-field checks, patches,
 * server-side apply and OpenAPI.
 */
import { IsInt } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
// Not re-exported from the package root, but part of its built decorators module.
// eslint-disable-next-line @typescript-eslint/no-var-requires
const { getMetadataSchema } = require('class-validator-jsonschema/build/decorators') as { getMetadataSchema(target: object, key: string): unknown };

type Extra = Record<string, unknown>;

/** The library keeps one entry per property; merge so stacked decorators all count. */
const add =
  (extra: Extra) =>
  (target: object, key?: string): void => {
    const existing = (key ? getMetadataSchema(target, key) : getMetadataSchema((target as { prototype: object }).prototype, (target as { name: string }).name)) as Extra;
    (JSONSchema({ ...existing, ...extra } as never) as (t: object, k?: string) => void)(target, key);
  };

export const Describe = (description: string) => add({ description });

/** Strategic merge by key; also a map-list for server-side apply. */
export const MergeByKey = (key: string, extraStrategy?: 'retainKeys') =>
  add({
    'x-kubernetes-patch-strategy': extraStrategy ? `merge,${extraStrategy}` : 'merge',
    'x-kubernetes-patch-merge-key': key,
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': [key],
  });

/** A list keyed by these fields for apply, without a strategic-merge key. */
export const ListMap = (...keys: string[]) => add({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': keys });

/** A list of scalars merged as a set (strategic merge unions it). */
export const ListSet = (merge = true) =>
  add({ 'x-kubernetes-list-type': 'set', ...(merge ? { 'x-kubernetes-patch-strategy': 'merge' } : {}) });

export const Atomic = () => add({ 'x-kubernetes-list-type': 'atomic' });

/** A struct server-side apply owns and replaces as a whole (upstream `+structType=atomic`, e.g. RoleRef). */
export const AtomicStruct = () => add({ 'x-kubernetes-map-type': 'atomic' });

/** Strategic merge replaces the whole value (e.g. PDB spec.selector). */
export const PatchReplace = () => add({ 'x-kubernetes-patch-strategy': 'replace', 'x-kubernetes-map-type': 'atomic' });

export const StringMap = (description?: string) =>
  add({ type: 'object', additionalProperties: { type: 'string' }, ...(description ? { description } : {}) });

/** intstr.IntOrString: its integer is an int32. */
export const IntOrString = (description?: string) =>
  add({ 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer', format: 'int32' }, { type: 'string' }], type: undefined, ...(description ? { description } : {}) });

export const QuantityField = (description?: string) =>
  add({ 'x-kubernetes-int-or-string': true, format: 'quantity', anyOf: [{ type: 'integer' }, { type: 'number' }, { type: 'string' }], type: undefined, ...(description ? { description } : {}) });

/**
 * Integer fields are declared with their Go width, as upstream: a value out
 * of range or not an integer is a decode error (400). int64 values are kept
 * exactly only up to 2^53 - 1 (JSON numbers here are doubles), so larger
 * ones are rejected rather than rounded.
 */
const integer = (format: 'int32' | 'int64') => (target: object, key: string) => {
  IsInt()(target, key);
  add({ type: 'integer', format })(target, key);
};
export const Int32 = () => integer('int32');
export const Int64 = () => integer('int64');

/** A value with a fixed string format, e.g. date-time or byte (base64). */
export const Format = (format: string) => add({ type: 'string', format });

export const Enum = (...values: string[]) => add({ type: 'string', enum: values });

/**
 * The field's upstream Go JSON tag, which decides its shape when stored and
 * served (machinery/schema/go-shape.ts). Every declared field carries one.
 * OmitEmpty: the tag has `omitempty`, so an empty string, 0, false, [] or {}
 * is left out (a struct never is: Go ignores omitempty on structs).
 * EmitEmpty: no `omitempty`, so the zero value is written ("", 0, false,
 * null for lists, maps, byte strings and times, {} for structs).
 * 'pointer' marks a `*T` field: only an unset (null) value counts as empty,
 * so {}, 0 and false are kept, and EmitEmpty writes null when unset.
 */
export const OmitEmpty = (kind?: 'pointer') => add({ 'x-go-omitempty': true, ...(kind ? { 'x-go-pointer': true } : {}) });
export const EmitEmpty = (kind?: 'pointer') => add({ 'x-go-omitempty': false, ...(kind ? { 'x-go-pointer': true } : {}) });

/** Free-form JSON (no unknown-field checks below). */
export const PreserveUnknown = () => add({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });

export { JSONSchema };
