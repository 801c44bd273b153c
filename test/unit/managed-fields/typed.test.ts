/** Object -> field set, comparison, merge and removal, driven by list/map semantics of the schema. */
import {
  compare,
  merge,
  pathString,
  removeItems,
  setToFieldsV1,
  toFieldSet,
  validateConfig,
  validationMessage,
  FieldSet,
  field,
  keyElement,
} from '../../../src/machinery/managed-fields';
import { testSchema } from './schema-fixture';

const paths = (s: FieldSet) => s.paths().map(pathString);

describe('toFieldSet (what an applier owns)', () => {
  test('struct fields through their content, map entries and list items as members, atomic values as leaves', () => {
    const set = toFieldSet(
      {
        apiVersion: 'v1',
        metadata: { name: 'x', labels: { app: 'a' }, finalizers: ['f1'] },
        data: { k: 'v' },
        spec: { args: ['a', 'b'], ports: [{ port: 80, protocol: 'TCP', name: 'http' }], selector: { matchLabels: { a: 'b' } }, extra: { free: { x: 1 } } },
      },
      testSchema,
    );
    expect(paths(set)).toEqual([
      '.apiVersion',
      '.data.k',
      '.metadata.name',
      '.metadata.finalizers[="f1"]',
      '.metadata.labels.app',
      '.spec.args',
      '.spec.selector',
      '.spec.extra.free',
      '.spec.extra.free.x',
      '.spec.ports[port=80,protocol="TCP"]',
      '.spec.ports[port=80,protocol="TCP"].name',
      '.spec.ports[port=80,protocol="TCP"].port',
      '.spec.ports[port=80,protocol="TCP"].protocol',
    ]);
    expect(setToFieldsV1(set)).toMatchObject({ 'f:data': { 'f:k': {} }, 'f:metadata': { 'f:labels': { 'f:app': {} } } });
  });

  test('empty maps and nulls are owned as values', () => {
    expect(paths(toFieldSet({ data: {}, spec: { replicas: null } }, testSchema))).toEqual(['.data', '.spec.replicas']);
  });
});

describe('compare', () => {
  test('a container that appears is reported with everything below it', () => {
    const c = compare({ metadata: {} }, { metadata: { labels: { a: '1' } }, data: { k: 'v' } }, testSchema);
    expect(paths(c.added)).toEqual(['.data', '.data.k', '.metadata.labels', '.metadata.labels.a']);
    expect(c.modified.empty() && c.removed.empty()).toBe(true);
    expect(setToFieldsV1(c.added)).toEqual({ 'f:data': { '.': {}, 'f:k': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } } });
  });

  test('leaves modified, entries removed, atomic lists compared whole', () => {
    const c = compare(
      { data: { a: '1', b: '2' }, spec: { args: ['x'], replicas: 1 } },
      { data: { a: '9' }, spec: { args: ['x', 'y'], replicas: 1 } },
      testSchema,
    );
    expect(paths(c.modified)).toEqual(['.data.a', '.spec.args']);
    expect(paths(c.removed)).toEqual(['.data.b']);
    expect(c.added.empty()).toBe(true);
  });

  test('map-list items by key, set items by value', () => {
    const c = compare(
      { metadata: { finalizers: ['a', 'b'] }, spec: { ports: [{ port: 80, protocol: 'TCP' }] } },
      { metadata: { finalizers: ['b', 'c'] }, spec: { ports: [{ port: 80, protocol: 'TCP', name: 'h' }, { port: 81, protocol: 'TCP' }] } },
      testSchema,
    );
    expect(paths(c.added)).toEqual([
      '.metadata.finalizers[="c"]',
      '.spec.ports[port=81,protocol="TCP"]',
      '.spec.ports[port=80,protocol="TCP"].name',
      '.spec.ports[port=81,protocol="TCP"].port',
      '.spec.ports[port=81,protocol="TCP"].protocol',
    ]);
    expect(paths(c.removed)).toEqual(['.metadata.finalizers[="a"]']);
  });

  test('no change, no difference', () => {
    const o = { metadata: { name: 'x', labels: { a: 'b' } }, data: {}, spec: { ports: [{ port: 1, protocol: 'UDP' }] } };
    const c = compare(o, structuredClone(o), testSchema);
    expect(c.added.empty() && c.modified.empty() && c.removed.empty()).toBe(true);
  });
});

