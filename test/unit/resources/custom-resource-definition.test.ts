/** CustomResourceDefinition: upstream's CRD validation paths and messages, strategy, table and flags. */
import 'reflect-metadata';
import { errorText, FieldError } from '../../../src/machinery/field-errors';
import type { KObject } from '../../../src/machinery/object';
import { checkAndPrune } from '../../../src/machinery/schema/decode';
import { shapeAsGo } from '../../../src/machinery/schema/go-shape';
import { schemaOf } from '../../../src/machinery/schema/schema';
import { ApiError } from '../../../src/machinery/status';
import { customResourceDefinitionDefinition as def } from '../../../src/resources/custom-resource-definition';
import { applyDefaults, prepareForCreate, prepareForUpdate } from '../../../src/resources/custom-resource-definition/custom-resource-definition.strategy';
import { strategyContext } from '../../support/strategy-context';

const ctx = strategyContext();
const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

const schema = { type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer' } } }, status: { type: 'object' } } };
type Obj = Record<string, unknown>;

function crd(spec: Obj = {}, extra: Obj = {}): KObject {
  const obj = {
    apiVersion: 'apiextensions.svc.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'foos.example.com' },
    spec: {
      group: 'example.com',
      names: { plural: 'foos', kind: 'Foo' },
      scope: 'Namespaced',
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: structuredClone(schema) } }],
      ...structuredClone(spec),
    },
    ...structuredClone(extra),
  } as unknown as KObject;
  applyDefaults(obj);
  return obj;
}
const texts = (errs: FieldError[] | Promise<FieldError[]>) => (errs as FieldError[]).map(errorText);
const create = (spec: Obj = {}, extra: Obj = {}) => texts(def.strategy.validate(crd(spec, extra), ctx));
const established = { status: { conditions: [{ type: 'Established', status: 'True' }], storedVersions: ['v1'] } };
const update = (spec: Obj, oldSpec: Obj = {}, oldExtra: Obj = {}, extra: Obj = {}) =>
  texts(def.strategy.validateUpdate(crd(spec, { status: { storedVersions: ['v1'] }, ...extra }), crd(oldSpec, oldExtra), ctx));

describe('a valid CRD', () => {
  test('passes, with upstream defaults filled in', () => {
    const obj = crd();
    expect(texts(def.strategy.validate(obj, ctx))).toEqual([]);
    expect((obj.spec as Obj).names).toEqual({ plural: 'foos', kind: 'Foo', singular: 'foo', listKind: 'FooList' });
    expect((obj.spec as Obj).conversion).toEqual({ strategy: 'None' });
    expect((obj.status as Obj).storedVersions).toEqual(['v1']);
  });
});

describe('names and group', () => {
  test('the name is <plural>.<group>', () => {
    expect(create({}, { metadata: { name: 'foo.example.com' } })).toEqual(['metadata.name: Invalid value: "foo.example.com": must be spec.names.plural+"."+spec.group']);
  });

  test('the group is a DNS subdomain with a dot', () => {
    expect(create({ group: '' }, { metadata: { name: 'foos.' } })).toEqual(['spec.group: Required value']);
    expect(create({ group: 'example' }, { metadata: { name: 'foos.example' } })).toEqual(['spec.group: Invalid value: "example": should be a domain with at least one dot']);
    expect(create({ group: 'Example.com' }, { metadata: { name: 'foos.Example.com' } })[0]).toMatch(/^spec\.group: Invalid value: "Example\.com": a lowercase RFC 1123 subdomain/);
  });

  test('scope is Cluster or Namespaced', () => {
    expect(create({ scope: '' })).toEqual(['spec.scope: Required value']);
    expect(create({ scope: 'Global' })).toEqual(['spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"']);
  });

  test('resource names are DNS-1035 labels; kinds may have mixed case', () => {
    expect(create({ names: { plural: 'Foos', kind: 'Foo', shortNames: ['f_o'], categories: ['all'], listKind: 'Foo' } }, { metadata: { name: 'Foos.example.com' } })).toEqual([
      `spec.names.plural: Invalid value: "Foos": ${DNS1035}`,
      `spec.names.shortNames[0]: Invalid value: "f_o": ${DNS1035}`,
      'spec.names.listKind: Invalid value: "Foo": kind and listKind may not be the same',
    ]);
    expect(create({ names: { plural: 'foos', kind: 'Foo_Bar' } })).toEqual([
      `spec.names.singular: Invalid value: "foo_bar": ${DNS1035}`,
      `spec.names.kind: Invalid value: "Foo_Bar": may have mixed case, but should otherwise match: ${DNS1035}`,
      `spec.names.listKind: Invalid value: "Foo_BarList": may have mixed case, but should otherwise match: ${DNS1035}`,
    ]);
    expect(create({ names: { plural: 'foos' } })).toEqual(['spec.names.singular: Required value', 'spec.names.kind: Required value', 'spec.names.listKind: Required value']);
  });
});

