/**
 * `kubectl get workloads` columns. Upstream's printers show no Workload
 * columns we could confirm, so Name and Age, like most kinds without status.
 */
import type { KObject } from '../../machinery/object';
import type { TableConvention } from '../../machinery/resource-definition';
import { age, ageColumn, nameColumn } from '../../machinery/table';

export const workloadTable: TableConvention = {
  columns: [nameColumn, ageColumn],
  cells(obj: KObject, now: Date) {
    return [obj.metadata.name, age(obj.metadata.creationTimestamp, now)];
  },
};
