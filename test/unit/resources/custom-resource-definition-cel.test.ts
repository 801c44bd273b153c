/** CustomResourceDefinition with x-kubernetes-validations: refused with a 422 as upstream when a rule does not compile or costs too much; unchanged versions keep their rules on update. */
import 'reflect-metadata';
import { errorText } from '../../../src/machinery/field-errors';
import type { KObject } from '../../../src/machinery/object';
import { ApiError } from '../../../src/machinery/status';
import { validateCreate } from '../../../src/registry/admission';
import { customResourceDefinitionDefinition as def } from '../../../src/resources/custom-resource-definition';
import { applyDefaults } from '../../../src/resources/custom-resource-definition/custom-resource-definition.strategy';
import { strategyContext } from '../../support/strategy-context';

type Obj = Record<string, unknown>;
const ctx = strategyContext();
const tooCostly = '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';

/** A schema whose spec.tags carries the rule; maxItems and maxLength bound its cost. */
function schema(rule: string, bounds: { maxItems?: number; maxLength?: number } = { maxItems: 10, maxLength: 16 }): Obj {
  const items = { type: 'string', ...(bounds.maxLength === undefined ? {} : { maxLength: bounds.maxLength }) };
  const tags = { type: 'array', ...(bounds.maxItems === undefined ? {} : { maxItems: bounds.maxItems }), items, 'x-kubernetes-validations': [{ rule }] };
  return { type: 'object', properties: { spec: { type: 'object', properties: { tags } } } };
}

function crd(versions: Obj[], extra: Obj = {}): KObject {
  const obj = {
    apiVersion: 'apiextensions.svc.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'foos.example.com' },
    spec: { group: 'example.com', names: { plural: 'foos', kind: 'Foo' }, scope: 'Namespaced', versions: structuredClone(versions) },
    ...structuredClone(extra),
  } as unknown as KObject;
  applyDefaults(obj);
  return obj;
}
const version = (name: string, openAPIV3Schema: Obj, storage = true) => ({ name, served: true, storage, schema: { openAPIV3Schema } });
const texts = (errs: unknown) => (errs as Parameters<typeof errorText>[0][]).map(errorText);
const T = 'spec.validation.openAPIV3Schema.properties[spec].properties[tags].x-kubernetes-validations[0]';

async function createError(obj: KObject): Promise<ApiError | undefined> {
  try {
    await validateCreate(def, obj, ctx);
    return undefined;
  } catch (e) {
    return e as ApiError;
  }
}

describe('creating a CRD with rules', () => {
  test('rules that compile within budget are accepted', async () => {
    expect(await createError(crd([version('v1', schema("self.all(x, x.startsWith('a'))"))]))).toBeUndefined();
  });

  test('a rule that does not compile is a 422 with upstream message and cause', async () => {
    const err = await createError(crd([version('v1', schema('self.nope == 1'))]));
    expect(err?.code).toBe(422);
    const detail =
      'Invalid value: apiextensions.ValidationRule{Rule:"self.nope == 1", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: ' +
      "compilation failed: ERROR: <input>:1:5: type 'list(string)' does not support field selection\n | self.nope == 1\n | ....^";
    expect(err?.message).toBe(`CustomResourceDefinition.apiextensions.svc.io "foos.example.com" is invalid: ${T}.rule: ${detail}`);
    expect(err?.status.details?.causes).toEqual([{ reason: 'FieldValueInvalid', message: detail, field: `${T}.rule` }]);
  });

  test('a rule over the cost budget is refused at create', async () => {
    const err = await createError(crd([version('v1', schema("self.all(x, x.contains('gpu'))", {}))]));
    expect(err?.code).toBe(422);
    expect(err?.status.details?.causes?.map((c) => `${c.field}: ${c.message}`)).toEqual([
      `${T}.rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${tooCostly}`,
      `${T}.rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
      `spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${tooCostly}`,
    ]);
  });

  test('versions with their own schemas report under spec.versions[i]', () => {
    const errs = texts(def.strategy.validate(crd([version('v1', schema('self.size() < 5')), version('v2', schema('self.nope'), false)]), ctx));
    expect(errs).toEqual([expect.stringMatching(/^spec\.versions\[1\]\.schema\.openAPIV3Schema\.properties\[spec\]\.properties\[tags\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: .*type 'list\(string\)' does not support field selection/s)]);
  });

  test('the total is held to its limit per version schema, as upstream counts it', () => {
    // Six rules just under the per-expression limit: 59.4M per schema, 118.8M for the two versions together.
    const sixRules = (description: string) => {
      const props: Obj = {};
      for (const n of ['a', 'b', 'c', 'd', 'e', 'f']) props[n] = { type: 'array', maxItems: 900_000, items: { type: 'string', maxLength: 16 }, 'x-kubernetes-validations': [{ rule: "self.all(x, x.contains('gpu'))" }] };
      return { type: 'object', description, properties: { spec: { type: 'object', properties: props } } };
    };
    expect(texts(def.strategy.validate(crd([version('v1', sixRules('one')), version('v2', sixRules('two'), false)]), ctx))).toEqual([]);
  });

  test('defaults must satisfy the rules', () => {
    const s = schema("self.all(x, x.startsWith('a'))");
    ((s.properties as Obj).spec as Obj).properties = { tags: { ...(((s.properties as Obj).spec as Obj).properties as Obj).tags as Obj, default: ['b'] } };
    expect(texts(def.strategy.validate(crd([version('v1', s)]), ctx))).toEqual([
      "spec.validation.openAPIV3Schema.properties[spec].properties[tags].default: Invalid value: failed rule: self.all(x, x.startsWith('a'))",
    ]);
  });
});

describe('updating a CRD with rules', () => {
  // About twice the per-expression limit, well within the schema total.
  const costly = schema("self.all(x, x.contains('gpu'))", { maxItems: 1_800_000, maxLength: 16 });
  const stored = crd([version('v1', costly)], { status: { storedVersions: ['v1'] } });
  const update = (obj: KObject) => texts(def.strategy.validateUpdate(obj, stored, ctx));

  test('the per-expression limit is not applied to an unchanged schema', () => {
    expect(texts(def.strategy.validate(crd([version('v1', costly)]), ctx))).toEqual([`${T}.rule: Forbidden: estimated rule cost exceeds budget by factor of 2.0x ${tooCostly}`]);
    const relabelled = crd([version('v1', costly)], { status: { storedVersions: ['v1'] } });
    relabelled.metadata.labels = { a: 'b' };
    expect(update(relabelled)).toEqual([]);
  });

  test('a changed schema is held to it again', () => {
    const changed = structuredClone(costly);
    ((changed.properties as Obj).spec as Obj).description = 'now documented';
    expect(update(crd([version('v1', changed)], { status: { storedVersions: ['v1'] } }))).toEqual([`${T}.rule: Forbidden: estimated rule cost exceeds budget by factor of 2.0x ${tooCostly}`]);
  });

  test('rules that do not compile are refused on update too', () => {
    expect(update(crd([version('v1', schema('self.nope'))], { status: { storedVersions: ['v1'] } }))[0]).toMatch(/^spec\.validation\.openAPIV3Schema\.properties\[spec\]\.properties\[tags\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: .*: compilation failed: /);
  });
});
