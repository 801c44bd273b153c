/** `kubectl get serviceaccounts` columns: Name, Secrets (a count), Age. */
import type { KObject } from '../../machinery/object';
import type { TableConvention } from '../../machinery/resource-definition';
import { age, ageColumn, nameColumn } from '../../machinery/table';

export const serviceAccountTable: TableConvention = {
  columns: [
    nameColumn,
    // Upstream declares the column as a string although the cell is a count.
    { name: 'Secrets', type: 'string', description: 'Number of secrets pods using this account may use.', priority: 0 },
    ageColumn,
  ],
  cells(obj: KObject, now: Date) {
    const secrets = Array.isArray(obj.secrets) ? obj.secrets.length : 0;
    return [obj.metadata.name, secrets, age(obj.metadata.creationTimestamp, now)];
  },
};
