/**
 * One object as the cache holds it: its JSON bytes (with resourceVersion
 * set, ready to be written to a socket) and the few attributes selectors
 * need. The decoded object is dropped after ingest to keep memory near the
 * JSON size; name and namespace are read back from the key.
 */
import type { ResourceDefinition } from '../../machinery/resource-definition';
import type { KObject } from '../../machinery/object';
import { decodeStored } from '../codec';
import type { FieldReader } from '../predicate';

const noFields: Readonly<Record<string, string | undefined>> = Object.freeze({});

/**
 * Object bytes are packed into slabs of our own. Node's shared Buffer pool
 * would interleave them with short-lived allocations (HTTP, gRPC), and one
 * live object would then pin a whole 8 KiB pool page of garbage.
 */
const slabSize = 64 * 1024;
let slab = Buffer.allocUnsafeSlow(slabSize);
let slabOffset = 0;

export function packBytes(json: string): Buffer {
  const length = Buffer.byteLength(json);
  if (length > slabSize / 8) return Buffer.from(json);
  if (slabOffset + length > slab.length) {
    slab = Buffer.allocUnsafeSlow(slabSize);
    slabOffset = 0;
  }
  slab.write(json, slabOffset);
  const bytes = slab.subarray(slabOffset, slabOffset + length);
  slabOffset += length;
  return bytes;
}

export class CachedObject {
  constructor(
    readonly key: string,
    /** modRevision: the object's resourceVersion. */
    readonly rev: number,
    readonly bytes: Buffer,
    readonly labels: Readonly<Record<string, string>> | undefined,
    readonly uid: string | undefined,
    /** Values of the kind's own field selectors. */
    readonly fields: Readonly<Record<string, string | undefined>>,
  ) {}

  get name(): string {
    return this.key.slice(this.key.lastIndexOf('/') + 1);
  }

  /** Namespace from `/<...>/<plural>/<ns>/<name>`; callers ask only for namespaced kinds. */
  get namespace(): string {
    const end = this.key.lastIndexOf('/');
    return this.key.slice(this.key.lastIndexOf('/', end - 1) + 1, end);
  }

  decode(): KObject {
    return JSON.parse(this.bytes.toString('utf8')) as KObject;
  }

  /** The same object with another resourceVersion (DELETED events carry the deletion revision). */
  bytesAt(rev: number): Buffer {
    if (rev === this.rev) return this.bytes;
    const obj = this.decode();
    obj.metadata.resourceVersion = String(rev);
    return Buffer.from(JSON.stringify(obj));
  }
}

/** Builds the cached form of a stored value; throws CorruptObjectError on bad bytes. */
export function cacheObject(def: ResourceDefinition, key: string, value: Buffer, rev: number): CachedObject {
  const obj = decodeStored(def, value, rev, key);
  let fields = noFields;
  const extra = Object.entries(def.fieldSelectors);
  if (extra.length) {
    const f: Record<string, string | undefined> = {};
    for (const [name, get] of extra) f[name] = get(obj);
    fields = f;
  }
  const labels = obj.metadata.labels && Object.keys(obj.metadata.labels).length ? obj.metadata.labels : undefined;
  return new CachedObject(key, rev, packBytes(JSON.stringify(obj)), labels, obj.metadata.uid, fields);
}

/** Field reader over a cached object, for Predicate.matchesAttributes. */
export function fieldReader(def: ResourceDefinition, o: CachedObject): FieldReader {
  return (field) => {
    switch (field) {
      case 'metadata.name':
        return o.name;
      case 'metadata.namespace':
        return def.namespaced ? o.namespace : '';
      case 'metadata.uid':
        return o.uid;
      default:
        return o.fields[field];
    }
  };
}
