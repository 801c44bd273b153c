/**
 * Objects are stored as JSON without metadata.resourceVersion; the revision
 * of the key is injected on every read, so it can never be stale.
 */
import type { KeyValue } from '../ports/storage.port';
import type { KObject } from '../machinery/object';

export function encodeForStorage(obj: KObject): Buffer {
  const { resourceVersion: _rv, selfLink: _sl, ...meta } = obj.metadata;
  return Buffer.from(JSON.stringify({ ...obj, metadata: meta }));
}

export class CorruptObjectError extends Error {
  constructor(
    readonly key: string,
    cause: unknown,
  ) {
    super(`failed to decode object stored at ${key}: ${(cause as Error)?.message ?? cause}`);
  }
}

export function decodeStored(value: Buffer, modRevision: number, key = ''): KObject {
  let obj: KObject;
  try {
    obj = JSON.parse(value.toString('utf8')) as KObject;
  } catch (e) {
    throw new CorruptObjectError(key, e);
  }
  if (typeof obj !== 'object' || obj === null || typeof obj.metadata !== 'object' || obj.metadata === null) {
    throw new CorruptObjectError(key, new Error('not an object with metadata'));
  }
  obj.metadata.resourceVersion = String(modRevision);
  return obj;
}

export function decodeKeyValue(kv: KeyValue): KObject {
  return decodeStored(kv.value, kv.modRevision, kv.key);
}
