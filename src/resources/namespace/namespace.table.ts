/** `kubectl get namespaces` columns: Name, Status, Age. */
import type { KObject } from '../../machinery/object';
import type { TableConvention } from '../../machinery/resource-definition';
import { age, ageColumn, nameColumn } from '../../machinery/table';
import type { NamespaceObject } from './namespace.validation';

export const namespaceTable: TableConvention = {
  columns: [nameColumn, { name: 'Status', type: 'string', description: 'The status of the namespace', priority: 0 }, ageColumn],
  cells(obj: KObject, now: Date) {
    return [obj.metadata.name, (obj as NamespaceObject).status?.phase ?? '', age(obj.metadata.creationTimestamp, now)];
  },
};
