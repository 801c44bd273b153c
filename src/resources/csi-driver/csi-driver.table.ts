/** `kubectl get csidrivers` columns, as upstream's printer (unset booleans shown with their defaults). */
import type { KObject } from '../../machinery/object';
import type { TableConvention } from '../../machinery/resource-definition';
import { age, ageColumn, nameColumn } from '../../machinery/table';
import type { CsiDriverSpecObject } from './csi-driver.validation';

export const csiDriverTable: TableConvention = {
  columns: [
    nameColumn,
    { name: 'AttachRequired', type: 'boolean', description: 'Whether the driver needs an attach operation before mount.', priority: 0 },
    { name: 'PodInfoOnMount', type: 'boolean', description: 'Whether pod information is passed to the driver on mount.', priority: 0 },
    { name: 'StorageCapacity', type: 'boolean', description: 'Whether scheduling considers the storage capacity the driver reports.', priority: 0 },
    { name: 'TokenRequests', type: 'string', description: 'Audiences of the service-account tokens passed to the driver.', priority: 0 },
    { name: 'RequiresRepublish', type: 'boolean', description: 'Whether NodePublishVolume is called periodically.', priority: 0 },
    { name: 'Modes', type: 'string', description: 'Volume lifecycle modes the driver supports.', priority: 0 },
    ageColumn,
  ],
  cells(obj: KObject, now: Date) {
    const spec = (obj.spec ?? {}) as CsiDriverSpecObject;
    const modes = (spec.volumeLifecycleModes ?? []).join(',') || '<none>';
    const tokens = spec.tokenRequests?.length ? spec.tokenRequests.map((t) => t.audience ?? '').join(',') : '<unset>';
    return [
      obj.metadata.name,
      spec.attachRequired ?? true,
      spec.podInfoOnMount ?? false,
      spec.storageCapacity ?? false,
      tokens,
      spec.requiresRepublish ?? false,
      modes,
      age(obj.metadata.creationTimestamp, now),
    ];
  },
};
