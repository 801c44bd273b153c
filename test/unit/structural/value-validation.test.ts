/** Custom resource values against CRD schemas: kube-openapi's messages and upstream's paths (apiextensions validation_test.go cases). */
import { errorText, FieldPath } from '../../../src/machinery/field-errors';
import type { JSONSchemaProps } from '../../../src/machinery/structural/json-schema-props';
import { validateValue } from '../../../src/machinery/structural/value-validation';

const object = (properties: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}): JSONSchemaProps => ({ type: 'object', properties, ...extra });
const texts = (schema: JSONSchemaProps, value: unknown) => validateValue(schema, value).map(errorText).sort();
const same = (list: string[]) => [...list].sort();

describe('types and nullable', () => {
  const notNullable = object({ field: { type: 'object' } });
  test.each([
    ['foo', 'string'],
    [42, 'integer'],
    [true, 'boolean'],
    [1.2, 'number'],
    [[], 'array'],
    [null, 'null'],
  ])('%j is not an object', (value, type) => {
    expect(texts(notNullable, { field: value })).toEqual([`field: Invalid value: "${type}": field in body must be of type object: "${type}"`]);
  });

  test('valid values and nullable', () => {
    expect(texts(notNullable, {})).toEqual([]);
    expect(texts(notNullable, { field: {} })).toEqual([]);
    expect(texts(object({ field: { type: 'object', nullable: true } }), { field: null })).toEqual([]);
    const untyped = object({ field: { nullable: true } });
    for (const v of [{}, null, 'foo', 42, true, 1.2, []]) expect(texts(untyped, { field: v })).toEqual([]);
  });

  test('int-or-string is typed integer,string', () => {
    const s = object({ field: { 'x-kubernetes-int-or-string': true } });
    expect(texts(s, { field: 42 })).toEqual([]);
    expect(texts(s, { field: 'foo' })).toEqual([]);
    expect(texts(s, { field: null })).toEqual(['field: Invalid value: "null": field in body must be of type integer,string: "null"']);
    expect(texts(s, { field: 1.2 })).toEqual(['field: Invalid value: "number": field in body must be of type integer,string: "number"']);
    expect(texts(object({ field: { 'x-kubernetes-int-or-string': true, nullable: true } }), { field: null })).toEqual([]);
  });

  test('int-or-string with anyOf reports the best branch', () => {
    const s = object({ field: { nullable: true, 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] } });
    expect(texts(s, { field: true })).toEqual(
      same([
        '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
        'field: Invalid value: "boolean": field in body must be of type integer,string: "boolean"',
        'field: Invalid value: "boolean": field in body must be of type integer: "boolean"',
      ]),
    );
    expect(texts(s, { field: 1.2 })).toEqual(
      same([
        '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
        'field: Invalid value: "number": field in body must be of type integer,string: "number"',
        'field: Invalid value: "number": field in body must be of type integer: "number"',
        '<nil>: Invalid value: "": Checked value must be of type integer (default format) in field',
      ]),
    );
  });

  test('int-or-string with allOf', () => {
    const s = object({ field: { nullable: true, 'x-kubernetes-int-or-string': true, allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }] } });
    expect(texts(s, { field: {} })).toEqual(
      same([
        '<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated',
        '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
        'field: Invalid value: "object": field in body must be of type integer,string: "object"',
        'field: Invalid value: "object": field in body must be of type integer: "object"',
      ]),
    );
  });
});

