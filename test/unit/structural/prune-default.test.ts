/** Serving custom resources: pruning, null removal, defaulting, list-type uniqueness and ratcheting. */
import { errorText, FieldPath } from '../../../src/machinery/field-errors';
import { applyDefaults } from '../../../src/machinery/structural/defaulting';
import type { JSONSchemaProps } from '../../../src/machinery/structural/json-schema-props';
import { validateListSetsAndMaps } from '../../../src/machinery/structural/list-types';
import { pruneNonNullableNulls, pruneUnknownFields } from '../../../src/machinery/structural/pruning';
import { coerceEmbeddedResources, validateEmbeddedResources } from '../../../src/machinery/structural/embedded-resources';
import { validateValueUpdate } from '../../../src/machinery/structural/value-validation';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer', default: 1 },
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { typed: { type: 'object', properties: { a: { type: 'string' } } } } },
        labels: { type: 'object', additionalProperties: { type: 'object', properties: { v: { type: 'string' } } } },
        items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', properties: { x: { type: 'string' } } } } },
      },
    },
  },
};

describe('pruning', () => {
  test('unknown fields go, and their paths are reported sorted', () => {
    const obj = {
      apiVersion: 'example.com/v1',
      kind: 'Foo',
      metadata: { name: 'a', whatever: 1 },
      extra: true,
      spec: {
        replicas: 3,
        unknown: 'x',
        free: { anything: { goes: 1 }, typed: { a: 'x', b: 'pruned' } },
        labels: { k: { v: 'x', w: 'y' } },
        items: [{ name: 'a', junk: 1 }],
        template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { x: 'y', z: 1 }, other: 1 },
      },
    };
    expect(pruneUnknownFields(obj, schema)).toEqual([
      'extra',
      'spec.free.typed.b',
      'spec.items[0].junk',
      'spec.labels.k.w',
      'spec.template.other',
      'spec.template.spec.z',
      'spec.unknown',
    ]);
    expect(obj).toEqual({
      apiVersion: 'example.com/v1',
      kind: 'Foo',
      metadata: { name: 'a', whatever: 1 },
      spec: {
        replicas: 3,
        free: { anything: { goes: 1 }, typed: { a: 'x' } },
        labels: { k: { v: 'x' } },
        items: [{ name: 'a' }],
        template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { x: 'y' } },
      },
    });
  });

  test('a resource without a schema keeps only its TypeMeta and metadata', () => {
    const obj = { apiVersion: 'v1', kind: 'X', metadata: {}, spec: { a: 1 } };
    expect(pruneUnknownFields(obj, undefined)).toEqual(['spec']);
    expect(obj).toEqual({ apiVersion: 'v1', kind: 'X', metadata: {} });
  });

  test('nulls that are neither nullable nor defaulted are removed', () => {
    const s: JSONSchemaProps = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string', nullable: true }, c: { type: 'integer', default: 2 } } };
    const obj = { a: null, b: null, c: null };
    pruneNonNullableNulls(obj, s);
    expect(obj).toEqual({ b: null, c: null });
    applyDefaults(obj, s);
    expect(obj).toEqual({ b: null, c: 2 });
  });
});

describe('defaulting', () => {
  test('defaults apply top-down, inside defaulted values too', () => {
    const s: JSONSchemaProps = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          default: {},
          properties: { replicas: { type: 'integer', default: 1 }, mode: { type: 'string', default: 'auto' }, list: { type: 'array', items: { type: 'object', properties: { p: { type: 'integer', default: 80 } } } } },
        },
      },
    };
    const empty: Record<string, unknown> = {};
    applyDefaults(empty, s);
    expect(empty).toEqual({ spec: { replicas: 1, mode: 'auto' } });
    const obj = { spec: { replicas: 3, list: [{}, { p: 8080 }] } };
    applyDefaults(obj, s);
    expect(obj).toEqual({ spec: { replicas: 3, mode: 'auto', list: [{ p: 80 }, { p: 8080 }] } });
  });

  test('defaults are copies, and a nullable null stays', () => {
    const s: JSONSchemaProps = { type: 'object', properties: { a: { type: 'object', default: { x: [1] } }, b: { type: 'string', nullable: true, default: 'd' } } };
    const one: Record<string, unknown> = { b: null };
    const two: Record<string, unknown> = {};
    applyDefaults(one, s);
    applyDefaults(two, s);
    (one.a as { x: number[] }).x.push(2);
    expect(two).toEqual({ a: { x: [1] }, b: 'd' });
    expect(one.b).toBeNull();
  });
});

