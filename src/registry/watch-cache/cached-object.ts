/**
 * One object as the cache holds it: its JSON bytes (with resourceVersion
 * set, ready to be written to a socket) in a slab, and the few attributes
 * selectors need. The decoded object is dropped after ingest to keep memory
 * near the JSON size; name and namespace are read back from the key.
 */
import type { ResourceDefinition } from '../../machinery/resource-definition';
import type { KObject } from '../../machinery/object';
import { parseStored } from '../codec';
import type { FieldReader } from '../predicate';
import { SlabWriter } from './byte-slab';
import { revisionInsertAt, withRevision } from '../with-revision';
import { takeWritten } from '../encoded-objects';

const noFields: Readonly<Record<string, string | undefined>> = Object.freeze({});
/** Slabs for objects made outside a kind's cache (unit tests). */
const loose = new SlabWriter();

export class CachedObject {
  constructor(
    readonly key: string,
    /** modRevision: the object's resourceVersion. */
    readonly rev: number,
    /** The bytes are slab[start, start + size), followed by a comma (see byte-slab.ts). */
    readonly slab: Buffer,
    readonly start: number,
    readonly size: number,
    readonly labels: Readonly<Record<string, string>> | undefined,
    /** The uid, or where its characters sit in the bytes (see uidRef). */
    private readonly uidAt: string | number | undefined,
    /** Values of the kind's own field selectors. */
    readonly fields: Readonly<Record<string, string | undefined>>,
    /** Whether metadata.deletionTimestamp is set (controllers wake on it without searching the bytes). */
    readonly deleting = false,
  ) {}

  /** A cached object of the given JSON, written by `writer` (the kind's slabs). */
  static of(key: string, rev: number, json: string, labels?: Record<string, string>, uid?: string, fields = noFields, writer = loose, deleting = false): CachedObject {
    writer.write(json);
    const { slab, start, size } = writer;
    return new CachedObject(key, rev, slab, start, size, labels, uidRef(slab, start, size, uid), fields, deleting);
  }

  /** A cached object of stored bytes with `insert` written in at `at` (the resourceVersion member). */
  static ofBytes(key: string, rev: number, stored: Buffer, { at, insert }: { at: number; insert: Buffer }, labels: Record<string, string> | undefined, uid: string | undefined, fields: Readonly<Record<string, string | undefined>>, writer: SlabWriter, deleting: boolean): CachedObject {
    writer.copySpliced(stored, at, insert);
    const { slab, start, size } = writer;
    return new CachedObject(key, rev, slab, start, size, labels, uidRef(slab, start, size, uid), fields, deleting);
  }

  /** The same object with its bytes copied by `writer` (compaction). */
  copyTo(writer: SlabWriter): CachedObject {
    writer.copy(this.slab, this.start, this.size);
    return new CachedObject(this.key, this.rev, writer.slab, writer.start, this.size, this.labels, this.uidAt, this.fields, this.deleting);
  }

  /** A view of the JSON bytes (allocates one; a list takes one slice per run of neighbours instead). */
  get bytes(): Buffer {
    return this.slab.subarray(this.start, this.start + this.size);
  }

  get uid(): string | undefined {
    const at = this.uidAt;
    if (typeof at !== 'number') return at;
    const from = this.start + Math.floor(at / 256);
    return this.slab.toString('latin1', from, from + (at % 256));
  }

  get name(): string {
    return this.key.slice(this.key.lastIndexOf('/') + 1);
  }

  /** Namespace from `/<...>/<plural>/<ns>/<name>`; callers ask only for namespaced kinds. */
  get namespace(): string {
    const end = this.key.lastIndexOf('/');
    return this.key.slice(this.key.lastIndexOf('/', end - 1) + 1, end);
  }

  decode(): KObject {
    return JSON.parse(this.slab.toString('utf8', this.start, this.start + this.size)) as KObject;
  }

  /** The same object with another resourceVersion (DELETED events carry the deletion revision). */
  bytesAt(rev: number): Buffer {
    if (rev === this.rev) return this.bytes;
    const obj = this.decode();
    obj.metadata.resourceVersion = String(rev);
    return Buffer.from(JSON.stringify(obj));
  }
}

