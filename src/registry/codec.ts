/**
 * Objects are stored as JSON without metadata.resourceVersion; the revision
 * of the key is injected on every read, so it can never be stale. A kind
 * stored as another (ResourceDefinition.storedAs) is converted both ways.
 */
import type { KeyValue } from '../ports/storage.port';
import type { KObject } from '../machinery/object';
import type { ResourceDefinition } from '../machinery/resource-definition';

type Stored = Pick<ResourceDefinition, 'storedAs'>;

export function encodeForStorage(def: Stored, obj: KObject): Buffer {
  let plain = obj;
  // A create has dropped both already: then there is nothing to copy the object without.
  if ('resourceVersion' in obj.metadata || 'selfLink' in obj.metadata) {
    const { resourceVersion: _rv, selfLink: _sl, ...meta } = obj.metadata;
    plain = { ...obj, metadata: meta };
  }
  return utf8Bytes(JSON.stringify(def.storedAs ? def.storedAs.toStorage(plain) : plain));
}

/**
 * The UTF-8 bytes of a JSON text. A large ASCII text (the usual case) is copied as Latin-1, byte for character,
 * which is about twice as fast as encoding it; its UTF-8 length equals its length only when it is all ASCII.
 */
function utf8Bytes(text: string): Buffer {
  if (text.length < 16 * 1024) return Buffer.from(text);
  const size = Buffer.byteLength(text);
  if (size !== text.length) return Buffer.from(text);
  const out = Buffer.allocUnsafe(size);
  out.write(text, 0, size, 'latin1');
  return out;
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
