/** CSIStorageCapacity: selector, class name and quantity rules, immutability, canonical quantities, table. */
import 'reflect-metadata';
import { errorText, FieldError } from '../../../src/machinery/field-errors';
import type { KObject } from '../../../src/machinery/object';
import { ApiError } from '../../../src/machinery/status';
import { csiStorageCapacityDefinition } from '../../../src/resources/csi-storage-capacity';
import { strategyContext } from '../../support/strategy-context';

const ctx = strategyContext();
const strategy = csiStorageCapacityDefinition.strategy;
const capacity = (fields: Record<string, unknown> = {}): KObject => ({
  metadata: { name: 'csisc-abcde', namespace: 'default' },
  storageClassName: 'fast',
  ...structuredClone(fields),
});
const validate = (obj: KObject) => strategy.validate(obj, ctx) as FieldError[];
const validateUpdate = (obj: KObject, old: KObject) => strategy.validateUpdate(obj, old, ctx) as FieldError[];
const summary = (errs: FieldError[]) => errs.map((e) => [e.field, e.type, errorText(e)]);
const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character " +
  "(e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe('CSIStorageCapacity validation', () => {
  test('a typical object is valid; nodeTopology may be missing or empty', () => {
    expect(validate(capacity({ nodeTopology: { matchLabels: { 'topology.svc.io/zone': 'a' } }, capacity: '10Gi', maximumVolumeSize: '1Gi' }))).toEqual([]);
    expect(validate(capacity())).toEqual([]);
    expect(validate(capacity({ nodeTopology: {} }))).toEqual([]);
  });
  test('storageClassName is required and a DNS subdomain', () => {
    const missing = capacity();
    delete missing.storageClassName;
    expect(summary(validate(missing))).toEqual([['storageClassName', 'FieldValueInvalid', `storageClassName: Invalid value: "": ${subdomainMsg}`]]);
    expect(summary(validate(capacity({ storageClassName: 'Fast_SSD' })))).toEqual([
      ['storageClassName', 'FieldValueInvalid', `storageClassName: Invalid value: "Fast_SSD": ${subdomainMsg}`],
    ]);
  });
  test('nodeTopology must be a valid label selector', () => {
    const errs = validate(capacity({ nodeTopology: { matchLabels: { 'bad key!': 'v' }, matchExpressions: [{ key: 'zone', operator: 'In' }, { key: 'z', operator: 'Near' }] } }));
    expect(errs.map((e) => [e.field, e.type])).toEqual([
      ['nodeTopology.matchLabels', 'FieldValueInvalid'],
      ['nodeTopology.matchExpressions[0].values', 'FieldValueRequired'],
      ['nodeTopology.matchExpressions[1].operator', 'FieldValueInvalid'],
    ]);
    expect(errorText(errs[1])).toBe("nodeTopology.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'");
    expect(errorText(errs[2])).toBe('nodeTopology.matchExpressions[1].operator: Invalid value: "Near": not a valid selector operator');
  });
  test('capacity and maximumVolumeSize may not be negative', () => {
    expect(validate(capacity({ capacity: '0', maximumVolumeSize: 0 }))).toEqual([]);
    expect(summary(validate(capacity({ capacity: '-1Gi', maximumVolumeSize: -5 })))).toEqual([
      ['capacity', 'FieldValueInvalid', 'capacity: Invalid value: "-1Gi": must be greater than or equal to 0'],
      ['maximumVolumeSize', 'FieldValueInvalid', 'maximumVolumeSize: Invalid value: "-5": must be greater than or equal to 0'],
    ]);
  });
});