/**
 * An ASCII uid is not kept as a string of its own (about 60 bytes of heap):
 * its characters are in the object's JSON already, so the cache keeps their
 * offset and length packed in one small integer and reads them back.
 */
function uidRef(slab: Buffer, start: number, size: number, uid: string | undefined): string | number | undefined {
  if (uid === undefined || uid.length === 0 || uid.length > 255 || !/^[\x20-\x7e]+$/.test(uid)) return uid;
  const at = slab.indexOf(uid, start, 'latin1');
  if (at < 0 || at + uid.length > start + size || at - start >= 1 << 22) return uid;
  return (at - start) * 256 + uid.length;
}

/** Builds the cached form of a stored value; throws CorruptObjectError on bad bytes. */
export function cacheObject(def: ResourceDefinition, key: string, value: Buffer, rev: number, writer: SlabWriter): CachedObject {
  // This process's own write: what the cache reads of it was taken before the write, and its bytes hold no
  // resourceVersion (encodeForStorage drops it), so the revision goes in by copying the bytes around it.
  const written = def.storedAs ? undefined : takeWritten(def, key, value);
  const inWritten = written?.slot && revisionInsertAt(value, rev, written.slot);
  if (written && inWritten) return CachedObject.ofBytes(key, rev, value, inWritten, written.labels, written.uid, written.fields ?? noFields, writer, written.deleting);
  const text = value.toString('utf8');
  const obj = parseStored(def, text, rev, key);
  const inBytes = !def.storedAs && !('resourceVersion' in obj.metadata) ? revisionInsertAt(value, rev) : undefined;
  const json = inBytes || def.storedAs ? undefined : withRevision(text, obj.metadata, rev);
  obj.metadata.resourceVersion = String(rev);
  let fields = noFields;
  const extra = Object.entries(def.fieldSelectors);
  if (extra.length) {
    const f: Record<string, string | undefined> = {};
    for (const [name, get] of extra) f[name] = get(obj);
    fields = f;
  }
  const meta = obj.metadata;
  const labels = meta.labels && Object.keys(meta.labels).length ? meta.labels : undefined;
  const deleting = !!meta.deletionTimestamp;
  if (inBytes) return CachedObject.ofBytes(key, rev, value, inBytes, labels, meta.uid, fields, writer, deleting);
  return CachedObject.of(key, rev, json ?? JSON.stringify(obj), labels, meta.uid, fields, writer, deleting);
}

/**
 * Field reader over cached objects, for Predicate.matchesAttributes: one per
 * list or watch, pointed at each object in turn (a closure per object would
 * be garbage for every object a selector looks at).
 */
export class CachedFields {
  private current: CachedObject | undefined;
  readonly read: FieldReader = (field) => {
    const o = this.current!;
    switch (field) {
      case 'metadata.name':
        return o.name;
      case 'metadata.namespace':
        return this.def.namespaced ? o.namespace : '';
      case 'metadata.uid':
        return o.uid;
      default:
        return o.fields[field];
    }
  };

  constructor(private readonly def: ResourceDefinition) {}

  of(o: CachedObject): FieldReader {
    this.current = o;
    return this.read;
  }
}

/**
 * The objects' JSON joined by commas, as slices of their slabs: objects that
 * sit next to each other in a slab (each followed by its comma) go out as one
 * slice, so a list of objects loaded together costs a few slices, not one per item.
 */
export function joinedBytes(objects: readonly CachedObject[]): Buffer[] {
  const out: Buffer[] = [];
  let slab: Buffer | undefined;
  let from = 0;
  let to = 0;
  for (const o of objects) {
    if (o.slab === slab && o.start === to) {
      to += o.size + 1;
      continue;
    }
    if (slab) out.push(slab.subarray(from, to));
    slab = o.slab;
    from = o.start;
    to = from + o.size + 1;
  }
  if (slab) out.push(slab.subarray(from, to - 1)); // the last one without its comma
  return out;
}
