/**
 * JSON values as Go code prints and orders them. managedFields keys
 * (`k:{...}`, `v:...`), conflict paths and the last-applied annotation must be
 * byte-identical to what kube-apiserver writes, so the encoding follows Go's
 * encoding/json (sorted map keys, HTML-safe escapes) rather than JSON.stringify.
 */
import { compareGoStrings } from '../go-string-order';
import { isPlainObject } from '../object';

const shortEscapes: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** What Go's encoding/json escapes (EscapeHTML on); most names and values have none of it. */
const escaped = /["\\\u0000-\u001f<>&\u2028\u2029]/;

/** A string literal as Go's encoding/json writes it (EscapeHTML on). */
export function goJsonString(s: string): string {
  if (!escaped.test(s)) return `"${s}"`;
  let out = '"';
  for (const ch of s) {
    const short = shortEscapes[ch];
    if (short) out += short;
    else {
      const c = ch.codePointAt(0)!;
      if (c < 0x20 || ch === '<' || ch === '>' || ch === '&' || c === 0x2028 || c === 0x2029) {
        out += `\\u${c.toString(16).padStart(4, '0')}`;
      } else out += ch;
    }
  }
  return `${out}"`;
}

/** Compact JSON with object keys sorted, as Go marshals map[string]interface{}. */
export function goJson(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goJsonString(v);
  if (typeof v === 'number') return Number.isFinite(v) ? JSON.stringify(v) : 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `[${v.map(goJson).join(',')}]`;
  if (isPlainObject(v)) {
    const keys = Object.keys(v).filter((k) => v[k] !== undefined).sort(byteCompare);
    return `{${keys.map((k) => `${goJsonString(k)}:${goJson(v[k])}`).join(',')}}`;
  }
  return 'null';
}

/** Ordinal string comparison, as Go compares strings (by their UTF-8 bytes). */
export const byteCompare = compareGoStrings;

/** Go's %q for a string (strconv.Quote): JSON-like, but \x escapes and no HTML escaping. */
export function goQuote(s: string): string {
  return JSON.stringify(s).replace(/\\u00([0-9a-f]{2})/g, (_m, hex: string) => {
    const named: Record<string, string> = { '07': '\\a', '08': '\\b', '0b': '\\v', '0c': '\\f', '7f': '\\x7f' };
    return named[hex] ?? `\\x${hex}`;
  });
}

/** structured-merge-diff's value.ToString: strings quoted, lists in brackets, maps as k=v. */
export function valueToString(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(valueToString).join(',')}]`;
  if (isPlainObject(v)) return Object.keys(v).map((k) => `${k}=${valueToString(v[k])}`).join('');
  return '{{undefined}}';
}

const typeRank = (v: unknown): number => {
  if (typeof v === 'number') return Number.isInteger(v) ? 1 : 0;
  if (typeof v === 'string') return 2;
  if (typeof v === 'boolean') return 3;
  if (Array.isArray(v)) return 4;
  if (isPlainObject(v)) return 5;
  return 6; // null
};

/** value.Compare: numbers < strings < booleans < lists < maps < null; numbers compare numerically. */
export function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (typeof a === 'string') return byteCompare(a, b as string);
  if (typeof a === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    for (let i = 0; i < Math.min(a.length, bb.length); i++) {
      const c = compareValues(a[i], bb[i]);
      if (c !== 0) return c;
    }
    return a.length - bb.length < 0 ? -1 : a.length === bb.length ? 0 : 1;
  }
  if (isPlainObject(a)) {
    const bo = b as Record<string, unknown>;
    const ak = Object.keys(a).sort(byteCompare);
    const bk = Object.keys(bo).sort(byteCompare);
    for (let i = 0; i < Math.min(ak.length, bk.length); i++) {
      const c = byteCompare(ak[i], bk[i]) || compareValues(a[ak[i]], bo[bk[i]]);
      if (c !== 0) return c;
    }
    return ak.length - bk.length < 0 ? -1 : ak.length === bk.length ? 0 : 1;
  }
  return 0;
}
