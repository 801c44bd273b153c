/**
 * The FieldsV1 a create records when nobody owns anything yet: every field the object sets is new, so the writer
 * owns all of them, each container as a member with its content below. Built straight from the object, as
 * compare() from nothing, stripUntracked and setToFieldsV1 would build it, without the field sets in between
 * (they were most of a create's allocations). Only for that case; every other write takes the general path.
 */
import { isPlainObject } from '../object';
import type { Schema } from '../schema/schema';
import { untrackedMetadata } from './entries';
import type { FieldsV1 } from './fields-v1';
import { compareElements, PathElement } from './path';
import { atomOf, fieldType, itemsById } from './typed';

/**
 * The fields of `obj` (a whole object being created) but type meta, the untracked metadata and the top-level
 * fields in `reset`; `{}` when there are none. Undefined when the kind's schema is not a struct with a struct
 * metadata, which the general path handles.
 */
export function createdFieldsV1(obj: Record<string, unknown>, schema: Schema | undefined, reset: readonly string[]): FieldsV1 | undefined {
  const root = atomOf(schema, obj);
  const meta = obj.metadata;
  if (root.kind !== 'map' || root.atomic || !isPlainObject(meta)) return undefined;
  const metaAtom = atomOf(fieldType(root, 'metadata').schema, meta);
  if (metaAtom.kind !== 'map' || metaAtom.atomic) return undefined;
  const top: Entry[] = [];
  for (const k in obj) {
    if (k === 'apiVersion' || k === 'kind' || k === 'metadata' || obj[k] === undefined || reset.includes(k)) continue;
    top.push([`f:${k}`, { field: k }, added(obj[k], fieldType(root, k).schema)]);
  }
  const metaFields: Entry[] = [];
  for (const k in meta) {
    if (untrackedMetadata.includes(k) || meta[k] === undefined) continue;
    metaFields.push([`f:${k}`, { field: k }, added(meta[k], fieldType(metaAtom, k).schema)]);
  }
  // metadata itself is never owned, only what it holds.
  if (metaFields.length) top.push(['f:metadata', { field: 'metadata' }, sorted(metaFields, false)]);
  return sorted(top, false);
}

type Entry = [key: string, pe: PathElement, fields: FieldsV1];

/** A value that is new as a whole: itself a member, and, when it is a granular container, everything in it. */
function added(v: unknown, schema: Schema | undefined): FieldsV1 {
  const atom = atomOf(schema, v);
  if (atom.kind === 'scalar') return {};
  if (atom.kind === 'list') {
    if (atom.relation === 'atomic' || !Array.isArray(v) || v.length === 0) return {};
    const entries: Entry[] = [];
    // An item whose key is repeated is owned as a whole, nothing below it.
    for (const [id, { pe, values }] of itemsById(atom, v)) entries.push([id, pe, values.length === 1 ? added(values[0], atom.items) : {}]);
    return sorted(entries, true);
  }
  if (atom.atomic || !isPlainObject(v)) return {};
  const entries: Entry[] = [];
  for (const k in v) if (v[k] !== undefined) entries.push([`f:${k}`, { field: k }, added(v[k], fieldType(atom, k).schema)]);
  return sorted(entries, true);
}

/** The entries in upstream's element order, after `"."` when the container is a member with content. */
function sorted(entries: Entry[], member: boolean): FieldsV1 {
  const out: FieldsV1 = {};
  if (entries.length === 0) return out;
  if (member) out['.'] = {};
  if (entries.length > 1) entries.sort((a, b) => compareElements(a[1], b[1]));
  for (const [key, , fields] of entries) out[key] = fields;
  return out;
}
