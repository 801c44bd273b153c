/**
 * Keys a client chose that Object.prototype also answers (`constructor`, `toString`, `hasOwnProperty`, `__proto__`)
 * are fields like any other: unknown where the schema does not declare them, kept where it takes any key. Schema
 * lookups read plain objects as maps, and used to find Object.prototype's members there: such fields were neither
 * reported nor pruned, and were stored.
 */
import 'reflect-metadata';
import { fieldType, atomOf } from '../../../src/machinery/managed-fields/typed';
import { typeMetaFirst } from '../../../src/machinery/object';
import { checkAndPrune } from '../../../src/machinery/schema/decode';
import { kindSchema } from '../../../src/machinery/schema/schema';
import { decodeSchemaProps } from '../../../src/machinery/structural/decode-schema-props';
import { decodeObjectMeta } from '../../../src/machinery/structural/objectmeta-decode';
import { pruneUnknownFields } from '../../../src/machinery/structural/pruning';
import { compilePredicate } from '../../../src/registry/predicate';
import { configMapDefinition } from '../../../src/resources/config-map';

const body = () =>
  JSON.parse('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","toString":"x","__proto__":{"a":1}},"constructor":"x","hasOwnProperty":{"y":1},"data":{"constructor":"kept","__proto__":"kept"}}') as Record<string, unknown>;

describe('keys named like Object.prototype members', () => {
  test('a built-in kind reports them as unknown and prunes them; a map of any key keeps them', () => {
    const obj = body();
    const report = checkAndPrune(obj, kindSchema(configMapDefinition), '', 'ConfigMap');
    expect(report.unknownFields).toEqual(['metadata.toString', 'metadata.__proto__', 'constructor', 'hasOwnProperty']);
    expect(JSON.stringify(obj)).toBe('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"constructor":"kept","__proto__":"kept"}}');
  });

  test('a custom resource prunes them', () => {
    const obj = JSON.parse('{"apiVersion":"x.io/v1","kind":"X","metadata":{"name":"a"},"constructor":1,"spec":{"toString":"x","n":1}}');
    const schema = { type: 'object', properties: { spec: { type: 'object', properties: { n: { type: 'integer' } } } } };
    expect(pruneUnknownFields(obj, schema)).toEqual(['constructor', 'spec.toString']);
    expect(obj).toEqual({ apiVersion: 'x.io/v1', kind: 'X', metadata: { name: 'a' }, spec: { n: 1 } });
  });

  test("a CRD's schema and an embedded object's metadata skip them as fields they do not know", () => {
    expect(decodeSchemaProps({ type: 'object', constructor: { type: 'string' }, toString: 'x' }, 'spec')).toEqual({ type: 'object' });
    const unknown: string[] = [];
    const meta = decodeObjectMeta(JSON.parse('{"name":"a","constructor":"x","valueOf":1}'), unknown);
    expect(meta).toEqual({ ok: true, meta: { name: 'a' } });
    expect(unknown).toEqual(['metadata.constructor', 'metadata.valueOf']);
  });

  test('a field selector on them is an unknown field selector', () => {
    expect(() => compilePredicate(configMapDefinition, undefined, 'constructor=x')).toThrow('"constructor" is not a known field selector');
    expect(() => compilePredicate(configMapDefinition, undefined, 'toString=x')).toThrow('"toString" is not a known field selector');
  });

  test('managedFields see an undeclared key of a free-form map as undeclared', () => {
    expect(fieldType(atomOf(undefined, {}) as Extract<ReturnType<typeof atomOf>, { kind: 'map' }>, 'constructor')).toEqual({ schema: undefined, declared: false, known: true });
  });

  test('moving type meta first keeps a "__proto__" member a member', () => {
    const moved = typeMetaFirst(JSON.parse('{"metadata":{},"__proto__":{"spec":1},"kind":"X","apiVersion":"v1"}'));
    expect(Object.getPrototypeOf(moved)).toBe(Object.prototype);
    expect(JSON.stringify(moved)).toBe('{"kind":"X","apiVersion":"v1","metadata":{},"__proto__":{"spec":1}}');
  });
});
