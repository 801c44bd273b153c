/**
 * The fields an object sets, as an applier owns them: scalars and atomic
 * lists/maps are leaves; entries of granular maps and items of set/map lists
 * are members themselves; a struct field holding a non-empty value is owned
 * only through what lies below it.
 */
import { isPlainObject } from '../object';
import type { Schema } from '../schema/schema';
import { FieldSet } from './field-set';
import { field, Path, PathElement, serializeElement } from './path';
import { atomOf, fieldType, listItemElement } from './typed';

export function toFieldSet(value: unknown, schema: Schema | undefined): FieldSet {
  const set = new FieldSet();
  walk(value, schema, [], set);
  return set;
}

function walk(v: unknown, schema: Schema | undefined, path: Path, set: FieldSet): void {
  const atom = atomOf(schema, v);
  if (atom.kind === 'scalar') return set.insert(path);
  if (atom.kind === 'list') {
    if (atom.relation === 'atomic') return set.insert(path);
    if (!Array.isArray(v)) return;
    const elements = v.map((item) => listItemElement(atom, item));
    const count = new Map<string, number>();
    for (const pe of elements) if (typeof pe !== 'string') count.set(serializeElement(pe), (count.get(serializeElement(pe)) ?? 0) + 1);
    const done = new Set<string>();
    v.forEach((item, i) => {
      const pe = elements[i];
      if (typeof pe === 'string') return;
      const id = serializeElement(pe);
      const itemPath = [...path, pe];
      // Duplicated keys (only possible in stored objects) are owned as a whole.
      if (count.get(id)! > 1) {
        if (!done.has(id)) set.insert(itemPath);
        done.add(id);
        return;
      }
      walk(item, atom.items, itemPath, set);
      set.insert(itemPath);
    });
    return;
  }
  if (atom.atomic) return set.insert(path);
  if (!isPlainObject(v)) return;
  for (const [key, child] of Object.entries(v)) {
    if (child === undefined) continue;
    const ft = fieldType(atom, key);
    const childPath = [...path, field(key)];
    walk(child, ft.schema, childPath, set);
    if (child === null || (isPlainObject(child) && Object.keys(child).length === 0) || !ft.declared) set.insert(childPath);
  }
}

/**
 * Adds, as members, every struct field that has owned paths below it, so that
 * pruning can remove a field whose whole content is gone (upstream's
 * EnsureNamedFieldsAreMembers).
 */
export function ensureNamedFieldsAreMembers(set: FieldSet, schema: Schema | undefined): FieldSet {
  const out = new FieldSet();
  const atom = atomOf(schema);
  for (const [k, pe] of set.members) out.addMember(k, pe);
  for (const [k, c] of set.children) {
    let childSchema: Schema | undefined;
    if ('field' in c.pe && atom.kind === 'map') {
      const ft = fieldType(atom, c.pe.field);
      if (ft.declared) out.addMember(k, c.pe);
      childSchema = ft.schema;
    } else if ('key' in c.pe && atom.kind === 'list') childSchema = atom.items;
    out.setChild(k, { pe: c.pe, set: ensureNamedFieldsAreMembers(c.set, childSchema) });
  }
  return out;
}

/** A path element's child schema, for walkers that follow a set rather than a value. */
export function childSchema(schema: Schema | undefined, pe: PathElement): Schema | undefined {
  const atom = atomOf(schema);
  if ('field' in pe && atom.kind === 'map') return fieldType(atom, pe.field).schema;
  if (!('field' in pe) && atom.kind === 'list') return atom.items;
  return undefined;
}
