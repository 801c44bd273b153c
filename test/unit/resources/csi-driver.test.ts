/** CSIDriver: name rule, defaults, gated fields, validation with upstream's paths and messages, table. */
import 'reflect-metadata';
import { errorText, FieldError } from '../../../src/machinery/field-errors';
import type { KObject } from '../../../src/machinery/object';
import { csiDriverDefinition } from '../../../src/resources/csi-driver';
import { csiDriverStrategy as strategy } from '../../../src/resources/csi-driver/csi-driver.strategy';
import { strategyContext, fixedNow } from '../../support/strategy-context';

const ctx = strategyContext();

function driver(spec: Record<string, unknown> = {}, name = 'csi.example.com'): KObject {
  return { apiVersion: 'storage.svc.io/v1', kind: 'CSIDriver', metadata: { name }, spec: structuredClone(spec) };
}

/** A driver as the registry would validate it: prepared and defaulted. */
function prepared(spec: Record<string, unknown> = {}, c = ctx): KObject {
  const obj = driver(spec);
  strategy.prepareForCreate!(obj, c);
  strategy.applyDefaults!(obj, c);
  return obj;
}

const validate = (obj: KObject) => strategy.validate(obj, ctx) as FieldError[];
const validateUpdate = (obj: KObject, old: KObject) => strategy.validateUpdate(obj, old, ctx) as FieldError[];
const texts = (errs: FieldError[]) => errs.map(errorText);

describe('CSIDriver name', () => {
  const check = csiDriverDefinition.validateName;
  test('at most 63 characters, alphanumeric ends, dashes and dots between', () => {
    expect(check('a'.repeat(63), false)).toEqual([]);
    expect(check('Csi.Example-Driver.COM', false)).toEqual([]);
    expect(check('a'.repeat(64), false)).toEqual(['must be no more than 63 characters']);
  });
  test('bad characters or ends', () => {
    const msg =
      "a CSI driver name must consist of alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character " +
      "(e.g. 'csi.example.com',  or 'MyDriver', regex used for validation is '[A-Za-z0-9]([-.A-Za-z0-9]*[A-Za-z0-9])?')";
    for (const bad of ['-abc', 'abc.', 'a_b', 'a/b', '']) expect(check(bad, false)).toEqual([msg]);
  });
  test('generateName may end in a dash', () => {
    expect(check('driver-', true)).toEqual([]);
    expect(check('driver-', false)).toHaveLength(1);
  });
});

describe('CSIDriver defaults', () => {
  test('an empty spec gets every v1 default', () => {
    expect(prepared({}).spec).toEqual({
      attachRequired: true,
      podInfoOnMount: false,
      storageCapacity: false,
      fsGroupPolicy: 'ReadWriteOnceWithFSType',
      volumeLifecycleModes: ['Persistent'],
      requiresRepublish: false,
      seLinuxMount: false,
      preventPodSchedulingIfMissing: false,
    });
  });
  test('a missing spec is defaulted too, explicit nulls as well', () => {
    const obj: KObject = { metadata: { name: 'x' } };
    strategy.applyDefaults!(obj, ctx);
    expect((obj.spec as any).attachRequired).toBe(true);
    expect((prepared({ attachRequired: null, volumeLifecycleModes: [] }).spec as any)).toMatchObject({ attachRequired: true, volumeLifecycleModes: ['Persistent'] });
  });
  test('given values are kept', () => {
    const spec = prepared({ attachRequired: false, fsGroupPolicy: 'File', volumeLifecycleModes: ['Ephemeral'] }).spec as any;
    expect(spec).toMatchObject({ attachRequired: false, fsGroupPolicy: 'File', volumeLifecycleModes: ['Ephemeral'] });
  });
  test('preventPodSchedulingIfMissing is defaulted only while VolumeLimitScaling is on', () => {
    const off = strategyContext({ VolumeLimitScaling: false });
    expect((prepared({}, off).spec as any).preventPodSchedulingIfMissing).toBeUndefined();
  });
  test('the defaulted spec is valid', () => {
    expect(validate(prepared({}))).toEqual([]);
  });
});

