/** checkTypes reports what checkAndPrune reports without changing the value (server-side apply checks its configuration with it). */
import 'reflect-metadata';
import { checkAndPrune, checkTypes } from '../../../src/machinery/schema/decode';
import { schemaOf } from '../../../src/machinery/schema/schema';
import { podDisruptionBudgetDefinition as def } from '../../../src/resources/pod-disruption-budget';

const sample = () => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name: 'web', unknownMeta: 1 },
  spec: { minAvailable: 2, selector: { matchExpressions: [null, { key: 'a', operator: 'In', values: ['x'], extra: true }] }, bogus: 'x' },
  status: { expectedPods: 2 ** 40, currentHealthy: 'three' },
});

test('checkTypes gives checkAndPrune report and leaves the value as it was', () => {
  const value = sample();
  const report = checkTypes(value, schemaOf(def.schemaRoot!), '', def.kind);
  expect(value).toEqual(sample());
  const pruned = sample();
  expect(report).toEqual(checkAndPrune(pruned, schemaOf(def.schemaRoot!), '', def.kind));
  expect(report.unknownFields.length).toBeGreaterThan(0);
  expect(report.typeErrors.length).toBeGreaterThan(0);
  expect(pruned).not.toEqual(sample());
});