describe('CSIStorageCapacity update', () => {
  const old = capacity({ nodeTopology: { matchLabels: { zone: 'a' } }, capacity: '1Gi' });
  test('capacity and maximumVolumeSize are mutable', () => {
    expect(validateUpdate(capacity({ nodeTopology: { matchLabels: { zone: 'a' } }, capacity: '2Gi', maximumVolumeSize: '1Gi' }), old)).toEqual([]);
  });
  test('empty and missing parts of the selector compare equal', () => {
    expect(validateUpdate(capacity({ nodeTopology: { matchLabels: { zone: 'a' }, matchExpressions: [] } }), old)).toEqual([]);
  });
  test('nodeTopology is immutable (value printed as Go does)', () => {
    const changed = capacity({ nodeTopology: { matchLabels: { zone: 'b', a: '1' }, matchExpressions: [{ key: 'k', operator: 'Exists' }] } });
    expect(summary(validateUpdate(changed, old))).toEqual([
      [
        'nodeTopology',
        'FieldValueInvalid',
        'nodeTopology: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"a":"1", "zone":"b"}, ' +
          'MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"k", Operator:"Exists", Values:[]string(nil)}}}: field is immutable',
      ],
    ]);
    expect(summary(validateUpdate(capacity(), old))).toEqual([['nodeTopology', 'FieldValueInvalid', 'nodeTopology: Invalid value: null: field is immutable']]);
  });
  test('storageClassName is immutable', () => {
    expect(summary(validateUpdate(capacity({ nodeTopology: { matchLabels: { zone: 'a' } }, storageClassName: 'slow' }), old))).toEqual([
      ['storageClassName', 'FieldValueInvalid', 'storageClassName: Invalid value: "slow": field is immutable'],
    ]);
  });
  test('invalid label values already stored stay acceptable', () => {
    const legacy = capacity({ nodeTopology: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['bad value'] }] } });
    expect(validate(legacy).map((e) => e.field)).toEqual(['nodeTopology.matchExpressions[0].values[0]']);
    expect(validateUpdate(structuredClone(legacy), legacy)).toEqual([]);
  });
});

describe('CSIStorageCapacity quantities', () => {
  test('stored in canonical form', () => {
    const obj = capacity({ capacity: '1.5Gi', maximumVolumeSize: 1000 });
    strategy.applyDefaults!(obj, ctx);
    strategy.canonicalize!(obj);
    expect(obj).toMatchObject({ capacity: '1536Mi', maximumVolumeSize: '1k' });
    const nulls = capacity({ capacity: null, nodeTopology: null });
    strategy.applyDefaults!(nulls, ctx);
    expect('capacity' in nulls || 'nodeTopology' in nulls).toBe(false);
  });
  test('an unparsable quantity fails decoding with 400', () => {
    let caught: unknown;
    try {
      strategy.applyDefaults!(capacity({ capacity: '10 gigs' }), ctx);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ApiError);
    expect((caught as ApiError).status).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message:
        'CSIStorageCapacity in version "v1" cannot be handled as a CSIStorageCapacity: ' +
        "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    });
  });
});

describe('CSIStorageCapacity table and definition', () => {
  test('Name, StorageClassName, Capacity; no Age', () => {
    const table = csiStorageCapacityDefinition.table!;
    expect(table.columns.map((c) => c.name)).toEqual(['Name', 'StorageClassName', 'Capacity']);
    expect(table.cells(capacity({ capacity: '2048Mi' }), new Date())).toEqual(['csisc-abcde', 'fast', '2Gi']);
    expect(table.cells(capacity(), new Date())).toEqual(['csisc-abcde', 'fast', '<unset>']);
  });
  test('flags', () => {
    expect(csiStorageCapacityDefinition).toMatchObject({
      group: 'storage.svc.io',
      version: 'v1',
      plural: 'csistoragecapacities',
      namespaced: true,
      shortNames: [],
      categories: [],
      fieldSelectors: {},
      usesGeneration: false,
      allowCreateOnUpdate: false,
      allowUnconditionalUpdate: false,
    });
    expect(csiStorageCapacityDefinition.validateName('a'.repeat(254), false)).toContain('must be no more than 253 characters');
  });
});