describe('value validations', () => {
  test('an invalid pattern is reported on every value', () => {
    expect(texts(object({ field: { type: 'string', pattern: '+' } }), { field: 'foo' })).toEqual([
      "field: Invalid value: \"foo\": field in body should match '+, but pattern is invalid: error parsing regexp: missing argument to repetition operator: `+`'",
    ]);
  });

  test('patterns are Go regular expressions, searched anywhere in the value', () => {
    const s = object({ field: { type: 'string', pattern: '(?i)^ab\\z' } });
    expect(texts(s, { field: 'AB' })).toEqual([]);
    expect(texts(s, { field: 'abc' })).toEqual(["field: Invalid value: \"abc\": field in body should match '(?i)^ab\\z'"]);
  });

  test('required fields', () => {
    const s = object({ field: object({ nested: {} }, { required: ['nested'] }) }, { required: ['field'] });
    expect(texts(s, { test: 'a' })).toEqual(['field: Required value']);
    expect(texts(s, { field: {} })).toEqual(['field.nested: Required value']);
  });

  test('enums', () => {
    const s = object(
      {
        field: object({ nestedint: { type: 'integer', enum: [1, 2] }, nestedstring: { type: 'string', enum: ['a', 'b'] } }, { required: ['nestedint', 'nestedstring'] }),
      },
    );
    expect(texts(s, { field: {} })).toEqual(['field.nestedint: Required value', 'field.nestedstring: Required value']);
    expect(texts(s, { field: { nestedint: 'x', nestedstring: true } })).toEqual(
      same([
        'field.nestedint: Invalid value: "string": field.nestedint in body must be of type integer: "string"',
        'field.nestedint: Unsupported value: "x": supported values: "1", "2"',
        'field.nestedstring: Invalid value: "boolean": field.nestedstring in body must be of type string: "boolean"',
        'field.nestedstring: Unsupported value: true: supported values: "a", "b"',
      ]),
    );
  });

  test('limits on properties, items and length', () => {
    expect(texts(object({ fieldX: { type: 'object', maxProperties: 2 } }), { fieldX: { a: true, b: true, c: true } })).toEqual([
      'fieldX: Too many: 3: must have at most 2 items',
    ]);
    expect(texts(object({ fieldX: { type: 'array', maxItems: 2 } }), { fieldX: ['a', 'b', 'c'] })).toEqual(['fieldX: Too many: 3: must have at most 2 items']);
    expect(texts(object({ fieldX: { type: 'string', maxLength: 2 } }), { fieldX: 'abc' })).toEqual(['fieldX: Too long: may not be more than 2 bytes']);
    expect(texts(object({ fieldX: { type: 'string', minLength: 3 } }), { fieldX: 'ab' })).toEqual([
      'fieldX: Invalid value: "ab": fieldX in body should be at least 3 chars long',
    ]);
    expect(texts(object({ fieldX: { type: 'array', minItems: 2 } }), { fieldX: ['a'] })).toEqual(['fieldX: Invalid value: 1: fieldX in body should have at least 2 items']);
  });

  test('minimum, maximum and multipleOf print the limit in the value’s Go type', () => {
    const s = object({ n: { type: 'integer', minimum: 1, maximum: 1000000, multipleOf: 3 }, f: { type: 'number', maximum: 1000000, exclusiveMinimum: true, minimum: 0.5 } });
    expect(texts(s, { n: 2000002 })).toEqual(
      same(['n: Invalid value: 2000002: n in body should be less than or equal to 1000000', 'n: Invalid value: 2000002: n in body should be a multiple of 3']),
    );
    expect(texts(s, { n: 0 })).toEqual(same(['n: Invalid value: 0: n in body should be greater than or equal to 1']));
    expect(texts(s, { f: 2000000.5 })).toEqual(['f: Invalid value: 2.0000005e+06: f in body should be less than or equal to 1e+06']);
    expect(texts(s, { f: 0.5 })).toEqual(['f: Invalid value: 0.5: f in body should be greater than 0.5']);
  });

  test('numeric formats check the range', () => {
    const s = object({ intThirtyTwo: { type: 'integer', format: 'int32' }, floatThreeTwo: { type: 'number', format: 'float' }, intSixtyFour: { type: 'integer', format: 'int64' } });
    expect(texts(s, { intThirtyTwo: -(2 ** 31), floatThreeTwo: -3.4028234663852886e38, intSixtyFour: 0 })).toEqual([]);
    expect(texts(s, { intThirtyTwo: 2 ** 31 })).toEqual(['<nil>: Invalid value: "": Checked value must be of type integer with format int32 in intThirtyTwo']);
    expect(texts(s, { floatThreeTwo: 3.4028234663852886e38 * 1.1 })).toEqual([
      '<nil>: Invalid value: "": Checked value must be of type number with format float in floatThreeTwo',
    ]);
    expect(texts(s, { intSixtyFour: 9223372036854775807 * 1.1 })).toEqual(
      same([
        'intSixtyFour: Invalid value: "float64": intSixtyFour in body must be of type int64: "float64"',
        '<nil>: Invalid value: "": Checked value must be of type integer with format int64 in intSixtyFour',
      ]),
    );
  });

  test('a base path prefixes the field, not the validator’s own message', () => {
    const errs = validateValue(object({ replicas: { type: 'integer' } }), { replicas: 'x' }, FieldPath.root('status'));
    expect(errs.map(errorText)).toEqual(['status.replicas: Invalid value: "string": replicas in body must be of type integer: "string"']);
    const junctor = validateValue(object({ n: { anyOf: [{ minimum: 5 }] } }), { n: 1 }, FieldPath.root('status'));
    expect(junctor.map(errorText)).toContain('status: Invalid value: "": "n" must validate at least one schema (anyOf)');
  });
});