describe('versions', () => {
  const v = (name: string, storage: boolean, extra: Obj = {}) => ({ name, served: true, storage, schema: { openAPIV3Schema: schema }, ...extra });
  test('exactly one storage version, shown as Go prints the internal versions', () => {
    const errs = create({ versions: [v('v1', true), v('v2', true)] });
    expect(errs).toEqual([
      'spec.versions: Invalid value: [{"Name":"v1","Served":true,"Storage":true,"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null},{"Name":"v2","Served":true,"Storage":true,"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null}]: must have exactly one version marked as storage version',
      // defaulting recorded only the first storage version as stored
      'status.storedVersions: Invalid value: ["v1"]: must have the storage version v2',
    ]);
    expect(create({ versions: [v('v1', true), v('v1', false)] })[0]).toMatch(/^spec\.versions: Invalid value: .*: must contain unique version names$/);
  });

  test('version names are DNS-1035 labels', () => {
    expect(create({ versions: [v('V1', true)] }, { status: {} })).toContain(`spec.versions[0].name: Invalid value: "V1": ${DNS1035}`);
  });

  test('every version needs a schema', () => {
    expect(create({ versions: [{ name: 'v1', served: true, storage: true }] })).toEqual(['spec.versions[0].schema.openAPIV3Schema: Required value']);
  });

  test('a shared schema is reported at spec.validation, distinct ones per version', () => {
    const bad = { type: 'object', properties: { spec: {} } };
    expect(create({ versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: bad } }] })).toEqual([
      'spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields',
    ]);
    expect(create({ versions: [v('v1', true), { name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: bad } }] })).toEqual([
      'spec.versions[1].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields',
    ]);
  });

  test('deprecation warnings only on deprecated versions', () => {
    expect(create({ versions: [v('v1', true, { deprecationWarning: 'old' })] })).toEqual([
      'spec.versions[0].deprecationWarning: Invalid value: "old": can only be set for deprecated versions',
    ]);
    expect(create({ versions: [v('v1', true, { deprecated: true, deprecationWarning: 'old\u0007' })] })).toEqual([
      'spec.versions[0].deprecationWarning: Invalid value: "old\\a": must only contain printable UTF-8 characters; non-printable character found at index 3',
    ]);
  });
});

