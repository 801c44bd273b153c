/** Workload: scheduling.svc.io/v1beta1, namespaced; served only while GenericWorkload is on. */
import type { ResourceDefinition } from '../../machinery/resource-definition';
import { nameIsDNSSubdomain } from '../../machinery/validation/names';
import { prepareForCreate, prepareForUpdate } from './workload.strategy';
import { workloadTable } from './workload.table';
import { Workload } from './workload.types';
import { validateWorkload, validateWorkloadUpdate } from './workload.validation';

export const workloadDefinition: ResourceDefinition = {
  group: 'scheduling.svc.io',
  version: 'v1beta1',
  kind: 'Workload',
  listKind: 'WorkloadList',
  plural: 'workloads',
  singular: 'workload',
  shortNames: [],
  categories: [],
  namespaced: true,
  featureGate: 'GenericWorkload',
  schemaRoot: Workload,
  strategy: { prepareForCreate, prepareForUpdate, validate: validateWorkload, validateUpdate: validateWorkloadUpdate },
  subresources: {},
  fieldSelectors: {},
  table: workloadTable,
  usesGeneration: false,
  allowCreateOnUpdate: false,
  // As upstream's workload strategy: PUT without a resourceVersion is accepted.
  allowUnconditionalUpdate: true,
  validateName: nameIsDNSSubdomain,
};
