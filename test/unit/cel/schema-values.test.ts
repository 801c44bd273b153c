import { compileRule } from '../../../src/machinery/cel/compile';
import { escapePropertyName } from '../../../src/machinery/cel/escaping';
import { evaluate } from '../../../src/machinery/cel/evaluate';
import { crdRuleEnvironment, RuleTypeError } from '../../../src/machinery/cel/presets';
import { schemaDeclType, type OpenApiSchema } from '../../../src/machinery/cel/schema-types';
import { typeName } from '../../../src/machinery/cel/types';
import { fromCelValue, toCelValue } from '../../../src/machinery/cel/values';

const spec: OpenApiSchema = {
  type: 'object',
  required: ['replicas'],
  properties: {
    replicas: { type: 'integer' },
    ratio: { type: 'number' },
    port: { 'x-kubernetes-int-or-string': true },
    until: { type: 'string', format: 'date-time' },
    timeout: { type: 'string', format: 'duration' },
    data: { type: 'string', format: 'byte' },
    'dashed-name': { type: 'string' },
    namespace: { type: 'string' },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    items: { type: 'array', maxItems: 4, items: { type: 'object', properties: { name: { type: 'string', maxLength: 10 } } } },
    free: { 'x-kubernetes-preserve-unknown-fields': true },
  },
};

function check(rule: string, value: unknown, oldValue?: unknown) {
  const { env } = crdRuleEnvironment(spec, false);
  const compiled = compileRule(rule, env);
  if (compiled.error !== undefined) return { compileError: compiled.error };
  const r = evaluate(compiled.program, { self: toCelValue(value, spec), oldSelf: toCelValue(oldValue ?? value, spec) });
  return r.error !== undefined ? { error: r.error } : { value: fromCelValue(r.value) };
}

describe('schema to CEL types (upstream SchemaDeclType)', () => {
  it('types each kind of node', () => {
    const decl = schemaDeclType(spec, false, 'Spec')!;
    if (decl.type.kind !== 'object') throw new Error('expected an object');
    const field = (n: string) => typeName(decl.type.kind === 'object' ? decl.type.fields.get(n)! : decl.type);
    expect(field('replicas')).toBe('int');
    expect(field('ratio')).toBe('double');
    expect(field('port')).toBe('dyn');
    expect(field('until')).toBe('google.protobuf.Timestamp');
    expect(field('timeout')).toBe('google.protobuf.Duration');
    expect(field('data')).toBe('bytes');
    expect(field('dashed__dash__name')).toBe('string');
    expect(field('__namespace__')).toBe('string');
    expect(field('labels')).toBe('map(string, string)');
    expect(field('items')).toBe('list(Spec.items.@idx)');
    expect(decl.type.fields.has('free')).toBe(false);
  });

  it('bounds sizes by schema limits or by the request size', () => {
    const decl = schemaDeclType(spec, false)!;
    const items = decl.bounds.fields!.get('items')!;
    expect(items.maxElements).toBe(4);
    expect(items.items!.fields!.get('name')!.maxElements).toBe(40);
    expect(decl.bounds.fields!.get('labels')!.maxElements).toBe(Math.floor((3 * 1024 * 1024 - 2) / (2 + 6)));
    expect(decl.bounds.fields!.get('until')!.maxElements).toBe(32);
  });

  it('adds apiVersion, kind and metadata.name at a resource root', () => {
    const decl = schemaDeclType({ type: 'object', properties: { spec } }, true)!;
    expect(decl.type.kind === 'object' && [...decl.type.fields.keys()].sort()).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
  });

  it('refuses rules on nodes CEL cannot type, with upstream text', () => {
    expect(() => crdRuleEnvironment({ 'x-kubernetes-preserve-unknown-fields': true }, false)).toThrow(
      new RuleTypeError("rule declared on schema that does not support validation rules type: '' x-kubernetes-preserve-unknown-fields: 'true'"),
    );
  });

  it('escapes property names as upstream', () => {
    expect(escapePropertyName('a.b-c/d__e')).toBe('a__dot__b__dash__c__slash__d__underscores__e');
    expect(escapePropertyName('in')).toBe('__in__');
    expect(escapePropertyName('a b')).toBeUndefined();
  });
});

describe('JSON values as CEL sees them', () => {
  const value = {
    replicas: 3,
    ratio: 2,
    port: 8080,
    until: '2030-01-02T03:04:05.123456789Z',
    timeout: '1h30m',
    data: 'aGk=',
    'dashed-name': 'd',
    namespace: 'ns',
    labels: { 'app.kubernetes.io/name': 'web' },
    items: [{ name: 'a' }],
  };

  it.each([
    ['type(self.replicas) == int', true],
    ['type(self.ratio) == double', true],
    ['type(self.port) == int && self.port == 8080', true],
    ["self.until > timestamp('2029-12-31T00:00:00Z')", true],
    ['self.until.getMilliseconds()', 123],
    ["self.timeout == duration('90m')", true],
    ["self.data == b'hi'", true],
    ["self.dashed__dash__name + self.__namespace__", 'dns'],
    ["self.labels['app.kubernetes.io/name']", 'web'],
    ['self.items[0].name', 'a'],
    ['self.replicas >= oldSelf.replicas', true],
  ])('%s', (rule, expected) => {
    expect(check(rule, value)).toEqual({ value: expected });
  });

  it('keeps int-or-string strings as strings', () => {
    expect(check("type(self.port) == string && self.port.endsWith('%')", { ...value, port: '50%' })).toEqual({ value: true });
  });

  it('compares against the old object in transition rules', () => {
    expect(check('self.replicas >= oldSelf.replicas', { ...value, replicas: 1 }, value)).toEqual({ value: false });
  });

  it('reads whole numbers in untyped data as ints', () => {
    expect(fromCelValue(toCelValue({ a: 1, b: 1.5 }))).toEqual({ a: 1, b: 1.5 });
    expect(typeof (toCelValue({ a: 1 }) as Record<string, unknown>).a).toBe('bigint');
  });
});
