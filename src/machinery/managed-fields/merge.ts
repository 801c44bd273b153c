/**
 * Merging an applied configuration into the live object, and removing a set
 * of fields from an object, following the schema's list and map semantics.
 * Merged lists keep the configuration's order for the items it names and
 * leave the other live items where they were.
 */
import { isPlainObject } from '../object';
import type { Schema } from '../schema/schema';
import type { FieldSet } from './field-set';
import { field, PathElement, serializeElement } from './path';
import { Atom, atomOf, fieldType, listItemElement } from './typed';

/** The live value `l` with `r` merged in (`undefined`: absent). */
export function merge(l: unknown, r: unknown, schema: Schema | undefined): unknown {
  const atom = atomOf(schema, r !== undefined ? r : l);
  const keepRight = () => (r !== undefined ? r : l);
  if (atom.kind === 'scalar') return keepRight();
  if (atom.kind === 'list') {
    const ll = Array.isArray(l) ? l : undefined;
    const rl = Array.isArray(r) ? r : undefined;
    if (atom.relation === 'atomic' || (!ll?.length && !rl?.length)) return keepRight();
    if (r !== undefined && r !== null && !rl) return r; // an untyped value changed shape
    const out = mergeItems(atom, ll ?? [], rl ?? []);
    return out.length ? out : undefined;
  }
  const lm = isPlainObject(l) ? l : undefined;
  const rm = isPlainObject(r) ? r : undefined;
  if (atom.atomic || ((!lm || !Object.keys(lm).length) && (!rm || !Object.keys(rm).length))) return keepRight();
  if (r !== undefined && r !== null && !rm) return r; // null merges as an empty map, as upstream
  const out: Record<string, unknown> = {};
  const keys = [...Object.keys(lm ?? {}), ...Object.keys(rm ?? {}).filter((k) => !lm || !(k in lm))];
  for (const k of keys) {
    const v = merge(lm?.[k], rm?.[k], fieldType(atom, k).schema);
    if (v !== undefined) out[k] = v;
  }
  return Object.keys(out).length ? out : undefined;
}

interface Indexed {
  pe: PathElement;
  id: string;
  item: unknown;
}

function indexItems(atom: Extract<Atom, { kind: 'list' }>, items: unknown[]): Indexed[] {
  // Items without a usable key (only possible in stored objects) are kept as they are, matching nothing.
  return items.map((item, i) => {
    const pe = listItemElement(atom, item);
    return typeof pe === 'string' ? { pe: { index: i }, id: `\u0000unkeyed:${i}`, item } : { pe, id: serializeElement(pe), item };
  });
}

/** structured-merge-diff's list merge: shared items follow the right side's order. */
function mergeItems(atom: Extract<Atom, { kind: 'list' }>, ll: unknown[], rl: unknown[]): unknown[] {
  const lhs = indexItems(atom, ll);
  const rhs = indexItems(atom, rl);
  const observedR = new Map(rhs.map((x) => [x.id, x.item]));
  const observedL = new Map<string, unknown>();
  for (const x of lhs) observedL.set(x.id, observedL.has(x.id) ? undefined : x.item); // duplicates are not merged
  const shared = rhs.filter((x) => observedL.has(x.id)).map((x) => x.id);
  let nextShared = shared.shift();
  const mergedR = new Set<string>();
  const out: unknown[] = [];
  const push = (l: unknown, r: unknown) => {
    const v = merge(l, r, atom.items);
    if (v !== undefined) out.push(v);
  };
  let li = 0;
  let ri = 0;
  while (li < lhs.length || ri < rhs.length) {
    if (li < lhs.length && ri < rhs.length) {
      const id = lhs[li].id;
      if (id === rhs[ri].id) {
        mergedR.add(id);
        push(observedL.get(id), observedR.get(id));
        li++;
        ri++;
        nextShared = shared.shift();
        continue;
      }
      if (observedR.has(id) && nextShared !== undefined && nextShared !== id) {
        li++;
        continue;
      }
    }
    if (li < lhs.length) {
      const { id, item } = lhs[li];
      if (!observedR.has(id)) {
        push(item, undefined);
        li++;
        continue;
      } else if (mergedR.has(id)) li++;
    }
    if (ri < rhs.length) {
      const id = rhs[ri].id;
      mergedR.add(id);
      push(observedL.get(id), observedR.get(id));
      ri++;
      if (nextShared === id) nextShared = shared.shift();
    }
  }
  return out;
}

/** `v` without the paths of `set` (null where a container lost everything, as upstream). */
export function removeItems(v: unknown, set: FieldSet, schema: Schema | undefined): unknown {
  const atom = atomOf(schema, v);
  if (atom.kind === 'scalar') return v;
  if (atom.kind === 'list') {
    if (!Array.isArray(v) || v.length === 0 || atom.relation === 'atomic') return null;
    const out: unknown[] = [];
    for (const item of v) {
      const pe = listItemElement(atom, item);
      if (typeof pe === 'string') {
        out.push(item);
        continue;
      }
      if (set.has([pe])) continue;
      const sub = set.withPrefix(pe);
      out.push(sub.empty() ? item : removeItems(item, sub, atom.items));
    }
    return out.length ? out : null;
  }
  if (!isPlainObject(v) || Object.keys(v).length === 0 || atom.atomic) return null;
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(v)) {
    const pe = field(k);
    if (set.has([pe])) continue;
    const sub = set.withPrefix(pe);
    out[k] = sub.empty() ? val : removeItems(val, sub, fieldType(atom, k).schema);
  }
  return Object.keys(out).length ? out : null;
}
