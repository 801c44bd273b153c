/**
 * Which fields a write added, modified or removed. Leaves (scalars, atomic
 * lists and maps, and containers empty on both sides) are compared by value;
 * a granular map, list or list item that appears or disappears as a whole is
 * reported itself as well as everything below it.
 */
import { deepEqual, isPlainObject } from '../object';
import type { Schema } from '../schema/schema';
import { FieldSet } from './field-set';
import { field, Path } from './path';
import { Atom, atomOf, fieldType, itemsById } from './typed';

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

export function compare(lhs: unknown, rhs: unknown, schema: Schema | undefined): Comparison {
  const c: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  walk(lhs, rhs, schema, [], c);
  return c;
}

/** `undefined` means absent; `null` is a value. */
function walk(l: unknown, r: unknown, schema: Schema | undefined, path: Path, c: Comparison): void {
  const atom = sameAtom(atomOf(schema, r !== undefined ? r : l), l, r);
  const leaf = () => {
    if (l === undefined) c.added.insert(path);
    else if (r === undefined) c.removed.insert(path);
    else if (!deepEqual(l, r)) c.modified.insert(path);
  };
  if (!atom || atom.kind === 'scalar') return leaf();
  if (atom.kind === 'list') {
    const ll = Array.isArray(l) ? l : undefined;
    const rl = Array.isArray(r) ? r : undefined;
    if (atom.relation === 'atomic' || (!ll?.length && !rl?.length)) return leaf();
    compareItems(atom, ll ?? [], rl ?? [], path, c);
  } else {
    const lm = isPlainObject(l) ? l : undefined;
    const rm = isPlainObject(r) ? r : undefined;
    if (atom.atomic || (isEmpty(lm) && isEmpty(rm))) return leaf();
    // One side absent (every field of a create): its keys as they are, no set to build.
    const keys = lm && rm ? new Set([...Object.keys(lm), ...Object.keys(rm)]) : Object.keys(lm ?? rm ?? {});
    for (const k of keys) {
      const lv = lm?.[k];
      const rv = rm?.[k];
      if (lv === undefined && rv === undefined) continue;
      walk(lv, rv, fieldType(atom, k).schema, [...path, field(k)], c);
    }
  }
  if (l === undefined) c.added.insert(path);
  else if (r === undefined) c.removed.insert(path);
}

const isEmpty = (m: Record<string, unknown> | undefined) => !m || Object.keys(m).length === 0;

/** Values of an untyped field may change shape; compare those as leaves. */
function sameAtom(atom: Atom, l: unknown, r: unknown): Atom | undefined {
  if (l === undefined || r === undefined || l === null || r === null) return atom;
  if (Array.isArray(l) !== Array.isArray(r) || isPlainObject(l) !== isPlainObject(r)) return undefined;
  return atom;
}

function compareItems(atom: Extract<Atom, { kind: 'list' }>, ll: unknown[], rl: unknown[], path: Path, c: Comparison): void {
  const lv = itemsById(atom, ll);
  const rv = itemsById(atom, rl);
  const order = [...lv.keys(), ...[...rv.keys()].filter((k) => !lv.has(k))];
  for (const id of order) {
    const pe = (lv.get(id) ?? rv.get(id))!.pe;
    const ls = lv.get(id)?.values ?? [];
    const rs = rv.get(id)?.values ?? [];
    const itemPath = [...path, pe];
    if (ls.length <= 1 && rs.length <= 1) walk(ls[0], rs[0], atom.items, itemPath, c);
    else if (ls.length >= 2 && rs.length >= 2) {
      if (!deepEqual(ls, rs)) c.modified.insert(itemPath);
    } else if (ls.length >= 2) {
      if (rs.length) walk(undefined, rs[0], atom.items, itemPath, c);
      c.removed.insert(itemPath);
    } else {
      if (ls.length) walk(ls[0], undefined, atom.items, itemPath, c);
      c.added.insert(itemPath);
    }
  }
}