describe('CSIDriver gated fields', () => {
  const gated = { nodeAllocatableUpdatePeriodSeconds: 60, preventPodSchedulingIfMissing: true };
  test('kept on create while the gates are on (their defaults)', () => {
    expect(prepared(gated).spec).toMatchObject(gated);
  });
  test('dropped on create when the gates are off', () => {
    const off = strategyContext({ MutableCSINodeAllocatableCount: false, VolumeLimitScaling: false });
    const spec = prepared(gated, off).spec as any;
    expect(spec.nodeAllocatableUpdatePeriodSeconds).toBeUndefined();
    expect(spec.preventPodSchedulingIfMissing).toBeUndefined();
  });
  test('on update, dropped unless the stored object already used them', () => {
    const off = strategyContext({ MutableCSINodeAllocatableCount: false, VolumeLimitScaling: false });
    const fresh = driver({ ...gated });
    strategy.prepareForUpdate!(fresh, driver({}), off);
    expect(fresh.spec).toEqual({});
    const kept = driver({ nodeAllocatableUpdatePeriodSeconds: 30, preventPodSchedulingIfMissing: false });
    strategy.prepareForUpdate!(kept, driver({ ...gated }), off);
    expect(kept.spec).toEqual({ nodeAllocatableUpdatePeriodSeconds: 30, preventPodSchedulingIfMissing: false });
  });
});

describe('CSIDriver validation', () => {
  test('fsGroupPolicy must be a known policy', () => {
    const errs = validate(prepared({ fsGroupPolicy: 'Always' }));
    expect(errs.map((e) => [e.field, e.type])).toEqual([['spec.fsGroupPolicy', 'FieldValueNotSupported']]);
    expect(texts(errs)).toEqual(['spec.fsGroupPolicy: Unsupported value: "Always": supported values: "File", "None", "ReadWriteOnceWithFSType"']);
  });
  test('volumeLifecycleModes entries must be Persistent or Ephemeral (reported without index)', () => {
    const errs = validate(prepared({ volumeLifecycleModes: ['Persistent', 'Inline'] }));
    expect(errs.map((e) => e.type)).toEqual(['FieldValueNotSupported']);
    expect(texts(errs)).toEqual(['spec.volumeLifecycleModes: Unsupported value: "Inline": supported values: "Persistent", "Ephemeral"']);
  });
  test('nodeAllocatableUpdatePeriodSeconds is at least 10', () => {
    expect(validate(prepared({ nodeAllocatableUpdatePeriodSeconds: 10 }))).toEqual([]);
    const errs = validate(prepared({ nodeAllocatableUpdatePeriodSeconds: 9 }));
    expect(errs.map((e) => e.type)).toEqual(['FieldValueInvalid']);
    expect(texts(errs)).toEqual(['spec.nodeAllocatableUpdatePeriodSeconds: Invalid value: 9: must be greater than or equal to 10 seconds']);
  });
  test('tokenRequests audiences are distinct; at most one empty', () => {
    expect(validate(prepared({ tokenRequests: [{ audience: '' }, { audience: 'vault' }] }))).toEqual([]);
    const errs = validate(prepared({ tokenRequests: [{ audience: 'vault' }, { audience: '' }, { audience: 'vault' }, { audience: '' }] }));
    expect(errs.map((e) => [e.field, e.type])).toEqual([
      ['spec.tokenRequests[2].audience', 'FieldValueDuplicate'],
      ['spec.tokenRequests[3].audience', 'FieldValueDuplicate'],
    ]);
    expect(texts(errs)).toEqual(['spec.tokenRequests[2].audience: Duplicate value: "vault"', 'spec.tokenRequests[3].audience: Duplicate value: ""']);
  });
  test('a duplicate entry skips its expiration checks', () => {
    const errs = validate(prepared({ tokenRequests: [{ audience: 'a' }, { audience: 'a', expirationSeconds: 1 }] }));
    expect(errs.map((e) => e.field)).toEqual(['spec.tokenRequests[1].audience']);
  });
  test('tokenRequests expirationSeconds between 10 minutes and 2^32 seconds', () => {
    const errs = validate(prepared({ tokenRequests: [{ audience: 'a', expirationSeconds: 599 }, { audience: 'b', expirationSeconds: 2 ** 32 + 1 }] }));
    expect(errs.map((e) => e.type)).toEqual(['FieldValueInvalid', 'FieldValueInvalid']);
    expect(texts(errs)).toEqual([
      'spec.tokenRequests[0].expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
      'spec.tokenRequests[1].expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds',
    ]);
  });
  test('serviceAccountTokenInSecrets needs tokenRequests', () => {
    expect(validate(prepared({ serviceAccountTokenInSecrets: true, tokenRequests: [{ audience: 'a' }] }))).toEqual([]);
    for (const value of [true, false]) {
      const errs = validate(prepared({ serviceAccountTokenInSecrets: value, tokenRequests: [] }));
      expect(errs.map((e) => [e.field, e.type])).toEqual([['spec.serviceAccountTokenInSecrets', 'FieldValueInvalid']]);
      expect(texts(errs)).toEqual([`spec.serviceAccountTokenInSecrets: Invalid value: ${value}: serviceAccountTokenInSecrets is set but no tokenRequests are specified`]);
    }
  });
  test('undefaulted booleans are required (upstream path typo kept)', () => {
    const errs = validate(driver({}));
    expect(errs.map((e) => [e.field, e.type])).toEqual([
      ['spec.attachedRequired', 'FieldValueRequired'],
      ['spec.podInfoOnMount', 'FieldValueRequired'],
      ['spec.storageCapacity', 'FieldValueRequired'],
      ['spec.seLinuxMount', 'FieldValueRequired'],
    ]);
    expect(errorText(errs[0])).toBe('spec.attachedRequired: Required value');
  });
});

