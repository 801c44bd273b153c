/**
 * managedFields bookkeeping on every write. Placeholder until the field-set
 * tracker lands: keeps whatever the client or the stored object had.
 */
import type { KObject } from '../machinery/object';
import type { ResourceDefinition } from '../machinery/resource-definition';
import type { WriteOptions } from './request';

export function recordManagedFields(
  _def: ResourceDefinition,
  obj: KObject,
  old: KObject | undefined,
  _opts: WriteOptions,
  _now: Date,
  _subresource?: string,
): void {
  if (obj.metadata.managedFields === undefined && old?.metadata.managedFields) {
    obj.metadata.managedFields = old.metadata.managedFields;
  }
}
