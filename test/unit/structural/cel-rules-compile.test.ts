/** x-kubernetes-validations at CRD validation: compile errors, cost limits with cardinality, oldSelf placement, with upstream's paths and messages. */
import { errorText, FieldPath } from '../../../src/machinery/field-errors';
import { compileSchemaRules, compiledRulesFor } from '../../../src/machinery/structural/cel-schema-rules';
import { CRDSchemaOptions, validateCRDSchema } from '../../../src/machinery/structural/crd-schema-check';
import type { JSONSchemaProps, ValidationRule } from '../../../src/machinery/structural/json-schema-props';

const P = 'spec.validation.openAPIV3Schema';
const at = FieldPath.root(P);
const compile = (s: JSONSchemaProps, suppressPerExpressionCost = false) => compileSchemaRules(s, at, { suppressPerExpressionCost }).errors.map(errorText);
const withSpec = (spec: JSONSchemaProps): JSONSchemaProps => ({ type: 'object', properties: { spec } });
const rulesOn = (spec: JSONSchemaProps, ...rules: ValidationRule[]) => withSpec({ ...spec, 'x-kubernetes-validations': rules });
const replicas: JSONSchemaProps = { type: 'object', properties: { replicas: { type: 'integer' }, max: { type: 'integer' } } };
const tooCostly = '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';
const goRule = (rule: string, extra = '') =>
  `apiextensions.ValidationRule{Rule:${JSON.stringify(rule)}, Message:"", MessageExpression:${JSON.stringify(extra)}, Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}`;
const R = `${P}.properties[spec].x-kubernetes-validations`;

