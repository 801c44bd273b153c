/** CRD schemas: the structural rules, the OpenAPI keyword rules and defaults, with upstream's paths and messages. */
import { errorText, FieldError, FieldPath } from '../../../src/machinery/field-errors';
import { CRDSchemaOptions, validateCRDSchema } from '../../../src/machinery/structural/crd-schema-check';
import type { JSONSchemaProps } from '../../../src/machinery/structural/json-schema-props';
import { validateStructural } from '../../../src/machinery/structural/structural-check';
import { newStructuralError } from '../../../src/machinery/structural/structural-unsupported';
import { validFieldPath } from '../../../src/machinery/structural/valid-field-path';

const at = FieldPath.root('spec').child('validation');
const root = at.child('openAPIV3Schema');
const texts = (errs: FieldError[]) => errs.map(errorText);
const structural = (s: JSONSchemaProps) => texts(validateStructural(s, root));
const opts: CRDSchemaOptions = {
  allowDefaults: true,
  requireValidPropertyType: true,
  requireAtomicSetType: true,
  requireMapListKeysMapSetValidation: true,
  requireStructuralSchema: true,
  requirePrunedDefaults: true,
};
const check = (s: JSONSchemaProps, statusEnabled = false) => texts(validateCRDSchema(s, statusEnabled, opts, at));
const P = 'spec.validation.openAPIV3Schema';

