/**
 * FieldsV1, the JSON form of a field set in metadata.managedFields: one key
 * per path element (sorted as upstream sorts them), `{}` for a member leaf,
 * and `".": {}` inside an element that is a member and also has children.
 */
import { isPlainObject } from '../object';
import { FieldSet } from './field-set';
import { compareElements, parseElement, PathElement, serializeElement, UnknownElementTypeError } from './path';

export type FieldsV1 = Record<string, unknown>;

export function setToFieldsV1(set: FieldSet): FieldsV1 {
  return encode(set, false);
}

function encode(set: FieldSet, selfMember: boolean): FieldsV1 {
  const out: FieldsV1 = {};
  if (selfMember) out['.'] = {};
  // Keyed by their FieldsV1 spelling already: sorted with it, nothing is spelled again.
  const elements = new Map<string, PathElement>();
  for (const [k, pe] of set.members) elements.set(k, pe);
  for (const [k, c] of set.children) if (!c.set.empty()) elements.set(k, c.pe);
  for (const [k] of [...elements].sort((x, y) => compareElements(x[1], y[1]))) {
    const child = set.children.get(k);
    const member = set.members.has(k);
    out[k] = child && !child.set.empty() ? encode(child.set, member) : {};
  }
  return out;
}

/** Parses FieldsV1; throws on malformed keys, ignores element types it does not know (as upstream). */
export function fieldsV1ToSet(fields: unknown): FieldSet {
  if (!isPlainObject(fields)) throw new Error('FieldsV1 must be a JSON object');
  const { children } = decode(fields);
  return children ?? new FieldSet();
}

/** What an element without children decodes to (most of them: `{}`); shared, callers only read it. */
const leaf: { children?: FieldSet; member: boolean } = { member: true };

function decode(obj: Record<string, unknown>): { children?: FieldSet; member: boolean } {
  let children: FieldSet | undefined;
  let member = false;
  for (const key in obj) {
    const value = obj[key];
    if (key === '.') {
      member = true;
      continue;
    }
    let pe: PathElement;
    try {
      pe = parseElement(key);
    } catch (e) {
      if (e instanceof UnknownElementTypeError) continue;
      throw e;
    }
    if (!isPlainObject(value)) throw new Error(`value of ${key} must be a JSON object`);
    const sub = decode(value);
    children ??= new FieldSet();
    // A field's key is its own spelling; other elements are spelled anew, as their JSON may be written differently.
    if (sub.member) children.addMember('field' in pe ? key : serializeElement(pe), pe);
    if (sub.children) {
      const into = children.descend(pe);
      for (const [k, m] of sub.children.members) into.addMember(k, m);
      for (const [k, c] of sub.children.children) into.setChild(k, c);
    }
  }
  if (!children) return leaf;
  return { children, member };
}