describe('string formats', () => {
  const fmt = (format: string, value: string) => texts(object({ fieldX: { type: 'string', format } }), { fieldX: value });
  test('kubernetes names', () => {
    expect(fmt('k8s-long-name', 'a.-')).toEqual(['fieldX: Invalid value: "a.-": fieldX in body must be of type k8s-long-name: "a.-"']);
    expect(fmt('k8s-short-name', 'a-')).toEqual(['fieldX: Invalid value: "a-": fieldX in body must be of type k8s-short-name: "a-"']);
    expect(fmt('k8s-short-name', 'abc-1')).toEqual([]);
  });

  test.each([
    ['uuid', '123e4567-e89b-12d3-a456-426614174000', 'not-a-uuid'],
    ['uuid4', '123e4567-e89b-42d3-a456-426614174000', '123e4567-e89b-12d3-a456-426614174000'],
    ['date', '2024-02-29', '2023-02-29'],
    ['date-time', '2024-01-02T03:04:05Z', '2024-01-02 03:04:05'],
    ['datetime', '2024-01-02t03:04:05.123+01:00', '2024-01-02T24:00:00Z'],
    ['duration', '1h30m', 'soon'],
    ['duration', '3 days', '1x'],
    ['ipv4', '10.0.0.1', '10.0.0'],
    ['ipv4', '010.000.000.001', '::1'],
    ['ipv6', '2001:db8::1', '10.0.0.1'],
    ['ipv6', '::ffff:10.0.0.1', '1::2::3'],
    ['cidr', '10.0.0.0/8', '10.0.0.0/33'],
    ['mac', '00:00:5e:00:53:01', '00:00:5e:00:53'],
    ['mac', '0000.5e00.5301', '0000.5e00.530'],
    ['hostname', 'example.com', '-example.com'],
    ['email', 'Jane Doe <jane@example.com>', 'jane.example.com'],
    ['uri', 'https://example.com:8443/path?q=1', 'example.com/path'],
    ['byte', 'aGVsbG8=', 'hello!'],
    ['hexcolor', '#ffaa00', '#ffaa0'],
    ['rgbcolor', 'rgb(255, 0, 10)', 'rgb(256,0,0)'],
    ['isbn10', '0-306-40615-2', '0-306-40615-3'],
    ['isbn13', '978-0-306-40615-7', '978-0-306-40615-6'],
    ['creditcard', '4111 1111 1111 1111', '4111 1111 1111 1112'],
    ['ssn', '123-45-6789', '123456789x'],
    ['bsonobjectid', '507f1f77bcf86cd799439011', '507f1f77bcf86cd79943901'],
  ])('%s accepts %j and refuses %j', (format, good, bad) => {
    expect(fmt(format, good)).toEqual([]);
    expect(fmt(format, bad)).toEqual([`fieldX: Invalid value: ${JSON.stringify(bad)}: fieldX in body must be of type ${format}: ${JSON.stringify(bad)}`]);
  });

  test('unknown formats are ignored', () => {
    expect(fmt('quantity', 'whatever')).toEqual([]);
    expect(fmt('int32', 'x')).toEqual([]);
  });
});