describe('structural schemas', () => {
  test('every specified node has a type', () => {
    expect(structural({ type: 'object', properties: { spec: { type: 'object' }, status: { type: 'object' } } })).toEqual([]);
    expect(structural({ type: 'object', properties: { spec: {}, status: {} } })).toEqual([
      `${P}.properties[spec].type: Required value: must not be empty for specified object fields`,
      `${P}.properties[status].type: Required value: must not be empty for specified object fields`,
    ]);
    expect(structural({ type: 'array', items: {} })).toEqual([
      `${P}.items.type: Required value: must not be empty for specified array items`,
      `${P}.type: Invalid value: "array": must be object at the root`,
    ]);
    expect(structural({ properties: { a: { type: 'array' } } })).toEqual([
      `${P}.properties[a].items: Required value: must be specified`,
      `${P}.type: Required value: must not be empty at the root`,
    ]);
  });

  test('preserve-unknown-fields and int-or-string need no type', () => {
    expect(structural({ type: 'object', properties: { a: { 'x-kubernetes-preserve-unknown-fields': true }, b: { 'x-kubernetes-int-or-string': true } } })).toEqual([]);
  });

  test('int-or-string patterns under anyOf and allOf are allowed; other types under junctors are not', () => {
    const intOrString = { anyOf: [{ type: 'integer' }, { type: 'string' }] };
    expect(structural({ type: 'object', properties: { a: { 'x-kubernetes-int-or-string': true, ...intOrString } } })).toEqual([]);
    expect(structural({ type: 'object', properties: { a: { 'x-kubernetes-int-or-string': true, allOf: [intOrString, { maxLength: 3 }] } } })).toEqual([]);
    expect(structural({ type: 'object', properties: { a: { type: 'string', oneOf: [{ type: 'string', description: 'x' }] } } })).toEqual([
      `${P}.properties[a].oneOf[0].description: Forbidden: must be empty to be structural`,
      `${P}.properties[a].oneOf[0].type: Forbidden: must be empty to be structural`,
    ]);
  });

  test('junctors carry no generic fields, extensions or metadata', () => {
    const a = {
      type: 'object',
      properties: { x: { type: 'string' }, metadata: { type: 'object' } },
      not: { default: 'x', nullable: true, 'x-kubernetes-list-type': 'set', properties: { metadata: {} } },
      allOf: [{ 'x-kubernetes-validations': [{ rule: 'true' }], additionalProperties: true }],
    };
    expect(structural({ type: 'object', properties: { a } })).toEqual([
      `${P}.properties[a].allOf[0].additionalProperties: Forbidden: must be undefined to be structural`,
      `${P}.properties[a].allOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural`,
      `${P}.properties[a].not.default: Forbidden: must be undefined to be structural`,
      `${P}.properties[a].not.nullable: Forbidden: must be false to be structural`,
      `${P}.properties[a].not.properties[metadata]: Forbidden: must not be specified in a nested context`,
      `${P}.properties[a].not.x-kubernetes-list-type: Forbidden: must be undefined to be structural`,
    ]);
  });

  test('value validations apply only to what the structure specifies', () => {
    expect(structural({ type: 'object', properties: { a: { type: 'string' } }, anyOf: [{ properties: { b: {} } }, { properties: { a: {} } }] })).toEqual([
      `${P}.properties[b]: Required value: because it is defined in ${P}.anyOf[0].properties[b]`,
    ]);
    expect(structural({ type: 'object', properties: { a: { type: 'string' } }, allOf: [{ properties: { a: { items: { maxLength: 1 } } } }] })).toEqual([
      `${P}.properties[a].items: Required value: because it is defined in ${P}.allOf[0].properties[a].items`,
    ]);
    // As upstream, only the root's junctors are checked for completeness.
    expect(structural({ type: 'object', properties: { a: { type: 'string', allOf: [{ items: { maxLength: 1 } }] } } })).toEqual([]);
  });

  test('metadata at the root restricts only name and generateName', () => {
    const withMeta = (metadata: JSONSchemaProps) => structural({ type: 'object', properties: { metadata } });
    expect(withMeta({ type: 'object' })).toEqual([]);
    expect(withMeta({ type: 'object', properties: { name: { type: 'string', maxLength: 5 }, generateName: { type: 'string' } } })).toEqual([]);
    const implicit = `${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`;
    expect(withMeta({ type: 'object', properties: { labels: { type: 'object' } } })).toEqual([implicit]);
    expect(withMeta({ type: 'object', description: 'meta' })).toEqual([implicit]);
    expect(withMeta({ type: 'array', items: { type: 'string' } })).toEqual([`${P}.properties[metadata].type: Invalid value: "array": must be object`, implicit]);
  });

  test('embedded resources are objects with TypeMeta strings', () => {
    const s = (e: JSONSchemaProps) => structural({ type: 'object', properties: { e } });
    expect(s({ type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true })).toEqual([]);
    expect(s({ 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true })).toEqual([
      `${P}.properties[e].type: Required value: must be object if x-kubernetes-embedded-resource is true`,
    ]);
    expect(s({ type: 'object', 'x-kubernetes-embedded-resource': true, properties: { kind: { type: 'integer' } } })).toEqual([
      `${P}.properties[e].properties[kind].type: Invalid value: "integer": must be string`,
    ]);
    expect(s({ type: 'object', 'x-kubernetes-embedded-resource': true })).toEqual([
      `${P}.properties[e].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
    ]);
    expect(s({ 'x-kubernetes-int-or-string': true, 'x-kubernetes-preserve-unknown-fields': true })).toEqual([
      `${P}.properties[e].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
    ]);
  });

  test('additionalProperties is not allowed at the root; patterns must compile', () => {
    expect(structural({ type: 'object', additionalProperties: { type: 'string' } })).toEqual([`${P}.additionalProperties: Forbidden: must not be used at the root`]);
    expect(structural({ type: 'object', properties: { a: { type: 'string', pattern: 'a(' } } })).toEqual([
      `${P}.properties[a].pattern: Invalid value: "a(": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): \`a(\``,
    ]);
  });

  test('NewStructural refuses what cannot be converted', () => {
    expect(newStructuralError({ type: 'object', properties: { a: { $ref: '#/x' } } })).toBe("OpenAPIV3Schema '$ref' is not supported");
    expect(newStructuralError({ type: 'object', properties: { a: { items: [{ type: 'string' }] } } })).toBe("OpenAPIV3Schema 'items' must be a schema, but is an array");
    expect(newStructuralError({ type: 'object' })).toBeUndefined();
  });
});

