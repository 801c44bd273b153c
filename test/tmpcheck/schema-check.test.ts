import 'reflect-metadata';
import { schemaOf, allDefinitions } from '../../src/machinery/schema/schema';
import { PodDisruptionBudget } from '../../src/resources/pod-disruption-budget/pdb.types';
it('prints', () => {
  const s = schemaOf(PodDisruptionBudget);
  console.log(JSON.stringify(allDefinitions()['PdbSpec'], null, 1), JSON.stringify(allDefinitions()['PdbStatus'], null, 1), JSON.stringify(s.properties?.spec));
});
