/** `kubectl get pdb` columns as upstream's printer: Name, Min Available, Max Unavailable, Allowed Disruptions, Age. */
import type { KObject } from '../../machinery/object';
import type { TableConvention } from '../../machinery/resource-definition';
import { age, ageColumn, nameColumn } from '../../machinery/table';
import type { PdbObject } from './pdb.validation';

/** IntOrString.String(): the number or the percentage as written; N/A when unset. */
const budget = (v: number | string | undefined | null) => (v === undefined || v === null ? 'N/A' : String(v));

export const pdbTable: TableConvention = {
  columns: [
    nameColumn,
    { name: 'Min Available', type: 'string', description: 'The minimum number of pods that must be available.', priority: 0 },
    { name: 'Max Unavailable', type: 'string', description: 'The maximum number of pods that may be unavailable.', priority: 0 },
    { name: 'Allowed Disruptions', type: 'integer', description: 'Calculated number of pods that may be disrupted at this time.', priority: 0 },
    ageColumn,
  ],
  cells(obj: KObject, now: Date) {
    const pdb = obj as PdbObject;
    return [
      obj.metadata.name,
      budget(pdb.spec?.minAvailable),
      budget(pdb.spec?.maxUnavailable),
      pdb.status?.disruptionsAllowed ?? 0,
      age(obj.metadata.creationTimestamp, now),
    ];
  },
};
