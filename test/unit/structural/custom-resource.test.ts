/** A custom resource end to end: decoding, validation in upstream's order, status writes, and the Go decoding of CRD schemas. */
import { errorText } from '../../../src/machinery/field-errors';
import {
  celBlocked,
  decodeCustomResource,
  validateCustomResource,
  validateCustomResourceStatusUpdate,
  validateCustomResourceUpdate,
} from '../../../src/machinery/structural/custom-resource';
import { decodeSchemaProps, SchemaDecodeError } from '../../../src/machinery/structural/decode-schema-props';
import type { JSONSchemaProps } from '../../../src/machinery/structural/json-schema-props';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer', default: 1 },
        mode: { type: 'string', enum: ['a', 'b'] },
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
    status: { type: 'object', properties: { replicas: { type: 'integer', minimum: 0 }, selector: { type: 'string' } } },
  },
};
const kind = { group: 'example.com', version: 'v1', kind: 'Foo', scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } };
const foo = (spec: object, status?: object) => ({ apiVersion: 'example.com/v1', kind: 'Foo', metadata: { name: 'a' }, spec, ...(status ? { status } : {}) });
const texts = (errs: { type: string }[]) => (errs as never[]).map(errorText);

test('decoding prunes, drops nulls, reads embedded metadata and defaults', () => {
  const obj: Record<string, unknown> = foo({ mode: null, x: 1, template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', junk: 1 } } });
  expect(decodeCustomResource(obj, schema)).toEqual({ unknownFields: ['spec.x'] });
  expect(obj.spec).toEqual({ replicas: 1, template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } } });
  const bad: Record<string, unknown> = foo({ template: { kind: 1 } });
  expect(errorText(decodeCustomResource(bad, schema).error!)).toBe('spec.template.kind: Invalid value: 1: must be a string');
});

test('validation order: TypeMeta first, then schema, scale, embedded resources, list types', () => {
  expect(texts(validateCustomResource({ ...foo({}), kind: 'Bar' }, schema, kind))).toEqual(['kind: Invalid value: "Bar": must be Foo']);
  const errs = texts(validateCustomResource(foo({ replicas: -1, mode: 'c', tags: ['x', 'x'], template: { metadata: {} } }, { selector: 5 }), schema, kind));
  expect(errs).toEqual([
    'spec.mode: Unsupported value: "c": supported values: "a", "b"',
    'status.selector: Invalid value: "integer": status.selector in body must be of type string: "integer"',
    '.spec.replicas: Invalid value: -1: should be a non-negative integer',
    '.status.selector: Invalid value: "": .status.selector accessor error: 5 is of the type int64, expected string',
    'spec.template.apiVersion: Required value',
    'spec.template.kind: Required value',
    'spec.tags[1]: Duplicate value: "x"',
  ]);
  expect(errorText(celBlocked(validateCustomResource(foo({ mode: 'c' }), schema, kind) as never)!)).toBe(
    '<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
  );
});

test('updates ratchet schema errors and list uniqueness the old object already broke', () => {
  const old = foo({ mode: 'c', tags: ['x', 'x'] });
  expect(texts(validateCustomResourceUpdate(foo({ mode: 'c', tags: ['x', 'x'], replicas: 2 }), old, schema, kind))).toEqual([]);
  expect(texts(validateCustomResourceUpdate(foo({ mode: 'd', tags: ['x', 'x'] }), old, schema, kind))).toEqual(['spec.mode: Unsupported value: "d": supported values: "a", "b"']);
});

test('status writes validate the status schema at status', () => {
  expect(texts(validateCustomResourceStatusUpdate(foo({}, { replicas: -2 }), foo({}), schema, kind))).toEqual([
    'status.replicas: Invalid value: -2: replicas in body should be greater than or equal to 0',
    '.status.replicas: Invalid value: -2: should be a non-negative integer',
  ]);
});

describe('CRD schemas decoded as Go decodes JSONSchemaProps', () => {
  test('unknown keywords and Go-empty values go; pointers keep false and 0', () => {
    expect(
      decodeSchemaProps(
        { type: 'object', nullable: false, title: '', bogus: 1, minimum: 0, 'x-kubernetes-preserve-unknown-fields': false, items: [{ type: 'string' }], additionalProperties: false, default: null },
        'p',
      ),
    ).toEqual({ type: 'object', minimum: 0, 'x-kubernetes-preserve-unknown-fields': false, items: [{ type: 'string' }], additionalProperties: false });
  });

  test('wrong JSON types are encoding/json errors', () => {
    const fail = (raw: unknown) => {
      try {
        decodeSchemaProps(raw, 'spec.versions.schema.openAPIV3Schema');
      } catch (e) {
        return e instanceof SchemaDecodeError ? e.message : 'other';
      }
      return 'no error';
    };
    expect(fail({ maxLength: 1.5 })).toBe('json: cannot unmarshal number 1.5 into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.maxLength of type int64');
    expect(fail({ required: 'a' })).toBe('json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.required of type []string');
    expect(fail({ 'x-kubernetes-validations': [{ rule: 1 }] })).toBe(
      'json: cannot unmarshal number into Go struct field ValidationRule.spec.versions.schema.openAPIV3Schema.x-kubernetes-validations.rule of type string',
    );
  });
});
