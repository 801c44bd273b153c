import { errorText, FieldError } from '../../../src/machinery/field-errors';
import type { ObjectMeta } from '../../../src/machinery/object';
import { nameIsDNSSubdomain, validatePathSegmentName } from '../../../src/machinery/validation/names';
import { validateObjectMetaCreate, validateObjectMetaUpdate } from '../../../src/machinery/validation/object-meta';
import { DNS_LABEL_MSG, DNS_SUBDOMAIN_MSG, LABEL_VALUE_MSG, QNAME_NAME_MSG } from './messages';

const texts = (errs: FieldError[]) => errs.map(errorText);
const ns = { namespaced: true, validateName: nameIsDNSSubdomain };
const cluster = { namespaced: false, validateName: nameIsDNSSubdomain };
const create = (meta: ObjectMeta, opts = ns) => texts(validateObjectMetaCreate(meta, opts));

describe('validateObjectMetaCreate', () => {
  it('accepts a plain namespaced object', () => {
    expect(create({ name: 'a', namespace: 'default', labels: { app: 'x' }, annotations: { 'Example.com/Note': 'long text' } })).toEqual([]);
  });

  it('requires a name', () => {
    expect(create({ namespace: 'default' })).toEqual(['metadata.name: Required value: name or generateName is required']);
    expect(create({ generateName: 'ok-', namespace: 'default' })).toEqual([
      'metadata.name: Required value: name or generateName is required',
    ]);
  });

  it('uses the kind name rule for name and generateName', () => {
    expect(create({ name: 'Bad_Name', namespace: 'default' })).toEqual([`metadata.name: Invalid value: "Bad_Name": ${DNS_SUBDOMAIN_MSG}`]);
    expect(create({ name: 'x', generateName: 'Bad-', namespace: 'default' })).toEqual([
      `metadata.generateName: Invalid value: "Bad-": ${DNS_SUBDOMAIN_MSG}`,
    ]);
    const segment = { namespaced: true, validateName: validatePathSegmentName };
    expect(create({ name: 'a/b', namespace: 'default' }, segment)).toEqual([`metadata.name: Invalid value: "a/b": may not contain '/'`]);
  });

  it('checks the namespace by scope', () => {
    expect(create({ name: 'a' })).toEqual(['metadata.namespace: Required value']);
    expect(create({ name: 'a', namespace: 'a.b' })).toEqual(['metadata.namespace: Invalid value: "a.b": must not contain dots']);
    expect(create({ name: 'a', namespace: 'NS' })).toEqual([`metadata.namespace: Invalid value: "NS": ${DNS_LABEL_MSG}`]);
    expect(create({ name: 'a', namespace: 'x' }, cluster)).toEqual(['metadata.namespace: Forbidden: not allowed on this type']);
    expect(create({ name: 'a' }, cluster)).toEqual([]);
  });

  it('generation must be non-negative', () => {
    expect(create({ name: 'a', namespace: 'd', generation: -1 })).toEqual([
      'metadata.generation: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });

  it('labels: keys and values', () => {
    expect(create({ name: 'a', namespace: 'd', labels: { 'a_': 'ok', b: 'a b' } })).toEqual([
      `metadata.labels: Invalid value: "a_": ${QNAME_NAME_MSG}`,
      `metadata.labels: Invalid value: "a b": ${LABEL_VALUE_MSG}`,
    ]);
  });

  it('annotations: keys are checked lower-cased, total size is limited', () => {
    expect(create({ name: 'a', namespace: 'd', annotations: { 'Example.COM/X': '' } })).toEqual([]);
    expect(create({ name: 'a', namespace: 'd', annotations: { 'a b': '' } })).toEqual([
      `metadata.annotations: Invalid value: "a b": ${QNAME_NAME_MSG}`,
    ]);
    const big = { name: 'a', namespace: 'd', annotations: { k: 'x'.repeat(262143) } };
    expect(create(big)).toEqual([]);
    big.annotations.k += 'x';
    expect(create(big)).toEqual(['metadata.annotations: Too long: may not be more than 262144 bytes']);
  });

  it('owner references', () => {
    const errs = create({
      name: 'a',
      namespace: 'd',
      ownerReferences: [
        { apiVersion: 'apps/', kind: '', name: '', uid: '' },
        { apiVersion: 'v1', kind: 'ConfigMap', name: 'one', uid: '1', controller: true },
        { apiVersion: 'v1', kind: 'Secret', name: 'two', uid: '2', controller: true },
      ],
    });
    expect(errs.slice(0, 4)).toEqual([
      'metadata.ownerReferences.apiVersion: Invalid value: "apps/": version must not be empty',
      'metadata.ownerReferences.kind: Invalid value: "": kind must not be empty',
      'metadata.ownerReferences.name: Invalid value: "": name must not be empty',
      'metadata.ownerReferences.uid: Invalid value: "": uid must not be empty',
    ]);
    expect(errs).toHaveLength(5);
    expect(errs[4]).toMatch(
      /^metadata\.ownerReferences: Invalid value: .*: Only one reference can have Controller set to true\. Found "true" in references for ConfigMap\/one and Secret\/two$/,
    );
    const event = create({ name: 'a', namespace: 'd', ownerReferences: [{ apiVersion: 'v1', kind: 'Event', name: 'e', uid: 'u' }] });
    expect(event[0]).toMatch(/^metadata\.ownerReferences: Invalid value: .*: \/v1, Kind=Event is disallowed from being an owner$/);
  });

  it('finalizers', () => {
    expect(create({ name: 'a', namespace: 'd', finalizers: ['example.com/x', 'kubernetes', 'a_'] })).toEqual([
      `metadata.finalizers: Invalid value: "a_": ${QNAME_NAME_MSG}`,
    ]);
    expect(create({ name: 'a', namespace: 'd', finalizers: ['orphan', 'foregroundDeletion'] })).toEqual([
      'metadata.finalizers: Invalid value: []string{"orphan", "foregroundDeletion"}: finalizer orphan and foregroundDeletion cannot be both set',
    ]);
  });

  it('kube finalizer rule is opt-in', () => {
    const meta = { name: 'a', namespace: 'd', finalizers: ['orphan', 'custom', 'x.io/y'] };
    expect(create(meta)).toEqual([]);
    expect(create(meta, { ...ns, kubeFinalizers: true } as typeof ns)).toEqual([
      'metadata.finalizers[1]: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
    ]);
  });

  it('managed fields', () => {
    expect(
      create({
        name: 'a',
        namespace: 'd',
        managedFields: [
          { manager: 'kubectl', operation: 'Update', fieldsType: 'FieldsV1' },
          { manager: 'm\u0007x', operation: 'Patch' as never, fieldsType: 'FieldsV2', subresource: 's'.repeat(257) },
          { manager: 'é'.repeat(65), operation: 'Apply' },
        ],
      }),
    ).toEqual([
      'metadata.managedFields[1].operation: Invalid value: "Patch": must be `Apply` or `Update`',
      'metadata.managedFields[1].fieldsType: Invalid value: "FieldsV2": must be `FieldsV1`',
      'metadata.managedFields[1].manager: Invalid value: "m\\u0007x": invalid character U+0007 (at position 1)',
      'metadata.managedFields[1].subresource: Too long: may not be more than 256 bytes',
      'metadata.managedFields[2].manager: Too long: may not be more than 128 bytes',
    ]);
  });

  it('accepts a custom path', () => {
    expect(texts(validateObjectMetaCreate({}, ns, 'spec.template.metadata'))).toEqual([
      'spec.template.metadata.name: Required value: name or generateName is required',
      'spec.template.metadata.namespace: Required value',
    ]);
  });
});

describe('validateObjectMetaUpdate', () => {
  const old: ObjectMeta = {
    name: 'a',
    namespace: 'd',
    uid: 'u1',
    resourceVersion: '5',
    generation: 3,
    creationTimestamp: '2024-01-02T03:04:05Z',
    finalizers: ['example.com/a'],
  };
  const update = (n: ObjectMeta, o: ObjectMeta = old, opts = {}) => texts(validateObjectMetaUpdate(n, o, 'metadata', opts));

  it('accepts an unchanged object', () => {
    expect(update({ ...old, labels: { x: 'y' } })).toEqual([]);
  });

  it('immutable fields', () => {
    expect(
      update({
        ...old,
        name: 'b',
        namespace: 'e',
        uid: 'u2',
        creationTimestamp: '2024-01-02T03:04:06Z',
        deletionTimestamp: '2024-02-01T00:00:00Z',
        deletionGracePeriodSeconds: 30,
      }),
    ).toEqual([
      'metadata.name: Invalid value: "b": field is immutable',
      'metadata.namespace: Invalid value: "e": field is immutable',
      'metadata.uid: Invalid value: "u2": field is immutable',
      'metadata.creationTimestamp: Invalid value: 2024-01-02 03:04:06 +0000 UTC: field is immutable',
      'metadata.deletionTimestamp: Invalid value: 2024-02-01 00:00:00 +0000 UTC: field is immutable',
      'metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable',
    ]);
    expect(update({ ...old, creationTimestamp: '2024-01-02T04:04:05+01:00' })).toEqual([]);
    expect(update({ ...old, creationTimestamp: undefined })).toEqual([
      'metadata.creationTimestamp: Invalid value: 0001-01-01 00:00:00 +0000 UTC: field is immutable',
    ]);
    expect(update(old, { ...old, deletionTimestamp: '2024-02-01T00:00:00Z', deletionGracePeriodSeconds: 0 })).toEqual([
      'metadata.deletionTimestamp: Invalid value: null: field is immutable',
      'metadata.deletionGracePeriodSeconds: Invalid value: null: field is immutable',
    ]);
  });

  it('generation may not go down', () => {
    expect(update({ ...old, generation: 2 })).toEqual(['metadata.generation: Invalid value: 2: must not be decremented']);
    expect(update({ ...old, generation: 4 })).toEqual([]);
  });

  it('no new finalizers while deleting', () => {
    const deleting = { ...old, deletionTimestamp: '2024-02-01T00:00:00Z' };
    expect(update({ ...deleting, finalizers: ['example.com/a', 'z.io/z', 'b.io/b'] }, deleting)).toEqual([
      'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"b.io/b", "z.io/z"}',
    ]);
    expect(update({ ...deleting, finalizers: [] }, deleting)).toEqual([]);
    expect(update({ ...old, finalizers: ['example.com/a', 'z.io/z'] })).toEqual([]);
  });

  it('re-validates labels, annotations, owner refs and managed fields, not finalizer names', () => {
    expect(
      update({ ...old, labels: { a: 'a b' }, finalizers: ['a_'], managedFields: [{ operation: 'Apply', manager: 'm' }] }),
    ).toEqual([`metadata.labels: Invalid value: "a b": ${LABEL_VALUE_MSG}`]);
    expect(update({ ...old, finalizers: ['custom'] }, old, { kubeFinalizers: true })).toEqual([
      'metadata.finalizers[0]: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
    ]);
  });

  it('resourceVersion check is opt-in', () => {
    const n = { ...old, resourceVersion: '' };
    expect(update(n)).toEqual([]);
    expect(update(n, old, { requireResourceVersion: true })).toEqual([
      'metadata.resourceVersion: Invalid value: "": must be specified for an update',
    ]);
  });
});