describe('printer columns, subresources and selectable fields', () => {
  const withVersion = (extra: Obj) => create({ versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema }, ...extra }] });
  test('columns', () => {
    expect(withVersion({ additionalPrinterColumns: [{ name: 'R', type: 'int', format: 'hex', jsonPath: 'spec.replicas' }, { jsonPath: '' }] })).toEqual([
      'spec.additionalPrinterColumns[0].type: Invalid value: "int": must be one of boolean,date,integer,number,string',
      'spec.additionalPrinterColumns[0].format: Invalid value: "hex": must be one of byte,date,date-time,double,float,int32,int64,password',
      'spec.additionalPrinterColumns[0].JSONPath: Invalid value: "spec.replicas": must be a simple json path starting with .',
      'spec.additionalPrinterColumns[1].name: Required value',
      'spec.additionalPrinterColumns[1].type: Required value: must be one of boolean,date,integer,number,string',
      'spec.additionalPrinterColumns[1].JSONPath: Required value',
    ]);
  });

  test('scale paths', () => {
    expect(withVersion({ subresources: { status: {}, scale: { specReplicasPath: '.status.replicas', statusReplicasPath: '', labelSelectorPath: '.metadata.x' } } })).toEqual([
      'spec.subresources.scale.specReplicasPath: Invalid value: ".status.replicas": should be a json path under .spec',
      'spec.subresources.scale.statusReplicasPath: Required value',
      'spec.subresources.scale.labelSelectorPath: Invalid value: ".metadata.x": should be a json path under either .spec or .status',
    ]);
  });

  test('selectable fields', () => {
    const fields = ['.spec.replicas', '.spec.replicas', '.status', '.metadata.name', '.spec.nope', 'spec'].map((jsonPath) => ({ jsonPath }));
    expect(withVersion({ selectableFields: fields })).toEqual([
      'spec.selectableFields[1].jsonPath: Duplicate value: ".spec.replicas"',
      'spec.selectableFields[2].jsonPath: Invalid value: ".status": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.',
      'spec.selectableFields[3].jsonPath: Invalid value: ".metadata.name": is an invalid path: does not refer to a valid field',
      'spec.selectableFields[4].jsonPath: Invalid value: ".spec.nope": is an invalid path: does not refer to a valid field',
      'spec.selectableFields[5].jsonPath: Invalid value: "spec": is an invalid path: expected [ or . but got: spec',
    ]);
    const many = Array.from({ length: 9 }, (_, i) => ({ jsonPath: `.spec.f${i}` }));
    const props = Object.fromEntries(many.map((_, i) => [`f${i}`, { type: 'string' }]));
    const wide = { type: 'object', properties: { spec: { type: 'object', properties: props } } };
    expect(create({ versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: wide }, selectableFields: many }] })).toEqual([
      'spec.selectableFields: Too many: 9: must have at most 8 items',
    ]);
  });

  test('the status subresource restricts the schema root', () => {
    const root = { type: 'object', nullable: true, properties: { status: { type: 'object' } } };
    const errs = create({ versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: root }, subresources: { status: {} } }] });
    expect(errs[0]).toMatch(/^spec\.validation\.openAPIV3Schema: Invalid value: .*: only \[Description Type .*\] fields are allowed at the root of the schema if the status subresource is enabled$/);
    expect(errs).toContain('spec.validation.openAPIV3Schema.nullable: Forbidden: nullable cannot be true at the root');
  });
});