describe('merge', () => {
  test('granular maps merge, atomic values replace', () => {
    expect(
      merge(
        { data: { a: '1' }, spec: { args: ['x'], selector: { matchLabels: { a: 'b', c: 'd' } } } },
        { data: { b: '2' }, spec: { args: ['y'], selector: { matchLabels: { e: 'f' } } } },
        testSchema,
      ),
    ).toEqual({ data: { a: '1', b: '2' }, spec: { args: ['y'], selector: { matchLabels: { e: 'f' } } } });
  });

  test('keyed lists: configured items take the configuration order, others stay in place', () => {
    const p = (port: number, name?: string) => ({ port, protocol: 'TCP', ...(name ? { name } : {}) });
    const out = merge({ spec: { ports: [p(1), p(2, 'old'), p(3)] } }, { spec: { ports: [p(3), p(2, 'new')] } }, testSchema);
    expect(out).toEqual({ spec: { ports: [p(1), p(3), p(2, 'new')] } });
    expect(merge({ metadata: { finalizers: ['a', 'x', 'b'] } }, { metadata: { finalizers: ['b', 'a'] } }, testSchema)).toEqual({
      metadata: { finalizers: ['x', 'b', 'a'] },
    });
  });

  test('removeItems leaves null where a container lost everything', () => {
    const obj = { data: { a: '1' }, spec: { ports: [{ port: 1, protocol: 'TCP' }], replicas: 2 } };
    const out = removeItems(obj, FieldSet.of([field('data'), field('a')], [field('spec'), field('ports'), keyElement({ port: 1, protocol: 'TCP' })]), testSchema);
    expect(out).toEqual({ data: null, spec: { ports: null, replicas: 2 } });
  });
});

describe('validateConfig (typed conversion of the apply patch)', () => {
  test('unknown fields: errors when strict, dropped and reported otherwise', () => {
    const strict = validateConfig({ spec: { foo: 1 }, data: { a: 'b' } }, testSchema, true);
    expect(strict.errors).toEqual(['.spec.foo: field not declared in schema']);
    const cfg: any = { spec: { foo: 1, ports: [{ port: 1, protocol: 'TCP', bar: 2 }] } };
    const lenient = validateConfig(cfg, testSchema, false);
    expect(lenient).toEqual({ errors: [], unknownFields: ['spec.foo', 'spec.ports[0].bar'] });
    expect(cfg).toEqual({ spec: { ports: [{ port: 1, protocol: 'TCP' }] } });
  });

  test('type errors, bad and duplicate list keys', () => {
    const r = validateConfig(
      { data: { a: 1 }, spec: { ports: [{ port: 1, protocol: 'TCP' }, { port: 1, protocol: 'TCP' }, { name: 'x' }], paused: 'yes' } },
      testSchema,
      true,
    );
    expect(r.errors).toEqual([
      '.data.a: expected string, got &value.valueUnstructured{Value:1}',
      '.spec.ports: duplicate entries for key [port=1,protocol="TCP"]',
      '.spec.ports: element 2: associative list with keys has an element that omits all key fields ["port" "protocol"] (and doesn\'t have default values for any key fields)',
      '.spec.paused: expected boolean, got &{yes}',
    ]);
    expect(validationMessage(r.errors.slice(0, 2))).toBe(
      'errors:\n  .data.a: expected string, got &value.valueUnstructured{Value:1}\n  .spec.ports: duplicate entries for key [port=1,protocol="TCP"]',
    );
  });
});
