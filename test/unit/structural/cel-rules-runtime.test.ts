/** x-kubernetes-validations on custom resources: messages, reasons, field paths, transition rules, ratcheting and the cost budget, as upstream reports them. */
import { errorText, FieldPath } from '../../../src/machinery/field-errors';
import { compiledRulesFor } from '../../../src/machinery/structural/cel-schema-rules';
import { celValidator, celValidatorFor } from '../../../src/machinery/structural/cel-validator';
import type { JSONSchemaProps, ValidationRule } from '../../../src/machinery/structural/json-schema-props';

type Obj = Record<string, unknown>;
const replicas: Record<string, JSONSchemaProps> = { replicas: { type: 'integer' }, max: { type: 'integer' }, name: { type: 'string', maxLength: 64 }, note: { type: 'string' } };
const withSpec = (spec: JSONSchemaProps): JSONSchemaProps => ({ type: 'object', properties: { spec } });
const specRules = (...rules: ValidationRule[]) => withSpec({ type: 'object', properties: replicas, 'x-kubernetes-validations': rules });
const run = (schema: JSONSchemaProps, obj: unknown, old?: unknown) => {
  const r = celValidatorFor(schema)(obj, old);
  return { errors: r.errors.map(errorText), warnings: r.warnings };
};
const errors = (schema: JSONSchemaProps, obj: unknown, old?: unknown) => run(schema, obj, old).errors;

