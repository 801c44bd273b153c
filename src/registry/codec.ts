/**
 * Objects are stored as JSON without metadata.resourceVersion; the revision
 * of the key is injected on every read, so it can never be stale. A kind
 * stored as another (ResourceDefinition.storedAs) is converted both ways.
 */
import type { KeyValue } from '../ports/storage.port';
import type { KObject } from '../machinery/object';
import type { ResourceDefinition } from '../machinery/resource-definition';
import { jsonBytes } from './json-bytes';

type Stored = Pick<ResourceDefinition, 'storedAs'>;

export function encodeForStorage(def: Stored, obj: KObject): Buffer {
  let plain = obj;
  // A create has dropped both already: then there is nothing to copy the object without.
  if ('resourceVersion' in obj.metadata || 'selfLink' in obj.metadata) {
    const { resourceVersion: _rv, selfLink: _sl, ...meta } = obj.metadata;
    plain = { ...obj, metadata: meta };
  }
  return jsonBytes(def.storedAs ? def.storedAs.toStorage(plain) : plain)!;
}

/** A stored value that does not decode; worded as upstream's corrupt-object StorageError. */
export class CorruptObjectError extends Error {
  constructor(
    readonly key: string,
    cause: unknown,
    readonly revision = 0,
  ) {
    super(
      `StorageError: corrupt object, Code: 7, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: object not decodable revision=${revision}: ${(cause as Error)?.message ?? cause}`,
    );
  }
}

export function decodeStored(def: Stored, value: Buffer, modRevision: number, key = ''): KObject {
  const obj = parseStored(def, value.toString('utf8'), modRevision, key);
  obj.metadata.resourceVersion = String(modRevision);
  return obj;
}

/** The stored object as it is stored (converted from storedAs), resourceVersion not set yet. */
export function parseStored(def: Stored, text: string, modRevision: number, key = ''): KObject {
  let obj: KObject;
  try {
    obj = JSON.parse(text) as KObject;
  } catch (e) {
    throw new CorruptObjectError(key, e, modRevision);
  }
  if (typeof obj !== 'object' || obj === null || typeof obj.metadata !== 'object' || obj.metadata === null) {
    throw new CorruptObjectError(key, new Error('not an object with metadata'), modRevision);
  }
  return def.storedAs ? def.storedAs.fromStorage(obj) : obj;
}

export function decodeKeyValue(def: Stored, kv: Pick<KeyValue, 'key' | 'value' | 'modRevision'>): KObject {
  return decodeStored(def, kv.value, kv.modRevision, kv.key);
}