describe('OpenAPI keyword rules', () => {
  test('unsupported keywords and types', () => {
    expect(check({ type: 'object', properties: { a: { type: 'foo' } } })).toContain(
      `${P}.properties[a].type: Unsupported value: "foo": supported values: "array", "boolean", "integer", "number", "object", "string"`,
    );
    expect(check({ type: 'object', properties: { a: { type: 'array', items: { type: 'string' }, uniqueItems: true } } })).toEqual([
      `${P}.properties[a].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
    ]);
    expect(check({ type: 'object', properties: { a: { type: 'string', $ref: '#/a' } } })).toEqual([`${P}.properties[a].$ref: Forbidden: $ref is not supported`]);
    expect(check({ type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'string' } }, additionalProperties: { type: 'string' } } } })).toEqual([
      `${P}.properties[a].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
    ]);
  });

  test('defaults are forbidden in top-level metadata', () => {
    expect(check({ type: 'object', properties: { metadata: { type: 'object', default: {} } } })).toContain(
      `${P}.properties[metadata].default: Forbidden: must not be set in top-level metadata`,
    );
  });

  test('list and map types must fit the node', () => {
    expect(check({ type: 'object', properties: { a: { type: 'string', 'x-kubernetes-list-type': 'set' } } })).toEqual([
      `${P}.properties[a].type: Invalid value: "string": must be array if x-kubernetes-list-type is specified`,
    ]);
    expect(check({ type: 'object', properties: { a: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'bag' } } })).toEqual([
      `${P}.properties[a].x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map"`,
    ]);
    expect(check({ type: 'object', properties: { a: { type: 'array', items: { type: 'object' }, 'x-kubernetes-list-type': 'set' } } })).toEqual([
      `${P}.properties[a].items.x-kubernetes-map-type: Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set`,
    ]);
    expect(check({ type: 'object', properties: { a: { type: 'object', 'x-kubernetes-map-type': 'atomicish' } } })).toEqual([
      `${P}.properties[a].x-kubernetes-map-type: Unsupported value: "atomicish": supported values: "atomic", "granular"`,
    ]);
  });

  test('map lists need keys that are required (or defaulted) scalar properties', () => {
    const item = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' }, sub: { type: 'object' } } };
    const list = (extra: JSONSchemaProps) => check({ type: 'object', properties: { a: { type: 'array', items: item, 'x-kubernetes-list-type': 'map', ...extra } } });
    expect(list({ 'x-kubernetes-list-map-keys': ['name'] })).toEqual([]);
    expect(list({})).toEqual([`${P}.properties[a].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`]);
    expect(list({ 'x-kubernetes-list-map-keys': ['name', 'port', 'sub', 'nope', 'name'] })).toEqual([
      `${P}.properties[a].items.properties[sub].type: Invalid value: "object": must be a scalar type if parent array's x-kubernetes-list-type is map`,
      `${P}.properties[a].x-kubernetes-list-map-keys: Invalid value: ["name","port","sub","nope","name"]: entries must all be names of item properties`,
      `${P}.properties[a].x-kubernetes-list-map-keys: Invalid value: ["name","port","sub","nope","name"]: must not contain duplicate entries`,
      `${P}.properties[a].items.properties[port].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
      `${P}.properties[a].items.properties[sub].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
    ]);
    expect(check({ type: 'object', properties: { a: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-map-keys': ['x'] } } })).toEqual([
      `${P}.properties[a].x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty`,
    ]);
  });

  test('x-kubernetes-validations: static checks', () => {
    const rules = (r: object[]) => check({ type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'string' } }, 'x-kubernetes-validations': r as never } } });
    expect(rules([{ rule: 'self.b == "x"', fieldPath: '.b' }])).toEqual([]);
    expect(rules([{ rule: ' ' }, { rule: 'a\nb' }, { rule: 'x', message: 'a\nb', reason: 'Nope' }, { rule: 'x', fieldPath: '.c' }])).toEqual([
      `${P}.properties[a].x-kubernetes-validations[0].rule: Required value: rule is not specified`,
      `${P}.properties[a].x-kubernetes-validations[1].message: Required value: message must be specified if rule contains line breaks`,
      `${P}.properties[a].x-kubernetes-validations[2].message: Invalid value: "a\\nb": message must not contain line breaks`,
      `${P}.properties[a].x-kubernetes-validations[2].reason: Unsupported value: "Nope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
      `${P}.properties[a].x-kubernetes-validations[3].fieldPath: Invalid value: ".c": fieldPath must be a valid path`,
    ]);
  });
});

describe('whole schema checks', () => {
  test('a status subresource restricts the root', () => {
    expect(check({ type: 'object', properties: { status: { type: 'object' } } }, true)).toEqual([]);
    expect(check({ type: 'array', items: { type: 'string' } }, true)[0]).toBe(
      `spec.validation.openAPIV3Schema.type: Invalid value: "array": only "object" is allowed as the type at the root of the schema if the status subresource is enabled`,
    );
    expect(check({ type: 'object', anyOf: [{ required: ['x'] }], properties: { x: { type: 'string' } } }, true)[0]).toMatch(
      /^spec\.validation\.openAPIV3Schema: Invalid value: .*: only \[Description Type Format .* XValidations\] fields are allowed at the root of the schema if the status subresource is enabled$/,
    );
  });

  test('the root may not be nullable', () => {
    expect(check({ type: 'object', nullable: true })).toEqual([`${P}.nullable: Forbidden: nullable cannot be true at the root`]);
  });

  test('defaults must be pruned, well-typed and valid', () => {
    const s = {
      type: 'object',
      properties: {
        a: { type: 'object', properties: { foo: { type: 'string' } }, default: { foo: 'abc', bar: 42 } },
        b: { type: 'object', properties: { foo: { type: 'string' } }, default: { foo: 'abc' } },
        c: { type: 'object', properties: { foo: { type: 'string' } }, default: { foo: 42 } },
        d: { type: 'object', properties: { good: { type: 'string', pattern: 'a' }, bad: { type: 'string', pattern: 'b' } }, default: { good: 'a', bad: 'a' } },
      },
    };
    expect(check(s)).toEqual([
      `${P}.properties[a].default: Invalid value: {"bar":42,"foo":"abc"}: must not have unknown fields`,
      `${P}.properties[c].default.foo: Invalid value: "integer": foo in body must be of type string: "integer"`,
      `${P}.properties[d].default.bad: Invalid value: "a": bad in body should match 'b'`,
    ]);
  });

  test('defaults inside embedded metadata must make valid metadata', () => {
    const embedded = (metadata: JSONSchemaProps, kind: JSONSchemaProps = { type: 'string' }) =>
      check({ type: 'object', properties: { e: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { metadata, kind } } } });
    expect(embedded({ type: 'object', properties: { name: { type: 'string', default: 'a' } } })).toEqual([]);
    expect(embedded({ type: 'object', properties: { name: { type: 'string', default: 'a/b' } } })).toEqual([
      `${P}.properties[e].properties[metadata].properties[name].default: Invalid value: "a/b": must result in valid metadata: metadata.name: Invalid value: "a/b": may not contain '/'`,
    ]);
    expect(embedded({ type: 'object' }, { type: 'string', default: 'foo_bar' })).toEqual([
      `${P}.properties[e].properties[kind].default: Invalid value: "foo_bar": must result in valid metadata: kind: Invalid value: "foo_bar": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
    ]);
  });

  test('embedded resource defaults are checked as resources', () => {
    const e = { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true };
    const withDefault = (d: unknown) => check({ type: 'object', properties: { e: { ...e, default: d as never } } });
    expect(withDefault({ apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: 'x', unspecified: 'kept until storage' } })).toEqual([]);
    expect(withDefault({ apiVersion: 'foo/v1', kind: 'Foo', metadata: { labels: { a: 1 } } })).toEqual([
      `${P}.properties[e].default.metadata: Invalid value: {"labels":{"a":1}}: json: cannot unmarshal number into Go struct field ObjectMeta.labels.a of type string`,
    ]);
    expect(withDefault({ kind: 5 })).toEqual([`${P}.properties[e].default.kind: Invalid value: 5: must be a string`]);
    expect(withDefault({ metadata: {} })).toEqual([`${P}.properties[e].default.apiVersion: Required value`, `${P}.properties[e].default.kind: Required value`]);
  });

  test('NewStructural errors show only when nothing else is wrong', () => {
    expect(check({ type: 'object', properties: { a: { type: 'string', id: 'x' } } })).toEqual([`${P}.properties[a].id: Forbidden: id is not supported`]);
  });
});

describe('field paths into a schema', () => {
  const s: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' }, m: { type: 'object', additionalProperties: { type: 'integer' } } } } } };
  test('valid paths', () => {
    const r = validFieldPath(".spec['a']", s);
    expect(r.ok && r.path?.toString()).toBe('spec.a');
    const m = validFieldPath('.spec.m.x', s);
    expect(m.ok && m.path?.toString()).toBe('spec.m[x]');
  });
  test('upstream’s errors', () => {
    expect(validFieldPath('.spec.b', s)).toEqual({ ok: false, error: 'does not refer to a valid field' });
    expect(validFieldPath('spec', s)).toEqual({ ok: false, error: 'expected [ or . but got: spec' });
    expect(validFieldPath('.spec[a]', s)).toEqual({ ok: false, error: 'expected single quoted string but got a' });
    expect(validFieldPath(".spec['a']", s, false)).toEqual({ ok: false, error: 'array notation is not allowed' });
    expect(validFieldPath('.spec.', s)).toEqual({ ok: false, error: 'unexpected end of JSON path' });
  });
});