describe('conversion', () => {
  const webhook = (clientConfig: Obj | undefined, conversionReviewVersions?: string[]) => create({ conversion: { strategy: 'Webhook', webhook: { clientConfig, conversionReviewVersions } } });
  test('a webhook needs a client config and review versions', () => {
    expect(create({ conversion: { strategy: 'Webhook' } })).toEqual([
      'spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook',
      'spec.conversion.conversionReviewVersions: Required value',
    ]);
    expect(webhook({}, ['v1'])).toEqual(['spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required']);
    expect(webhook({ url: 'http://user@conv.example.com/x?y#z' }, ['v2', 'v2'])).toEqual([
      `spec.conversion.webhookClientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
      'spec.conversion.webhookClientConfig.url: Invalid value: "user": user information is not permitted in the URL',
      'spec.conversion.webhookClientConfig.url: Invalid value: "z": fragments are not permitted in the URL',
      'spec.conversion.webhookClientConfig.url: Invalid value: "y": query parameters are not permitted in the URL',
      'spec.conversion.conversionReviewVersions[1]: Invalid value: "v2": duplicate version',
      'spec.conversion.conversionReviewVersions: Invalid value: ["v2","v2"]: must include at least one of v1, v1beta1',
    ]);
    expect(webhook({ service: { name: 'conv', namespace: 'ns', path: '/a//b', port: 0 } }, ['v1'])).toEqual([
      'spec.conversion.webhookClientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive',
      'spec.conversion.webhookClientConfig.service.path: Invalid value: "/a//b": segment[1] may not be empty',
    ]);
  });

  test('None takes no webhook', () => {
    expect(create({ conversion: { strategy: 'None', webhook: { clientConfig: { url: 'https://x' }, conversionReviewVersions: ['v1'] } } })).toEqual([
      'spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook',
      'spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook',
    ]);
    expect(create({ conversion: { strategy: 'Magic' } })).toEqual(['spec.conversion.strategy: Unsupported value: "Magic": supported values: "None", "Webhook"']);
  });
});

describe('approval, preserveUnknownFields and stored versions', () => {
  const protectedName = { metadata: { name: 'foos.things.k8s.io' } };
  test('protected groups need the approval annotation', () => {
    expect(create({ group: 'things.k8s.io' }, protectedName)).toEqual([
      'metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
    ]);
    const annotated = (v: string) => create({ group: 'things.svc.io' }, { metadata: { name: 'foos.things.svc.io', annotations: { 'api-approved.kubernetes.io': v } } });
    expect(annotated('https://github.com/kubernetes/kubernetes/pull/1')).toEqual([]);
    expect(annotated('unapproved, experimental')).toEqual([]);
    expect(annotated('yes')).toEqual([
      'metadata.annotations[api-approved.kubernetes.io]: Invalid value: "yes": protected groups must have approval annotation "api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111',
    ]);
  });

  test('preserveUnknownFields cannot be true in v1', () => {
    expect(create({ preserveUnknownFields: true })).toContain(
      'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
    );
  });

  test('stored versions stay in spec.versions', () => {
    const v2 = [{ name: 'v2', served: true, storage: true, schema: { openAPIV3Schema: schema } }];
    expect(update({ versions: v2 }, {}, {}, { status: { storedVersions: ['v1', 'v2'] } })).toEqual([
      'status.storedVersions[0]: Invalid value: "v1": missing from spec.versions; v1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1 and removes v1 from status.storedVersions',
    ]);
    expect(update({}, {}, {}, { status: { storedVersions: ['v0'] } })).toEqual([
      'status.storedVersions: Invalid value: ["v0"]: must have the storage version v1',
      'status.storedVersions[0]: Invalid value: "v0": missing from spec.versions; v0 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v0 and removes v0 from status.storedVersions',
    ]);
  });
});

describe('updates', () => {
  test('group and plural never change; scope and kind not once established', () => {
    expect(update({ group: 'other.com', names: { plural: 'bars', kind: 'Foo' } }, {}, {}, { metadata: { name: 'foos.example.com' } })).toEqual([
      'spec.group: Invalid value: "other.com": field is immutable',
      'spec.names.plural: Invalid value: "bars": field is immutable',
    ]);
    expect(update({ scope: 'Cluster', names: { plural: 'foos', kind: 'Bar' } })).toEqual([]);
    expect(update({ scope: 'Cluster', names: { plural: 'foos', kind: 'Bar' } }, {}, established)).toEqual([
      'spec.scope: Invalid value: "Cluster": field is immutable',
      'spec.names.kind: Invalid value: "Bar": field is immutable',
    ]);
  });

  test('rules added later stay relaxed for CRDs stored before them', () => {
    const setOfObjects = { type: 'object', properties: { s: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object' } } } };
    const versions = [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: setOfObjects } }];
    expect(create({ versions })).toEqual([
      'spec.validation.openAPIV3Schema.properties[s].items.x-kubernetes-map-type: Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set',
    ]);
    expect(update({ versions }, { versions })).toEqual([]);
  });

  test('/status writes check the accepted names', () => {
    const obj = crd({}, { status: { acceptedNames: { plural: 'Foos', kind: 'Foo' } } });
    expect(texts(def.subresources.status.validateUpdate(obj, crd(), ctx))).toEqual([`status.acceptedNames.plural: Invalid value: "Foos": ${DNS1035}`]);
  });
});

describe('strategy', () => {
  test('create resets status and records the storage version', () => {
    const obj = crd({}, { status: { conditions: [{ type: 'Established', status: 'True' }], storedVersions: ['v0'] } });
    prepareForCreate(obj);
    expect(obj.status).toEqual({ storedVersions: ['v1'] });
  });

  test('a new storage version is added to storedVersions on update', () => {
    const obj = crd({ versions: [{ name: 'v1', served: true, storage: false }, { name: 'v2', served: true, storage: true }] }, { status: { storedVersions: ['v1'] } });
    prepareForUpdate(obj);
    expect((obj.status as Obj).storedVersions).toEqual(['v1', 'v2']);
  });

  test('schemas are decoded as Go decodes them', () => {
    const obj = crd({
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', nullable: false, description: '', foo: 1, default: null, properties: { a: { type: 'string', maxLength: 3 } } } } }],
    });
    expect(((obj.spec as Obj).versions as Obj[])[0].schema).toEqual({ openAPIV3Schema: { type: 'object', properties: { a: { type: 'string', maxLength: 3 } } } });
    let err: unknown;
    try {
      crd({ versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { a: { type: 5 } } } } }] });
    } catch (e) {
      err = e;
    }
    expect((err as ApiError).code).toBe(400);
    expect((err as ApiError).message).toBe(
      'CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: json: cannot unmarshal number into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.type of type string',
    );
  });
});

describe('table and definition', () => {
  test('kubectl get crd columns', () => {
    const obj = crd(
      { names: { plural: 'foos', kind: 'Foo', shortNames: ['fo', 'f'] }, versions: [{ name: 'v2', served: true, storage: true }, { name: 'v1', served: true, storage: false }, { name: 'v0', served: false, storage: false }] },
      { status: { conditions: [{ type: 'Established', status: 'True' }] } },
    );
    obj.metadata.creationTimestamp = '2026-01-02T03:04:05Z';
    expect(def.table!.columns.map((c) => [c.name, c.priority])).toEqual([
      ['Name', 0],
      ['Scope', 0],
      ['Versions', 0],
      ['Created At', 0],
      ['Group', 1],
      ['Kind', 1],
      ['ShortNames', 1],
      ['Established', 1],
    ]);
    expect(def.table!.cells(obj, new Date())).toEqual(['foos.example.com', 'Namespaced', 'v1,v2(storage)', '2026-01-02T03:04:05Z', 'example.com', 'Foo', 'fo,f', true]);
  });

  test('flags', () => {
    expect(def).toMatchObject({
      group: 'apiextensions.svc.io',
      upstreamGroup: 'apiextensions.k8s.io',
      version: 'v1',
      kind: 'CustomResourceDefinition',
      plural: 'customresourcedefinitions',
      singular: 'customresourcedefinition',
      shortNames: ['crd', 'crds'],
      namespaced: false,
      usesGeneration: true,
      allowCreateOnUpdate: false,
      allowUnconditionalUpdate: false,
    });
    expect(Object.keys(def.subresources)).toEqual(['status']);
  });
});

describe('declared schema', () => {
  test('a full CRD decodes without unknown fields, and an unknown one is found', () => {
    const obj = crd({
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: schema },
          subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
          additionalPrinterColumns: [{ name: 'R', type: 'integer', jsonPath: '.spec.replicas', priority: 1 }],
          selectableFields: [{ jsonPath: '.spec.replicas' }],
        },
      ],
      conversion: { strategy: 'Webhook', webhook: { clientConfig: { service: { name: 'c', namespace: 'n', port: 8443 } }, conversionReviewVersions: ['v1'] } },
    });
    (obj.spec as Obj).extra = 1;
    const report = checkAndPrune(obj, schemaOf(def.schemaRoot!), '', def.kind);
    expect(report).toEqual({ unknownFields: ['spec.extra'], typeErrors: [] });
  });

  test('a fresh status is written as upstream writes it', () => {
    const obj = crd();
    prepareForCreate(obj);
    obj.status = {};
    shapeAsGo(obj, schemaOf(def.schemaRoot!));
    expect(obj.status).toEqual({ conditions: null, acceptedNames: { plural: '', kind: '' }, storedVersions: null });
  });
});
