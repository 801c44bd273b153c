/**
 * Field paths of server-side apply: a field name, a map-list element by its
 * key fields, a set member by value, or a list index. Each element has two
 * spellings: the FieldsV1 key (`f:name`, `k:{"port":80}`, `v:"a"`, `i:0`)
 * and the one conflict messages print (`.name`, `[port=80]`, `[="a"]`, `[0]`).
 */
import { isPlainObject } from '../object';
import { byteCompare, compareValues, goJson, goJsonString, valueToString } from './go-values';

export type PathElement =
  | { field: string }
  /** Key fields sorted by name. */
  | { key: Array<[string, unknown]> }
  | { value: unknown }
  | { index: number };

export type Path = PathElement[];

export const field = (name: string): PathElement => ({ field: name });

export function keyElement(fields: Record<string, unknown>): PathElement {
  return { key: Object.keys(fields).sort(byteCompare).map((k) => [k, fields[k]] as [string, unknown]) };
}

/** The FieldsV1 spelling; also the identity of an element (equal elements, equal strings). */
export function serializeElement(pe: PathElement): string {
  if ('field' in pe) return `f:${pe.field}`;
  if ('key' in pe) return `k:{${pe.key.map(([k, v]) => `${goJsonString(k)}:${goJson(v)}`).join(',')}}`;
  if ('value' in pe) return `v:${goJson(pe.value)}`;
  return `i:${pe.index}`;
}

export class UnknownElementTypeError extends Error {}

/** Parses a FieldsV1 key; unknown type letters raise UnknownElementTypeError (upstream skips them). */
export function parseElement(s: string): PathElement {
  if (s.length < 2) throw new Error(`key must be 2 characters long: ${s}`);
  if (s[1] !== ':') throw new Error(`missing colon: ${s}`);
  const rest = s.slice(2);
  switch (s[0]) {
    case 'f':
      return { field: rest };
    case 'v':
      return { value: parseJson(rest) };
    case 'k': {
      const obj = parseJson(rest);
      if (!isPlainObject(obj)) throw new Error(`key of ${s} is not a JSON object`);
      return keyElement(obj);
    }
    case 'i': {
      if (!/^-?\d+$/.test(rest)) throw new Error(`invalid index in ${s}`);
      return { index: Number(rest) };
    }
    default:
      throw new UnknownElementTypeError(`unknown path element type: ${s}`);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`managedFields parsing: ${(e as Error).message}`);
  }
}

/** The spelling of conflict messages and causes (structured-merge-diff's PathElement.String). */
export function elementString(pe: PathElement): string {
  if ('field' in pe) return `.${pe.field}`;
  if ('key' in pe) return `[${pe.key.map(([k, v]) => `${k}=${valueToString(v)}`).join(',')}]`;
  if ('value' in pe) return `[=${valueToString(pe.value)}]`;
  return `[${pe.index}]`;
}

export function pathString(p: Path): string {
  return p.map(elementString).join('');
}

const kindRank = (pe: PathElement): number => ('field' in pe ? 0 : 'key' in pe ? 1 : 'value' in pe ? 2 : 3);

/** Upstream's element order: fields < keys < values < indices, each compared within its kind. */
export function compareElements(a: PathElement, b: PathElement): number {
  const ra = kindRank(a);
  const rb = kindRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if ('field' in a) return byteCompare(a.field, (b as { field: string }).field);
  if ('key' in a) {
    const bk = (b as { key: Array<[string, unknown]> }).key;
    for (let i = 0; i < Math.min(a.key.length, bk.length); i++) {
      const c = byteCompare(a.key[i][0], bk[i][0]) || compareValues(a.key[i][1], bk[i][1]);
      if (c !== 0) return c;
    }
    return a.key.length < bk.length ? -1 : a.key.length > bk.length ? 1 : 0;
  }
  if ('value' in a) return compareValues(a.value, (b as { value: unknown }).value);
  const bi = (b as { index: number }).index;
  return a.index < bi ? -1 : a.index > bi ? 1 : 0;
}
