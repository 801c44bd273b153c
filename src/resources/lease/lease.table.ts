/** `kubectl get leases` columns: Name, Holder, Age. */
import type { KObject } from '../../machinery/object';
import type { TableConvention } from '../../machinery/resource-definition';
import { age, ageColumn, nameColumn } from '../../machinery/table';
import { leaseSpecOf } from './lease.validation';

export const leaseTable: TableConvention = {
  columns: [nameColumn, { name: 'Holder', type: 'string', description: 'Identity of the current holder of the lease.', priority: 0 }, ageColumn],
  cells(obj: KObject, now: Date) {
    return [obj.metadata.name, leaseSpecOf(obj).holderIdentity ?? '', age(obj.metadata.creationTimestamp, now)];
  },
};