describe('list types', () => {
  const s: JSONSchemaProps = {
    type: 'object',
    properties: {
      set: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
      ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['port'], items: { type: 'object', properties: { port: { type: 'integer' } } } },
      pairs: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['a', 'b'],
        items: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } },
      },
    },
  };
  const dup = (obj: unknown) => validateListSetsAndMaps(s, obj).map(errorText);
  test('repeated set items are duplicates, reported once per value', () => {
    expect(dup({ set: ['a', 'b', 'a', 'a', 'b'] })).toEqual(['set[2]: Duplicate value: "a"', 'set[4]: Duplicate value: "b"']);
  });
  test('map-list keys must be unique', () => {
    expect(dup({ ports: [{ port: 80 }, { port: 80, x: 1 }, {}, {}] })).toEqual(['ports[1]: Duplicate value: {"port":80}', 'ports[3]: Duplicate value: {}']);
    expect(dup({ pairs: [{ a: 'x', b: 'y' }, { b: 'y', a: 'x' }] })).toEqual(['pairs[1]: Duplicate value: {"a":"x","b":"y"}']);
    expect(dup({ ports: [{ port: 1 }, 'x'] })).toEqual(['ports[1]: Invalid value: "x": must be an object for an array of list-type map']);
  });
});

describe('embedded resources', () => {
  const s: JSONSchemaProps = { type: 'object', properties: { t: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } } };
  test('metadata is read as ObjectMeta and written back', () => {
    const obj = { t: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: {}, generation: 0, unknown: 1, creationTimestamp: '2024-01-02T04:04:05+01:00' } } };
    expect(coerceEmbeddedResources(obj, s)).toBeUndefined();
    expect(obj.t.metadata).toEqual({ name: 'p', creationTimestamp: '2024-01-02T03:04:05Z' });
  });
  test('TypeMeta and metadata are validated', () => {
    const errs = validateEmbeddedResources({ t: { apiVersion: 'a/b/c', metadata: { name: 'x/y', namespace: 'Bad' } } }, s).map(errorText);
    expect(errs).toEqual([
      't.kind: Required value',
      't.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
      't.metadata.name: Invalid value: "x/y": may not contain \'/\'',
      expect.stringMatching(/^t\.metadata\.namespace: Invalid value: "Bad": a lowercase RFC 1123 label must consist of/),
    ]);
    expect(coerceEmbeddedResources({ t: { kind: 1 } }, s, false)!.detail).toBe('must be a string');
  });
});

describe('ratcheting', () => {
  const s: JSONSchemaProps = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          name: { type: 'string', maxLength: 3 },
          other: { type: 'string', maxLength: 3 },
          ports: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['name'],
            items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer', maximum: 100 } } },
          },
          atomic: { type: 'array', items: { type: 'integer', maximum: 100 } },
        },
      },
    },
  };
  const update = (value: unknown, old: unknown) => validateValueUpdate(s, value, old, undefined).map(errorText);
  test('errors in unchanged fields are dropped, errors in changed ones kept', () => {
    const old = { spec: { name: 'toolong', other: 'ok' } };
    expect(update({ spec: { name: 'toolong', other: 'ok2' } }, old)).toEqual([]);
    expect(update({ spec: { name: 'toolong', other: 'toolong' } }, old)).toEqual(['spec.other: Too long: may not be more than 3 bytes']);
    expect(update({ spec: { name: 'toolong2' } }, old)).toEqual(['spec.name: Too long: may not be more than 3 bytes']);
    expect(validateValueUpdate(s, { spec: { name: 'toolong' } }, old, undefined, false).map(errorText)).toEqual(['spec.name: Too long: may not be more than 3 bytes']);
  });
  test('map-list items correlate by key; other list items do not', () => {
    const old = { spec: { ports: [{ name: 'a', port: 500 }], atomic: [500] } };
    expect(update({ spec: { ports: [{ name: 'b', port: 1 }, { name: 'a', port: 500 }], atomic: [500] } }, old)).toEqual([]);
    expect(update({ spec: { ports: [{ name: 'a', port: 500 }], atomic: [500, 1] } }, old)).toEqual([
      'spec.atomic[0]: Invalid value: 500: spec.atomic[0] in body should be less than or equal to 100',
    ]);
  });
  test('a base path applies to ratcheted updates too', () => {
    expect(validateValueUpdate(s, { spec: { name: 'toolong' } }, {}, FieldPath.root('x')).map(errorText)).toEqual(['x.spec.name: Too long: may not be more than 3 bytes']);
  });
});
