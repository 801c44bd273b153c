/**
 * The declared schema seen the way server-side apply sees it: every value
 * is a scalar, a map (struct fields, or additionalProperties entries), or a
 * list that is atomic, a set of scalars, or a map keyed by some fields.
 * Values with no schema (preserve-unknown, free-form objects) are typed by
 * their shape: objects are granular maps, lists are atomic.
 */
import { isPlainObject, ownValue } from '../object';
import { deref, itemSchema, Schema } from '../schema/schema';
import { keyElement, PathElement, serializeElement } from './path';
import { valueToString } from './go-values';

export type Atom =
  | { kind: 'scalar'; schema?: Schema }
  | {
      kind: 'map';
      atomic: boolean;
      fields: Record<string, Schema>;
      /** Schema of entries not declared as fields; 'untyped' when anything goes; undefined when closed. */
      elements: Schema | 'untyped' | undefined;
    }
  | { kind: 'list'; relation: 'atomic' | 'set' | 'map'; keys: string[]; items?: Schema };

function shapeAtom(value: unknown): Atom {
  if (isPlainObject(value)) return { kind: 'map', atomic: false, fields: {}, elements: 'untyped' };
  if (Array.isArray(value)) return { kind: 'list', relation: 'atomic', keys: [] };
  return { kind: 'scalar' };
}

/** Atoms of typed schema nodes, which depend on the node alone (the tree never changes). */
const typedAtoms = new WeakMap<Schema, Atom>();

/** The atom of a schema node; untyped nodes take the shape of `value`. */
export function atomOf(raw: Schema | undefined, value?: unknown): Atom {
  if (!raw) return shapeAtom(value);
  const known = typedAtoms.get(raw);
  if (known) return known;
  const atom = typedAtomOf(deref(raw));
  if (!atom) return shapeAtom(value);
  typedAtoms.set(raw, atom);
  return atom;
}

function typedAtomOf(s: Schema | undefined): Atom | undefined {
  if (!s || (s['x-kubernetes-preserve-unknown-fields'] && !s.properties)) return undefined;
  if (s['x-kubernetes-int-or-string'] || s.anyOf) return { kind: 'scalar', schema: s };
  if (s.type === 'array' || s.items) {
    const type = s['x-kubernetes-list-type'];
    const strategy = s['x-kubernetes-patch-strategy'] ?? '';
    const mergeKey = s['x-kubernetes-patch-merge-key'];
    let relation: 'atomic' | 'set' | 'map' = 'atomic';
    let keys: string[] = [];
    if (type === 'map') [relation, keys] = ['map', s['x-kubernetes-list-map-keys'] ?? []];
    else if (type === 'set') relation = 'set';
    else if (!type && strategy.split(',').includes('merge')) [relation, keys] = mergeKey ? ['map', [mergeKey]] : ['set', []];
    if (relation === 'map' && keys.length === 0) relation = 'atomic';
    return { kind: 'list', relation, keys, items: itemSchema(s) };
  }
  if (s.type === 'object' || s.properties || s.additionalProperties !== undefined) {
    const ap = s.additionalProperties;
    const fields = s.properties ?? {};
    let elements: Schema | 'untyped' | undefined;
    if (typeof ap === 'object') elements = ap;
    else if (ap === true || !s.properties || s['x-kubernetes-preserve-unknown-fields']) elements = 'untyped';
    return { kind: 'map', atomic: s['x-kubernetes-map-type'] === 'atomic', fields, elements };
  }
  if (s.type) return { kind: 'scalar', schema: s };
  return undefined;
}

export interface FieldType {
  schema: Schema | undefined;
  /** A struct field (as opposed to an additionalProperties entry). */
  declared: boolean;
  /** The schema allows this key at all. */
  known: boolean;
}

export function fieldType(atom: Extract<Atom, { kind: 'map' }>, key: string): FieldType {
  const f = ownValue(atom.fields, key);
  if (f) return { schema: f, declared: true, known: true };
  if (atom.elements === undefined) return { schema: undefined, declared: false, known: false };
  return { schema: atom.elements === 'untyped' ? undefined : atom.elements, declared: false, known: true };
}

/** The path element of a list item, or the reason there is none (upstream's wording). */
export function listItemElement(atom: Extract<Atom, { kind: 'list' }>, item: unknown): PathElement | string {
  if (atom.relation === 'map') {
    if (item === null) return 'associative list with keys may not have a null element';
    if (!isPlainObject(item)) return 'associative list with keys may not have non-map elements';
    const key: Record<string, unknown> = {};
    for (const k of atom.keys) if (item[k] !== undefined) key[k] = item[k];
    if (Object.keys(key).length === 0) {
      return `associative list with keys has an element that omits all key fields [${atom.keys.map((k) => JSON.stringify(k)).join(' ')}] (and doesn't have default values for any key fields)`;
    }
    return keyElement(key);
  }
  if (isPlainObject(item)) return "associative list without keys has an element that's a map type";
  if (Array.isArray(item)) return 'not supported: associative list with lists as elements';
  if (item === null) return "associative list without keys has an element that's an explicit null";
  return { value: item };
}

/** A granular list's items by their element's FieldsV1 spelling, in order; items without an element are left out. */
export function itemsById(atom: Extract<Atom, { kind: 'list' }>, items: unknown[]): Map<string, { pe: PathElement; values: unknown[] }> {
  const m = new Map<string, { pe: PathElement; values: unknown[] }>();
  for (const item of items) {
    const pe = listItemElement(atom, item);
    if (typeof pe === 'string') continue;
    const id = serializeElement(pe);
    const e = m.get(id);
    if (e) e.values.push(item);
    else m.set(id, { pe, values: [item] });
  }
  return m;
}

/** Go's %#v of a decoded JSON value wrapped in structured-merge-diff's value type. */
export function goValueRepr(v: unknown): string {
  return `&value.valueUnstructured{Value:${goSyntax(v)}}`;
}

function goSyntax(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return valueToString(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSyntax).join(', ')}}`;
  if (isPlainObject(v)) return `map[string]interface {}{${Object.keys(v).sort().map((k) => `${valueToString(k)}:${goSyntax(v[k])}`).join(', ')}}`;
  return String(v);
}

export function goTypeName(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  if (isPlainObject(v)) return 'map[string]interface {}';
  return '<nil>';
}

/** Go's %v of the same wrapped value: `&{x}`. */
export function goPlain(v: unknown): string {
  const inner = (x: unknown): string => {
    if (x === null || x === undefined) return '<nil>';
    if (Array.isArray(x)) return `[${x.map(inner).join(' ')}]`;
    if (isPlainObject(x)) return `map[${Object.keys(x).sort().map((k) => `${k}:${inner(x[k])}`).join(' ')}]`;
    return String(x);
  };
  return `&{${inner(v)}}`;
}
