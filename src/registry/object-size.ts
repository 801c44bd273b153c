/**
 * One size limit for a stored object, whatever the backend: what etcd's
 * default --max-request-bytes (1.5 MiB) lets through in one write, less room
 * for the key (which a compare-and-swap carries four times) and the request's
 * framing. Request bodies may be up to 3 MiB (JSON and YAML are wordier than
 * what is stored); the stored object is what counts here.
 */
import { errors } from '../machinery/status';
import type { KObject } from '../machinery/object';
import type { ResourceDefinition } from '../machinery/resource-definition';
import { encodeForStorage } from './codec';

export const etcdDefaultMaxRequestBytes = 1.5 * 1024 * 1024;
export const maxStoredObjectBytes = etcdDefaultMaxRequestBytes - 8 * 1024;

/**
 * The stored form of obj, within the limit. As upstream does when etcd
 * refuses an object as too large, a write whose managedFields push it over
 * is stored without them; otherwise 413.
 */
export function encodeWithinLimit(def: ResourceDefinition, obj: KObject): Buffer {
  const encoded = encodeForStorage(def, obj);
  if (encoded.length <= maxStoredObjectBytes) return encoded;
  if (obj.metadata.managedFields?.length) {
    const withoutTracking = encodeForStorage(def, { ...obj, metadata: { ...obj.metadata, managedFields: undefined } });
    if (withoutTracking.length <= maxStoredObjectBytes) {
      delete obj.metadata.managedFields;
      return withoutTracking;
    }
  }
  throw errors.requestEntityTooLarge(
    `the object would take ${encoded.length} bytes in storage, more than the limit of ${maxStoredObjectBytes} (what etcd's default --max-request-bytes of ${etcdDefaultMaxRequestBytes} leaves for one object)`,
  );
}
