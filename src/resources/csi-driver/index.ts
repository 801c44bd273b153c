/** CSIDriver: storage.svc.io/v1, cluster-scoped; generation tracks spec changes. */
import type { ResourceDefinition } from '../../machinery/resource-definition';
import { CSIDriver } from './csi-driver.types';
import { csiDriverStrategy } from './csi-driver.strategy';
import { csiDriverTable } from './csi-driver.table';
import { validateCsiDriverName } from './csi-driver.validation';

export const csiDriverDefinition: ResourceDefinition = {
  group: 'storage.svc.io',
  version: 'v1',
  kind: 'CSIDriver',
  listKind: 'CSIDriverList',
  plural: 'csidrivers',
  singular: 'csidriver',
  shortNames: [],
  categories: [],
  namespaced: false,
  schemaRoot: CSIDriver,
  strategy: csiDriverStrategy,
  subresources: {},
  fieldSelectors: {},
  table: csiDriverTable,
  usesGeneration: true,
  generationFields: ['spec'],
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: false,
  validateName: validateCsiDriverName,
};
