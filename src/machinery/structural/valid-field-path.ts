/**
 * Upstream's ValidFieldPath (apiextensions schema/cel): a JSON path made of
 * `.field` and `['key']` steps that must name fields the structural schema
 * declares (or entries of a map it declares), as `x-kubernetes-validations`
 * fieldPath and `selectableFields[].jsonPath` use it. Returns the path as a
 * field path and the schema it reaches, or upstream's error text.
 */
import { FieldPath } from '../field-errors';
import { additionalPropertiesSchema, isSet, JSONSchemaProps, nonEmpty } from './json-schema-props';

export type FieldPathResult = { ok: true; path: FieldPath | undefined; schema: JSONSchemaProps | undefined; root: string | undefined } | { ok: false; error: string };

/** The tokens of bufio's split in upstream: `.`, `[`, `]` alone; quoted strings whole; the text between. */
function tokens(path: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < path.length) {
    if (path[i] === "'") {
      let j = i + 1;
      while (j < path.length && !(path[j] === "'" && path[j - 1] !== '\\')) j++;
      out.push(path.slice(i, Math.min(j + 1, path.length)));
      i = j + 1;
      continue;
    }
    if ('.[]'.includes(path[i])) {
      out.push(path[i++]);
      continue;
    }
    let j = i;
    while (j < path.length && !'.[]'.includes(path[j])) j++;
    out.push(path.slice(i, j));
    i = j;
  }
  return out;
}

const escapes: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', "'": "'", '\\': '\\' };

function unescapeSingleQuote(s: string): { ok: true; value: string } | { ok: false; error: string } {
  let error: string | undefined;
  const value = s.replace(/\\[\s\S]/g, (m) => {
    const e = escapes[m[1]];
    if (e === undefined) error ??= `invalid escape char ${m}`;
    return e ?? '';
  });
  return error ? { ok: false, error } : { ok: true, value };
}

export function validFieldPath(jsonPath: string, root: JSONSchemaProps, allowArrayNotation = true): FieldPathResult {
  let schema: JSONSchemaProps | undefined = root;
  let path: FieldPath | undefined;
  let first: string | undefined;
  const invalidField = { ok: false as const, error: 'does not refer to a valid field' };
  const step = (name: string): boolean => {
    if (!schema) return false;
    // An empty properties map is no map upstream (NewStructural keeps only non-empty ones).
    const named = nonEmpty(schema.properties);
    if (!named && !isSet(schema.additionalProperties)) return false;
    path = path ? (named ? path.child(name) : path.key(name)) : FieldPath.root(named ? name : `[${name}]`);
    first ??= named ? name : `[${name}]`;
    schema = named ? schema.properties![name] : additionalPropertiesSchema(schema);
    return !named || schema !== undefined;
  };
  const toks = tokens(jsonPath);
  for (let i = 0; i < toks.length; i++) {
    const tok = toks[i];
    if (tok === '[') {
      if (!allowArrayNotation) return { ok: false, error: 'array notation is not allowed' };
      const quoted = toks[++i];
      if (quoted === undefined) return { ok: false, error: 'unexpected end of JSON path' };
      if (quoted.length < 2 || quoted[0] !== "'" || quoted[quoted.length - 1] !== "'") {
        return { ok: false, error: `expected single quoted string but got ${quoted}` };
      }
      const key = unescapeSingleQuote(quoted.slice(1, -1));
      if (!key.ok) return { ok: false, error: `invalid string literal: ${key.error}` };
      if (!step(key.value)) return invalidField;
      const close = toks[++i];
      if (close === undefined) return { ok: false, error: 'unexpected end of JSON path' };
      if (close !== ']') return { ok: false, error: `expected ] but got ${close}` };
    } else if (tok === '.') {
      const name = toks[++i];
      if (name === undefined) return { ok: false, error: 'unexpected end of JSON path' };
      if (!step(name)) return invalidField;
    } else {
      return { ok: false, error: `expected [ or . but got: ${tok}` };
    }
  }
  return { ok: true, path, schema, root: first };
}