describe('CSIDriver update', () => {
  test('attachRequired is immutable', () => {
    const old = prepared({});
    const errs = validateUpdate(prepared({ attachRequired: false }), old);
    expect(errs.map((e) => [e.field, e.type])).toEqual([['spec.attachedRequired', 'FieldValueInvalid']]);
    expect(texts(errs)).toEqual(['spec.attachedRequired: Invalid value: false: field is immutable']);
  });
  test('volumeLifecycleModes is immutable', () => {
    const errs = validateUpdate(prepared({ volumeLifecycleModes: ['Persistent', 'Ephemeral'] }), prepared({}));
    expect(errs.map((e) => e.type)).toEqual(['FieldValueInvalid']);
    expect(texts(errs)).toEqual(['spec.volumeLifecycleModes: Invalid value: []storage.VolumeLifecycleMode{"Persistent", "Ephemeral"}: field is immutable']);
  });
  test('everything else is mutable and re-validated', () => {
    const changed = prepared({ podInfoOnMount: true, storageCapacity: true, fsGroupPolicy: 'None', requiresRepublish: true, seLinuxMount: true, tokenRequests: [{ audience: 'x' }] });
    expect(validateUpdate(changed, prepared({}))).toEqual([]);
    expect(validateUpdate(prepared({ fsGroupPolicy: 'x' }), prepared({})).map((e) => e.field)).toEqual(['spec.fsGroupPolicy']);
  });
});

describe('CSIDriver canonical form and table', () => {
  test('canonicalize orders the spec as upstream and drops nulls', () => {
    const obj = prepared({ tokenRequests: [{ audience: 'a' }], serviceAccountTokenInSecrets: true, nodeAllocatableUpdatePeriodSeconds: null });
    strategy.canonicalize!(obj);
    expect(Object.keys(obj.spec as object)).toEqual([
      'attachRequired',
      'podInfoOnMount',
      'volumeLifecycleModes',
      'storageCapacity',
      'fsGroupPolicy',
      'tokenRequests',
      'requiresRepublish',
      'seLinuxMount',
      'serviceAccountTokenInSecrets',
      'preventPodSchedulingIfMissing',
    ]);
  });
  test('columns and cells', () => {
    const table = csiDriverDefinition.table!;
    expect(table.columns.map((c) => c.name)).toEqual(['Name', 'AttachRequired', 'PodInfoOnMount', 'StorageCapacity', 'TokenRequests', 'RequiresRepublish', 'Modes', 'Age']);
    const obj = prepared({ tokenRequests: [{ audience: 'a' }, { audience: 'b' }], volumeLifecycleModes: ['Persistent', 'Ephemeral'] });
    obj.metadata.creationTimestamp = new Date(fixedNow.getTime() - 300_000).toISOString();
    expect(table.cells(obj, fixedNow)).toEqual(['csi.example.com', true, false, false, 'a,b', false, 'Persistent,Ephemeral', '5m']);
    expect(table.cells(driver({}), fixedNow)).toEqual(['csi.example.com', true, false, false, '<unset>', false, '<none>', '<unknown>']);
  });
  test('definition flags', () => {
    expect(csiDriverDefinition).toMatchObject({
      group: 'storage.svc.io',
      version: 'v1',
      plural: 'csidrivers',
      namespaced: false,
      shortNames: [],
      categories: [],
      fieldSelectors: {},
      usesGeneration: true,
      allowCreateOnUpdate: false,
      allowUnconditionalUpdate: false,
    });
  });
});