describe('the error of a rule that does not hold', () => {
  const bad = { spec: { replicas: 6, max: 5 } };

  test('message, or failed rule: <rule>; objects and lists show no value', () => {
    expect(errors(specRules({ rule: ' self.replicas <= self.max ' }), bad)).toEqual(['spec: Invalid value: failed rule: self.replicas <= self.max']);
    expect(errors(specRules({ rule: 'self.replicas <= self.max', message: ' too many ' }), bad)).toEqual(['spec: Invalid value: too many']);
    expect(errors(specRules({ rule: 'self.replicas <= self.max' }), { spec: { replicas: 5, max: 5 } })).toEqual([]);
  });

  test('scalars show their value, as Go prints it', () => {
    const s = withSpec({ type: 'object', properties: { n: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self < 5' }] }, f: { type: 'number', 'x-kubernetes-validations': [{ rule: 'self < 5.0' }] }, s: { type: 'string', maxLength: 8, 'x-kubernetes-validations': [{ rule: "self != 'x'", message: 'not x' }] } } });
    expect(errors(s, { spec: { n: 6, f: 12345678.5, s: 'x' } })).toEqual(['spec.f: Invalid value: 1.23456785e+07: failed rule: self < 5.0', 'spec.n: Invalid value: 6: failed rule: self < 5', 'spec.s: Invalid value: "x": not x']);
  });

  test('a rule on the resource itself reports at <nil>, as upstream validates from a nil path', () => {
    const s: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object', properties: replicas } }, 'x-kubernetes-validations': [{ rule: "self.metadata.name.startsWith('a')" }] };
    expect(errors(s, { metadata: { name: 'b' }, spec: {} })).toEqual(["<nil>: Invalid value: failed rule: self.metadata.name.startsWith('a')"]);
    expect(celValidatorFor(s)({ metadata: { name: 'b' } }, undefined, { path: FieldPath.root('x') }).errors.map(errorText)).toEqual(["x: Invalid value: failed rule: self.metadata.name.startsWith('a')"]);
  });

  test('messageExpression, with upstream fallbacks to the message when it fails, is empty, multi-line or too long', () => {
    const rule = (messageExpression: string) => specRules({ rule: 'self.replicas <= self.max', message: 'static', messageExpression });
    expect(errors(rule("'%d is more than %d'.format([self.replicas, self.max])"), bad)).toEqual(['spec: Invalid value: 6 is more than 5']);
    expect(errors(rule("'  padded  '"), bad)).toEqual(['spec: Invalid value: padded']);
    expect(errors(rule("' '"), bad)).toEqual(['spec: Invalid value: static']);
    expect(errors(rule("'a\\nb'"), bad)).toEqual(['spec: Invalid value: static']);
    expect(errors(rule('self.note'), { spec: { ...bad.spec, note: 'x'.repeat(5121) } })).toEqual(['spec: Invalid value: static']);
    expect(errors(rule('self.note'), { spec: { ...bad.spec, note: 'x'.repeat(5120) } })).toEqual([`spec: Invalid value: ${'x'.repeat(5120)}`]);
    expect(errors(rule('string(self.replicas / 0)'), bad)).toEqual(['spec: Invalid value: static']);
    expect(errors(specRules({ rule: 'self.replicas <= self.max', messageExpression: 'string(self.replicas / 0)' }), bad)).toEqual(['spec: Invalid value: failed rule: self.replicas <= self.max']);
  });

  test('reason picks the error type; Duplicate carries no message', () => {
    const reason = (r: string) => errors(specRules({ rule: 'self.replicas <= self.max', message: 'm', reason: r }), bad);
    expect(reason('FieldValueForbidden')).toEqual(['spec: Forbidden: m']);
    expect(reason('FieldValueRequired')).toEqual(['spec: Required value: m']);
    expect(reason('FieldValueDuplicate')).toEqual(['spec: Duplicate value']);
    expect(reason('FieldValueInvalid')).toEqual(['spec: Invalid value: m']);
  });

  test('fieldPath places the error below the node', () => {
    expect(errors(specRules({ rule: 'self.replicas <= self.max', message: 'm', fieldPath: '.replicas' }), bad)).toEqual(['spec.replicas: Invalid value: m']);
    const map = withSpec({ type: 'object', properties: { m: { type: 'object', maxProperties: 4, additionalProperties: { type: 'integer' }, 'x-kubernetes-validations': [{ rule: "self['a.b'] > 0", fieldPath: "['a.b']", message: 'm' }] } } });
    // upstream appends the normalized path as one more segment.
    expect(errors(map, { spec: { m: { 'a.b': 0 } } })).toEqual(['spec.m.[a.b]: Invalid value: m']);
  });

  test('evaluation errors show the node type and name the rule (by its message when it has one)', () => {
    const s = withSpec({ type: 'object', properties: { m: { type: 'object', maxProperties: 4, additionalProperties: { type: 'integer' }, 'x-kubernetes-validations': [{ rule: "self['x'] > 0" }, { rule: "self['y'] > 0", message: 'needs y' }] } } });
    expect(errors(s, { spec: { m: {} } })).toEqual([
      `spec.m: Invalid value: "object": no such key: x evaluating rule: self['x'] > 0`,
      'spec.m: Invalid value: "object": no such key: y evaluating rule: needs y',
    ]);
    const ios = withSpec({ type: 'object', properties: { port: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-validations': [{ rule: 'self + 1 > 0' }] } } });
    expect(errors(ios, { spec: { port: 'http' } })).toEqual([
      `spec.port: Invalid value: "": 'no such overload': call arguments did not match a supported operator, function or macro signature for rule: self + 1 > 0`,
    ]);
    expect(errors(ios, { spec: { port: 80 } })).toEqual([]);
  });

  test('a rule that does not compile is reported at every value it applies to', () => {
    expect(errors(specRules({ rule: 'self.nope > 0' }), bad)[0]).toMatch(/^spec: Invalid value: "object": rule compile error: compilation failed: ERROR: <input>:1:5: undefined field 'nope'/);
  });

  test('null and absent values run no rules', () => {
    expect(errors(specRules({ rule: 'false' }), { spec: null })).toEqual([]);
    expect(errors(specRules({ rule: 'false' }), {})).toEqual([]);
  });
});

describe('transition rules', () => {
  const noDown = specRules({ rule: 'self.replicas >= oldSelf.replicas', message: 'no scaling down' });

  test('run only on update, against the old value', () => {
    expect(errors(noDown, { spec: { replicas: 1 } })).toEqual([]);
    expect(errors(noDown, { spec: { replicas: 1 } }, { spec: { replicas: 2 } })).toEqual(['spec: Invalid value: no scaling down']);
    expect(errors(noDown, { spec: { replicas: 3 } }, { spec: { replicas: 2 } })).toEqual([]);
    expect(errors(noDown, { spec: { replicas: 1 } }, { metadata: {} })).toEqual([]);
  });

  test('optionalOldSelf rules also run on create, with oldSelf an empty optional', () => {
    const s = specRules({ rule: '!oldSelf.hasValue() ? self.replicas <= 3 : self.replicas >= oldSelf.value().replicas', optionalOldSelf: true, message: 'm' });
    expect(errors(s, { spec: { replicas: 4 } })).toEqual(['spec: Invalid value: m']);
    expect(errors(s, { spec: { replicas: 2 } })).toEqual([]);
    expect(errors(s, { spec: { replicas: 4 } }, { spec: { replicas: 5 } })).toEqual(['spec: Invalid value: m']);
    expect(errors(s, { spec: { replicas: 9 } }, { spec: { replicas: 5 } })).toEqual([]);
  });

  test('map-list items pair with the old item of the same key; atomic-list items have no old value', () => {
    const item: JSONSchemaProps = { type: 'object', required: ['k'], properties: { k: { type: 'string', maxLength: 8 }, v: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.v >= oldSelf.v', message: 'v went down' }] };
    const s = withSpec({ type: 'object', properties: { l: { type: 'array', maxItems: 8, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: item } } });
    const old = { spec: { l: [{ k: 'a', v: 5 }, { k: 'b', v: 1 }] } };
    expect(errors(s, { spec: { l: [{ k: 'b', v: 0 }, { k: 'a', v: 5 }, { k: 'c', v: 0 }] } }, old)).toEqual(['spec.l[0]: Invalid value: v went down']);
  });

  test('map values pair by key', () => {
    const s = withSpec({ type: 'object', properties: { m: { type: 'object', maxProperties: 8, additionalProperties: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self >= oldSelf' }] } } } });
    expect(errors(s, { spec: { m: { a: 1, b: 1 } } }, { spec: { m: { a: 2 } } })).toEqual(['spec.m[a]: Invalid value: 1: failed rule: self >= oldSelf']);
  });
});

describe('ratcheting on update', () => {
  const s = specRules({ rule: 'self.replicas <= self.max', message: 'too many' });

  test('a failing rule on an unchanged value warns instead of refusing', () => {
    expect(run(s, { spec: { replicas: 6, max: 5 } }, { spec: { replicas: 6, max: 5 } })).toEqual({ errors: [], warnings: ['spec: Invalid value: too many'] });
    expect(run(s, { spec: { replicas: 7, max: 5 } }, { spec: { replicas: 6, max: 5 } })).toEqual({ errors: ['spec: Invalid value: too many'], warnings: [] });
    expect(celValidatorFor(s)({ spec: { replicas: 6, max: 5 } }, { spec: { replicas: 6, max: 5 } }, { ratcheting: false }).errors).toHaveLength(1);
  });

  test('transition rules are never ratcheted', () => {
    const t = specRules({ rule: 'self.replicas > oldSelf.replicas', message: 'must grow' });
    expect(run(t, { spec: { replicas: 1 } }, { spec: { replicas: 1 } })).toEqual({ errors: ['spec: Invalid value: must grow'], warnings: [] });
  });

  test('items of lists that do not pair ratchet when the whole list is unchanged', () => {
    const l = withSpec({ type: 'object', properties: { l: { type: 'array', maxItems: 8, items: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self < 5' }] } } } });
    expect(run(l, { spec: { l: [1, 7] } }, { spec: { l: [1, 7] } })).toEqual({ errors: [], warnings: ['spec.l[1]: Invalid value: 7: failed rule: self < 5'] });
    expect(run(l, { spec: { l: [7, 1] } }, { spec: { l: [1, 7] } }).errors).toEqual(['spec.l[0]: Invalid value: 7: failed rule: self < 5']);
  });

  test('a reordered map list is unchanged; a field the schema does not know makes its object differ', () => {
    const item: JSONSchemaProps = { type: 'object', required: ['k'], properties: { k: { type: 'string', maxLength: 8 }, v: { type: 'integer' } } };
    const ml = withSpec({ type: 'object', properties: { l: { type: 'array', maxItems: 8, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: item, 'x-kubernetes-validations': [{ rule: 'self.size() < 2' }] } } });
    expect(run(ml, { spec: { l: [{ k: 'b' }, { k: 'a' }] } }, { spec: { l: [{ k: 'a' }, { k: 'b' }] } }).warnings).toHaveLength(1);
    const open = withSpec({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: replicas, 'x-kubernetes-validations': [{ rule: 'self.replicas < 5' }] });
    expect(run(open, { spec: { replicas: 6, extra: 1 } }, { spec: { replicas: 6, extra: 1 } }).errors).toHaveLength(1);
  });

  test('rules on apiVersion and kind are not ratcheted', () => {
    const k: JSONSchemaProps = { type: 'object', properties: { kind: { type: 'string', maxLength: 16, 'x-kubernetes-validations': [{ rule: "self == 'Foo'" }] } } };
    expect(run(k, { kind: 'Bar' }, { kind: 'Bar' }).errors).toEqual(['kind: Invalid value: "Bar": failed rule: self == \'Foo\'']);
  });
});

describe('the cost budget', () => {
  const expensive = (n: number) => withSpec({ type: 'object', properties: { l: { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': Array.from({ length: n }, () => ({ rule: 'self.all(x, self.exists_one(y, x == y))' })) } } });
  // 600 items make 360,000 inner iterations: past the per-call limit of 1,000,000.
  const big = { spec: { l: Array.from({ length: 600 }, (_, i) => `a${i}`) } };

  test('one rule over the per-call limit ends the validation', () => {
    expect(celValidatorFor(expensive(2))({ spec: { l: big.spec.l.slice(0, 100) } }, undefined).errors).toEqual([]);
    const r = celValidatorFor(expensive(2))(big, undefined);
    expect(r.errors.map(errorText)).toEqual([
      `spec.l: Invalid value: "array": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.all(x, self.exists_one(y, x == y))`,
    ]);
    expect(r.remainingBudget).toBe(-1);
  });

  test('rules together over the budget: the rest are not run', () => {
    const s = withSpec({ type: 'object', properties: { l: { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': [{ rule: "self.all(x, !x.contains('zz'))" }] } } });
    const obj = { spec: { l: Array.from({ length: 300 }, () => 'a'.repeat(2000)) } };
    const once = celValidatorFor(s)(obj, undefined);
    expect(once.errors).toEqual([]);
    const used = 10_000_000 - once.remainingBudget;
    const r = celValidatorFor(s)(obj, undefined, { budget: used - 1 });
    expect(r.errors.map(errorText)).toEqual(['spec.l: Invalid value: "array": validation failed due to running out of cost budget, no further validation rules will be run']);
    expect(celValidatorFor(s)(obj, undefined, { budget: 0 }).errors.map(errorText)).toEqual(['spec.l: Invalid value: "array": validation failed due to running out of cost budget, no further validation rules will be run']);
  });

  test('a messageExpression beyond the budget ends it too', () => {
    const s = withSpec({ type: 'object', properties: { l: { type: 'array', maxItems: 4000, items: { type: 'string', maxLength: 4000 }, 'x-kubernetes-validations': [{ rule: 'false', messageExpression: "self.exists(x, x.contains('zz')) ? 'a' : 'b'" }] } } });
    const r = celValidatorFor(s)({ spec: { l: Array.from({ length: 300 }, () => 'a'.repeat(2000)) } }, undefined, { budget: 10 });
    expect(r.errors.map(errorText)).toEqual(['spec.l: Invalid value: "array": messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run']);
  });
});

test('one validator per schema object; a schema without rules validates nothing', () => {
  const s = specRules({ rule: 'true' });
  expect(celValidatorFor(s)).toBe(celValidatorFor(s));
  expect(celValidator(compiledRulesFor(withSpec({ type: 'object' })))({ spec: {} } as Obj, undefined)).toEqual({ errors: [], warnings: [], remainingBudget: 10_000_000 });
});
