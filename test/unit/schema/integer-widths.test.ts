/** Every integer field of every served kind is declared int32 or int64, as upstream's Go types are. */
import 'reflect-metadata';
import { allDefinitions as servedKinds } from '../../../src/resources';
import { allDefinitions, type Schema } from '../../../src/machinery/schema/schema';

function integerFields(s: Schema, path: string, out: Array<[string, string | undefined]>): void {
  if (s.format === 'quantity') return; // resource.Quantity, not an integer type
  if (s.type === 'integer') out.push([path, s.format]);
  for (const [k, v] of Object.entries(s.properties ?? {})) integerFields(v, `${path}.${k}`, out);
  if (s.items) integerFields(s.items, `${path}[]`, out);
  if (typeof s.additionalProperties === 'object') integerFields(s.additionalProperties, `${path}{}`, out);
  for (const a of s.anyOf ?? []) integerFields(a, path, out);
}

test('integer fields carry format int32 or int64', () => {
  expect(servedKinds.length).toBeGreaterThan(0);
  const found: Array<[string, string | undefined]> = [];
  for (const [name, s] of Object.entries(allDefinitions())) integerFields(s, name, found);
  expect(found.length).toBeGreaterThan(10);
  expect(found.filter(([, f]) => f !== 'int32' && f !== 'int64')).toEqual([]);
  const widths = Object.fromEntries(found);
  expect(widths).toMatchObject({
    'LeaseSpec.leaseDurationSeconds': 'int32',
    'LeaseSpec.leaseTransitions': 'int32',
    'ObjectMetaSchema.generation': 'int64',
    'PdbStatus.disruptionsAllowed': 'int32',
    'PdbStatus.observedGeneration': 'int64',
    'CsiDriverSpec.nodeAllocatableUpdatePeriodSeconds': 'int64',
    'CsiDriverTokenRequest.expirationSeconds': 'int64',
    'CsrSpec.expirationSeconds': 'int32',
    'PcrSpec.maxExpirationSeconds': 'int32',
  });
});
