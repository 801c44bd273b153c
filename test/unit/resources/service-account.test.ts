/** ServiceAccount: secret references reduced to names, no spec rules, schema facts, table and flags. */
import 'reflect-metadata';
import type { KObject } from '../../../src/machinery/object';
import { schemaOf, propertySchema } from '../../../src/machinery/schema/schema';
import { serviceAccountDefinition } from '../../../src/resources/service-account';
import { fixedNow, strategyContext } from '../../support/strategy-context';

const ctx = strategyContext();
const strategy = serviceAccountDefinition.strategy;
const sa = (fields: Record<string, unknown> = {}): KObject => ({ metadata: { name: 'builder', namespace: 'default' }, ...structuredClone(fields) });

describe('ServiceAccount strategy', () => {
  const secrets = [{ name: 'token-a', namespace: 'default', uid: 'u1', kind: 'Secret', apiVersion: 'v1', resourceVersion: '7', fieldPath: 'x' }, { name: 'b' }];
  test('create keeps only the name of each secret reference', () => {
    const obj = sa({ secrets, imagePullSecrets: [{ name: 'regcred' }], automountServiceAccountToken: false });
    strategy.prepareForCreate!(obj, ctx);
    expect(obj).toMatchObject({ secrets: [{ name: 'token-a' }, { name: 'b' }], imagePullSecrets: [{ name: 'regcred' }], automountServiceAccountToken: false });
    expect((obj.secrets as object[])[0]).toEqual({ name: 'token-a' });
  });
  test('update does the same', () => {
    const obj = sa({ secrets });
    strategy.prepareForUpdate!(obj, sa(), ctx);
    expect(obj.secrets).toEqual([{ name: 'token-a' }, { name: 'b' }]);
  });
  test('JSON nulls are not stored', () => {
    const obj = sa({ automountServiceAccountToken: null, secrets: null, imagePullSecrets: null });
    strategy.applyDefaults!(obj, ctx);
    expect(obj).toEqual(sa());
  });
  test('nothing beyond metadata is validated', () => {
    expect(strategy.validate(sa({ secrets: [{}], imagePullSecrets: [{ name: '' }] }), ctx)).toEqual([]);
    expect(strategy.validateUpdate(sa({ automountServiceAccountToken: true }), sa(), ctx)).toEqual([]);
  });
});

describe('ServiceAccount schema', () => {
  test('secrets merge by name; imagePullSecrets are atomic', () => {
    const root = schemaOf(serviceAccountDefinition.schemaRoot!);
    expect(propertySchema(root, 'secrets')).toMatchObject({ 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-list-type': 'map' });
    expect(propertySchema(root, 'imagePullSecrets')).toMatchObject({ 'x-kubernetes-list-type': 'atomic' });
    expect(propertySchema(root, 'automountServiceAccountToken')).toMatchObject({ type: 'boolean' });
  });
});

describe('ServiceAccount table and definition', () => {
  test('Name, Secrets (count), Age', () => {
    const table = serviceAccountDefinition.table!;
    expect(table.columns.map((c) => c.name)).toEqual(['Name', 'Secrets', 'Age']);
    const obj = sa({ secrets: [{ name: 'a' }, { name: 'b' }] });
    obj.metadata.creationTimestamp = new Date(fixedNow.getTime() - 3 * 3600_000).toISOString();
    expect(table.cells(obj, fixedNow)).toEqual(['builder', 2, '3h']);
    expect(table.cells(sa(), fixedNow)).toEqual(['builder', 0, '<unknown>']);
  });
  test('flags: short name sa, DELETE returns the object', () => {
    expect(serviceAccountDefinition).toMatchObject({
      group: '',
      version: 'v1',
      kind: 'ServiceAccount',
      plural: 'serviceaccounts',
      shortNames: ['sa'],
      categories: [],
      namespaced: true,
      fieldSelectors: {},
      usesGeneration: false,
      allowCreateOnUpdate: false,
      allowUnconditionalUpdate: true,
      returnDeletedObject: true,
    });
    expect(serviceAccountDefinition.validateName('Builder', false)).toHaveLength(1);
  });
});