describe('compiling rules', () => {
  test('well-typed rules compile without errors', () => {
    expect(compile(rulesOn(replicas, { rule: 'self.replicas <= self.max' }, { rule: 'self.replicas >= 0', messageExpression: "'replicas: %d'.format([self.replicas])", fieldPath: '.replicas' }))).toEqual([]);
  });

  test('concatenating a string() of a number is estimated as an unbounded string, as upstream does', () => {
    expect(compile(rulesOn(replicas, { rule: 'self.replicas >= 0', messageExpression: "'replicas: ' + string(self.replicas)" }))[0]).toBe(
      `${R}[0].messageExpression: Forbidden: estimated messageExpression cost exceeds budget by factor of more than 100x ${tooCostly}`,
    );
  });

  test.each([
    ['self.x > 0', `${R}[0].rule: Invalid value: ${goRule('self.x > 0')}: compilation failed: ERROR: <input>:1:5: undefined field 'x'\n | self.x > 0\n | ....^`],
    ['self.replicas', `${R}[0].rule: Invalid value: ${goRule('self.replicas')}: cel expression must evaluate to a bool`],
  ])('%s', (rule, error) => {
    expect(compile(rulesOn(replicas, { rule }))).toEqual([error]);
  });

  test('syntax errors: upstream position and layout (the parser words its message its own way, docs/cel.md)', () => {
    expect(compile(rulesOn(replicas, { rule: 'self.replicas +' }))).toEqual([
      expect.stringMatching(/^spec\.validation\.openAPIV3Schema\.properties\[spec\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: apiextensions\.ValidationRule\{.*\}: compilation failed: ERROR: <input>:1:\d+: Syntax error: .*\n \| self\.replicas \+\n \| \.+\^$/),
    ]);
  });

  test('messageExpressions must compile to a string; a failing one leaves the rule alone', () => {
    expect(compile(rulesOn(replicas, { rule: 'self.replicas >= 0', messageExpression: 'self.replicas' }))).toEqual([
      `${R}[0].messageExpression: Invalid value: ${goRule('self.replicas >= 0', 'self.replicas')}: messageExpression must evaluate to a string`,
    ]);
    expect(compile(rulesOn(replicas, { rule: 'self.replicas >= 0', messageExpression: 'self.nope' }))).toEqual([
      `${R}[0].messageExpression: Invalid value: ${goRule('self.replicas >= 0', 'self.nope')}: messageExpression compilation failed: ERROR: <input>:1:5: undefined field 'nope'\n | self.nope\n | ....^`,
    ]);
  });

  test('the rule is printed as Go prints the internal struct, set pointers as an address', () => {
    const [err] = compile(rulesOn(replicas, { rule: 'self.x', message: 'm "q"', reason: 'FieldValueForbidden', fieldPath: '.replicas', optionalOldSelf: true }));
    expect(err).toContain(
      'Invalid value: apiextensions.ValidationRule{Rule:"self.x", Message:"m \\"q\\"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(0xc000000000), FieldPath:".replicas", OptionalOldSelf:(*bool)(0xc000000000)}: compilation failed',
    );
  });

  test('a resource root sees apiVersion, kind and metadata.name; nested nodes do not', () => {
    const root: JSONSchemaProps = { type: 'object', 'x-kubernetes-validations': [{ rule: "self.metadata.name.startsWith('a') && self.kind == 'Foo'" }], properties: { spec: replicas } };
    expect(compile(root)).toEqual([]);
    expect(compile(rulesOn(replicas, { rule: 'self.kind == "Foo"' }))[0]).toContain("undefined field 'kind'");
  });

  test('a node rules cannot see has no type information', () => {
    expect(compile(withSpec({ type: 'object', properties: { any: { 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-validations': [{ rule: 'true' }] } } }))).toEqual([
      `${P}.properties[spec].properties[any].x-kubernetes-validations: Internal error: internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations`,
    ]);
  });
});

describe('oldSelf and optionalOldSelf', () => {
  const list = (listType: Record<string, unknown>, rule: ValidationRule): JSONSchemaProps =>
    withSpec({ type: 'object', properties: { l: { type: 'array', maxItems: 10, ...listType, items: { type: 'object', required: ['k'], properties: { k: { type: 'string', maxLength: 16 } }, 'x-kubernetes-validations': [rule] } } } });
  const transition = { rule: 'self.k == oldSelf.k' };

  test('only where old and new values correlate: map lists yes, other lists no', () => {
    expect(compile(list({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'] }, transition))).toEqual([]);
    const path = `${P}.properties[spec].properties[l]`;
    expect(compile(list({}, transition))).toEqual([`${path}.items.x-kubernetes-validations[0].rule: Invalid value: "self.k == oldSelf.k": oldSelf cannot be used on the uncorrelatable portion of the schema within ${path}`]);
    expect(compile(list({ 'x-kubernetes-list-type': 'set' }, transition))[0]).toContain('oldSelf cannot be used on the uncorrelatable portion of the schema within');
    // The highest uncorrelatable ancestor is named.
    const nested = withSpec({ type: 'array', maxItems: 5, items: { type: 'array', maxItems: 5, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: { type: 'object', required: ['k'], properties: { k: { type: 'string', maxLength: 16 } }, 'x-kubernetes-validations': [transition] } } });
    expect(compile(nested)[0]).toMatch(/within spec\.validation\.openAPIV3Schema\.properties\[spec\]$/);
  });

  test('map values pair by key', () => {
    expect(compile(withSpec({ type: 'object', maxProperties: 10, additionalProperties: { type: 'string', maxLength: 64, 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] } }))).toEqual([]);
  });

  test('optionalOldSelf types oldSelf as an optional, and needs oldSelf', () => {
    expect(compile(rulesOn(replicas, { rule: '!oldSelf.hasValue() || self.replicas >= oldSelf.value().replicas', optionalOldSelf: true }))).toEqual([]);
    expect(compile(rulesOn(replicas, { rule: 'self.replicas >= 0', optionalOldSelf: false }))).toEqual([`${R}[0].optionalOldSelf: Invalid value: false: may not be set if oldSelf is not used in rule`]);
    expect(compile(rulesOn(replicas, { rule: 'self.replicas >= oldSelf.replicas', optionalOldSelf: true }))[0]).toContain("type 'optional_type(Object)' does not support field selection");
  });
});

describe('cost limits', () => {
  const tags = (maxLength?: number, maxItems?: number): JSONSchemaProps =>
    withSpec({
      type: 'object',
      properties: { tags: { type: 'array', ...(maxItems === undefined ? {} : { maxItems }), items: { type: 'string', ...(maxLength === undefined ? {} : { maxLength }) }, 'x-kubernetes-validations': [{ rule: "self.all(x, x.contains('gpu'))" }] } },
    });
  const T = `${P}.properties[spec].properties[tags].x-kubernetes-validations[0].rule`;

  test('an unbounded list of unbounded strings is refused three times: the rule, its share, the total', () => {
    expect(compile(tags())).toEqual([
      `${T}: Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${tooCostly}`,
      `${T}: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
      `${P}: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${tooCostly}`,
    ]);
    expect(compile(tags(63, 25))).toEqual([]);
  });

  // The largest maxItems kube-apiserver v0.36 accepts for this rule, per maxLength, as measured against
  // the real validator (a public CRD tutorial's binary search); one more item must tip the estimate over.
  test.each([
    [16, 909_090],
    [63, 333_333],
    [253, 94_339],
    [1024, 24_154],
  ])('maxLength %d accepts at most maxItems %d', (maxLength, maxItems) => {
    expect(compile(tags(maxLength, maxItems))).toEqual([]);
    expect(compile(tags(maxLength, maxItems + 1))).toEqual([expect.stringMatching(/^.*rule: Forbidden: estimated rule cost exceeds budget by factor of 1\.0000\d\dx /)]);
  });

  test('a rule costs once per place its node can occur: the product of the bounds above it', () => {
    const item = (maxItems?: number, innerMax?: number): JSONSchemaProps =>
      withSpec({ type: 'object', properties: { outer: { type: 'array', ...(maxItems ? { maxItems } : {}), items: { type: 'object', properties: { names: { type: 'array', ...(innerMax ? { maxItems: innerMax } : {}), items: { type: 'string', maxLength: 64 }, 'x-kubernetes-validations': [{ rule: "self.all(x, x.contains('a'))" }] } } } } } });
    const cost = (s: JSONSchemaProps) => compileSchemaRules(s, at).totalCost;
    const one = cost(withSpec({ type: 'object', properties: { names: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 64 }, 'x-kubernetes-validations': [{ rule: "self.all(x, x.contains('a'))" }] } } }));
    expect(cost(item(100, 10))).toBe(one * 100);
    // Unbounded above: as many of the node's smallest JSON form ({} for the item object) as fit in 3 MiB.
    expect(cost(item(undefined, 10))).toBe(one * Math.floor((3 * 1024 * 1024) / 3));
  });

  test('the schema total counts every rule and messageExpression; the costliest four are named', () => {
    const props: Record<string, JSONSchemaProps> = {};
    for (const n of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l']) {
      props[n] = { type: 'array', maxItems: 900_000, items: { type: 'string', maxLength: 16 }, 'x-kubernetes-validations': [{ rule: "self.all(x, x.contains('gpu'))" }] };
    }
    const errs = compile(withSpec({ type: 'object', properties: props }));
    expect(errs).toHaveLength(5);
    expect(errs.slice(0, 4)).toEqual(['a', 'b', 'c', 'd'].map((n) => `${P}.properties[spec].properties[${n}].x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`));
    expect(errs[4]).toBe(`${P}: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 1.188000x ${tooCostly}`);
  });

  test('messageExpressions have their own limit, without the cardinality', () => {
    const s = rulesOn({ type: 'object', properties: { s: { type: 'string' } } }, { rule: 'true', messageExpression: "self.s + self.s + self.s + self.s + self.s + self.s + self.s + self.s + self.s + self.s + self.s + self.s + self.s + self.s + self.s + self.s + self.s + self.s + self.s + self.s + self.s + self.s + self.s + self.s + self.s + self.s + self.s + self.s + self.s + self.s + self.s + self.s + self.s + self.s + self.s" });
    expect(compile(s)).toEqual([
      expect.stringMatching(/^spec\.validation\.openAPIV3Schema\.properties\[spec\]\.x-kubernetes-validations\[0\]\.messageExpression: Forbidden: estimated messageExpression cost exceeds budget by factor of /),
      `${R}[0].messageExpression: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
      expect.stringMatching(/^spec\.validation\.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total/),
    ]);
  });

  test('an unchanged version (on update) skips the per-expression limit, not the total', () => {
    expect(compile(tags(), true)).toEqual([
      `${T}: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
      `${P}: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${tooCostly}`,
    ]);
    expect(compile(tags(63, 400_000), true)).toEqual([]);
  });
});

describe('within the CRD schema checks', () => {
  const opts: CRDSchemaOptions = { allowDefaults: true, requireValidPropertyType: true, requireAtomicSetType: true, requireMapListKeysMapSetValidation: true, requireStructuralSchema: true, requirePrunedDefaults: true };
  const check = (s: JSONSchemaProps) => validateCRDSchema(s, false, opts, FieldPath.root('spec').child('validation')).map(errorText);

  test('rules compile after the schema errors, and not where the subtree has one', () => {
    const s = withSpec({
      type: 'object',
      properties: {
        a: { type: 'object', properties: { n: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.nope', fieldPath: '.missing' }] },
        b: { type: 'object', properties: { n: { type: 'integer', uniqueItems: true } }, 'x-kubernetes-validations': [{ rule: 'self.nope' }] },
        c: { type: 'object', properties: { n: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.nope' }] },
      },
    });
    expect(check(s)).toEqual([
      `${P}.properties[spec].properties[a].x-kubernetes-validations[0].fieldPath: Invalid value: ".missing": fieldPath must be a valid path`,
      `${P}.properties[spec].properties[b].properties[n].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
      expect.stringMatching(/^spec\.validation\.openAPIV3Schema\.properties\[spec\]\.properties\[c\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: .*undefined field 'nope'/),
    ]);
  });

  test('no rule compiles while the schema is not structural', () => {
    expect(check({ type: 'object', properties: { spec: { type: 'object', properties: { x: {} }, 'x-kubernetes-validations': [{ rule: 'self.nope' }] } } })).toEqual([
      `${P}.properties[spec].properties[x].type: Required value: must not be empty for specified object fields`,
    ]);
  });

  test('defaults must pass the rules of their node, as an update and as a create', () => {
    const s = withSpec({ type: 'object', default: { replicas: 6, max: 5 }, properties: replicas.properties, 'x-kubernetes-validations': [{ rule: 'self.replicas <= self.max', message: 'too many' }] });
    expect(check(s)).toEqual([`${P}.properties[spec].default: Invalid value: too many`]);
    const create = withSpec({ type: 'object', default: { replicas: 1 }, properties: replicas.properties, 'x-kubernetes-validations': [{ rule: 'oldSelf.hasValue()', optionalOldSelf: true, message: 'needs old' }] });
    expect(check(create)).toEqual([`${P}.properties[spec].default: Invalid value: needs old`]);
  });
});

test('compiled once per schema object', () => {
  const s = rulesOn(replicas, { rule: 'self.replicas <= self.max' });
  expect(compiledRulesFor(s)).toBe(compiledRulesFor(s));
  expect(compiledRulesFor(s).root?.properties?.[0][1].node?.rules[0].program).toBe(compileSchemaRules(s, at).rules.root?.properties?.[0][1].node?.rules[0].program);
  expect(compiledRulesFor(withSpec(replicas))).toEqual({});
});
