/** `kubectl get configmaps` columns: Name, Data, Age. */
import type { KObject } from '../../machinery/object';
import type { TableConvention } from '../../machinery/resource-definition';
import { age, nameColumn, ageColumn } from '../../machinery/table';

export const configMapTable: TableConvention = {
  columns: [nameColumn, { name: 'Data', type: 'integer', description: 'Number of keys in data and binaryData.', priority: 0 }, ageColumn],
  cells(obj: KObject, now: Date) {
    const count = Object.keys((obj.data as object) ?? {}).length + Object.keys((obj.binaryData as object) ?? {}).length;
    return [obj.metadata.name, count, age(obj.metadata.creationTimestamp, now)];
  },
};
