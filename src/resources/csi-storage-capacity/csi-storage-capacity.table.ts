/** `kubectl get csistoragecapacities` columns: Name, StorageClassName, Capacity (upstream has no Age column). */
import type { KObject } from '../../machinery/object';
import type { TableConvention } from '../../machinery/resource-definition';
import { canonicalQuantity } from '../../machinery/quantity';
import { nameColumn } from '../../machinery/table';
import type { CsiStorageCapacityObject } from './csi-storage-capacity.validation';

export const csiStorageCapacityTable: TableConvention = {
  columns: [
    nameColumn,
    { name: 'StorageClassName', type: 'string', description: 'StorageClass the reported capacity applies to.', priority: 0 },
    { name: 'Capacity', type: 'string', description: 'Capacity the driver reported for the class and topology.', priority: 0 },
  ],
  cells(obj: KObject) {
    const cap = obj as CsiStorageCapacityObject;
    const capacity = cap.capacity === null || cap.capacity === undefined ? '<unset>' : canonicalQuantity(cap.capacity);
    return [obj.metadata.name, cap.storageClassName ?? '', capacity];
  },
};
