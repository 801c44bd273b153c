/**
 * `kubectl get crd` columns, as upstream's CRD table convertor: Name, Scope,
 * Versions (served ones, the storage version marked), Created At; with
 * -o wide also Group, Kind, ShortNames and Established.
 */
import type { KObject } from '../../machinery/object';
import type { TableConvention } from '../../machinery/resource-definition';
import { nameColumn } from '../../machinery/table';
import { isConditionTrue } from './crd-conditions';
import type { CRDObject } from './crd-internal';

type CRD = CRDObject;

export const crdTable: TableConvention = {
  columns: [
    nameColumn,
    { name: 'Scope', type: 'string', description: 'Cluster/Namespaced', priority: 0 },
    { name: 'Versions', type: 'string', description: 'Served versions', priority: 0 },
    { name: 'Created At', type: 'date', description: 'CreationTimestamp is a timestamp representing the server time when this object was created.', priority: 0 },
    { name: 'Group', type: 'string', description: 'API group', priority: 1 },
    { name: 'Kind', type: 'string', description: 'CustomResource kind', priority: 1 },
    { name: 'ShortNames', type: 'string', description: 'Short names', priority: 1 },
    { name: 'Established', type: 'boolean', description: 'Established status', priority: 1 },
  ],
  cells(obj: KObject) {
    const crd = obj as CRD;
    const spec = crd.spec ?? {};
    const versions = (spec.versions ?? [])
      .filter((v) => v.served)
      .map((v) => (v.storage ? `${v.name}(storage)` : (v.name ?? '')))
      .sort();
    const created = obj.metadata.creationTimestamp ? new Date(obj.metadata.creationTimestamp).toISOString().replace(/\.\d{3}Z$/, 'Z') : '0001-01-01T00:00:00Z';
    return [
      obj.metadata.name,
      spec.scope ?? '',
      versions.join(','),
      created,
      spec.group ?? '',
      spec.names?.kind ?? '',
      (spec.names?.shortNames ?? []).join(','),
      isConditionTrue(crd.status, 'Established'),
    ];
  },
};
