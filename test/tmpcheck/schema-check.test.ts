import 'reflect-metadata';
import { schemaOf, allDefinitions } from '../../src/machinery/schema/schema';
import { checkAndPrune } from '../../src/machinery/schema/decode';
import { Workload } from '../../src/resources/workload/workload.types';
it('prints', () => {
  const s = schemaOf(Workload);
  console.log(JSON.stringify(allDefinitions()['WorkloadPodGroupSchedulingPolicy']), JSON.stringify(allDefinitions()['WorkloadCompositePodGroupTemplate']));
  const obj = { spec: { compositePodGroupTemplates: [{ name: 'a', schedulingPolicy: { basic: { x: 1 } }, compositePodGroupTemplates: [{ name: 'b', bogus: 1, podGroupTemplates: [{ name: 'c', schedulingPolicy: { gang: { minCount: 1 } } }] }] }] } };
  console.log(JSON.stringify(checkAndPrune(obj, s)), JSON.stringify(obj));
});
