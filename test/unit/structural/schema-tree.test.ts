/** CRD schemas as the project's Schema tree (for apply and OpenAPI), and where CEL rules apply. */
import 'reflect-metadata';
import { FieldPath } from '../../../src/machinery/field-errors';
import { atomOf, fieldType } from '../../../src/machinery/managed-fields/typed';
import { propertySchema } from '../../../src/machinery/schema/schema';
import type { JSONSchemaProps } from '../../../src/machinery/structural/json-schema-props';
import { toSchemaTree } from '../../../src/machinery/structural/schema-tree';
import { collectValidationRules, forEachRuleTarget, RuleTarget } from '../../../src/machinery/structural/validation-rules';

const crd: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      'x-kubernetes-validations': [{ rule: 'self.replicas >= 0' }],
      properties: {
        replicas: { type: 'integer', format: 'int32', minimum: 0 },
        port: { 'x-kubernetes-int-or-string': true },
        selector: { type: 'object', 'x-kubernetes-map-type': 'atomic', additionalProperties: { type: 'string' } },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', properties: { name: { type: 'string' }, n: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > oldSelf' }] } } },
        },
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        anything: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        either: { type: 'object', properties: { a: { type: 'string' } }, oneOf: [{ required: ['a'] }] },
      },
    },
  },
};

describe('schema tree', () => {
  const tree = toSchemaTree(crd);
  const spec = propertySchema(tree, 'spec')!;

  test('the root is a resource: TypeMeta strings and ObjectMeta', () => {
    expect(tree.properties!.apiVersion).toEqual({ type: 'string' });
    expect(tree.properties!.kind).toEqual({ type: 'string' });
    const meta = atomOf(propertySchema(tree, 'metadata'));
    expect(meta.kind).toBe('map');
    const labels = atomOf(fieldType(meta as Extract<typeof meta, { kind: 'map' }>, 'labels').schema);
    expect(labels).toMatchObject({ kind: 'map', atomic: false });
  });

  test('apply sees list types, map keys, map types and int-or-string', () => {
    expect(atomOf(propertySchema(spec, 'ports'))).toMatchObject({ kind: 'list', relation: 'map', keys: ['name'] });
    expect(atomOf(propertySchema(spec, 'tags'))).toMatchObject({ kind: 'list', relation: 'set' });
    expect(atomOf(propertySchema(spec, 'selector'))).toMatchObject({ kind: 'map', atomic: true });
    expect(atomOf(propertySchema(spec, 'port'))).toMatchObject({ kind: 'scalar' });
    expect(atomOf(propertySchema(spec, 'anything'), { a: 1 })).toMatchObject({ kind: 'map', elements: 'untyped' });
    // A value-validation oneOf must not turn an object into a scalar.
    expect(atomOf(propertySchema(spec, 'either'))).toMatchObject({ kind: 'map' });
  });

  test('value validations and extensions are kept for publishing', () => {
    expect(propertySchema(spec, 'replicas')).toMatchObject({ type: 'integer', format: 'int32', minimum: 0 });
    expect(spec['x-kubernetes-validations']).toEqual([{ rule: 'self.replicas >= 0' }]);
    expect(propertySchema(spec, 'port')).toMatchObject({ 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] });
    expect(propertySchema(spec, 'either')!.oneOf).toBeUndefined();
    expect(toSchemaTree(crd, { withValueValidations: true }).properties!.spec.properties!.either.oneOf).toEqual([{ required: ['a'] }]);
  });
});

describe('CEL rule sites', () => {
  test('every node with rules, by its path in the CRD', () => {
    const sites = collectValidationRules(crd, FieldPath.root('spec').child('validation', 'openAPIV3Schema'));
    expect(sites.map((s) => [s.path.toString(), s.rules.map((r) => r.rule)])).toEqual([
      ['spec.validation.openAPIV3Schema.properties[spec]', ['self.replicas >= 0']],
      ['spec.validation.openAPIV3Schema.properties[spec].properties[ports].items.properties[n]', ['self > oldSelf']],
    ]);
  });

  test('values with rules, with old values correlated as for oldSelf', () => {
    const seen: Array<[string | undefined, unknown, unknown]> = [];
    const visit = (t: RuleTarget) => seen.push([t.path?.toString(), t.value, t.oldValue]);
    const obj = { spec: { replicas: 1, ports: [{ name: 'b', n: 2 }, { name: 'a', n: 5 }] } };
    const old = { spec: { replicas: 0, ports: [{ name: 'a', n: 4 }] } };
    forEachRuleTarget(crd, obj, old, visit);
    expect(seen).toEqual([
      ['spec', obj.spec, old.spec],
      ['spec.ports[0].n', 2, undefined],
      ['spec.ports[1].n', 5, 4],
    ]);
  });
});
