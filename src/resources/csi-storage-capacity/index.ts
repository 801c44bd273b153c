/** CSIStorageCapacity: storage.svc.io/v1, namespaced; updates need a resourceVersion. */
import type { ResourceDefinition } from '../../machinery/resource-definition';
import { nameIsDNSSubdomain } from '../../machinery/validation/names';
import { CSIStorageCapacity } from './csi-storage-capacity.types';
import { csiStorageCapacityStrategy } from './csi-storage-capacity.strategy';
import { csiStorageCapacityTable } from './csi-storage-capacity.table';

export const csiStorageCapacityDefinition: ResourceDefinition = {
  group: 'storage.svc.io',
  version: 'v1',
  kind: 'CSIStorageCapacity',
  listKind: 'CSIStorageCapacityList',
  plural: 'csistoragecapacities',
  singular: 'csistoragecapacity',
  shortNames: [],
  categories: [],
  namespaced: true,
  schemaRoot: CSIStorageCapacity,
  strategy: csiStorageCapacityStrategy,
  subresources: {},
  fieldSelectors: {},
  table: csiStorageCapacityTable,
  usesGeneration: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: false,
  validateName: nameIsDNSSubdomain,
};
