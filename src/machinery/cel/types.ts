/**
 * The checker's type model, after cel-go's: primitives, list/map, objects
 * (schema-declared fields), opaque library types (Quantity, IP, …) and type
 * parameters. Names print as cel-go prints them, since they appear in
 * compile errors (`found no matching overload for '_+_' applied to '(int, string)'`).
 */

export type PrimitiveName = 'int' | 'uint' | 'double' | 'bool' | 'string' | 'bytes' | 'null_type' | 'timestamp' | 'duration';

export type CelT =
  | { readonly kind: 'primitive'; readonly name: PrimitiveName }
  | { readonly kind: 'dyn' }
  | { readonly kind: 'error' }
  | { readonly kind: 'type'; readonly of: CelT }
  | { readonly kind: 'list'; readonly elem: CelT }
  | { readonly kind: 'map'; readonly key: CelT; readonly value: CelT }
  | { readonly kind: 'object'; readonly name: string; readonly fields: ReadonlyMap<string, CelT> }
  | { readonly kind: 'opaque'; readonly name: string; readonly params: readonly CelT[] }
  | { readonly kind: 'param'; readonly name: string };

const prim = (name: PrimitiveName): CelT => ({ kind: 'primitive', name });

export const T = {
  int: prim('int'),
  uint: prim('uint'),
  double: prim('double'),
  bool: prim('bool'),
  string: prim('string'),
  bytes: prim('bytes'),
  null: prim('null_type'),
  timestamp: prim('timestamp'),
  duration: prim('duration'),
  dyn: { kind: 'dyn' } as CelT,
  error: { kind: 'error' } as CelT,
  list: (elem: CelT): CelT => ({ kind: 'list', elem }),
  map: (key: CelT, value: CelT): CelT => ({ kind: 'map', key, value }),
  type: (of: CelT): CelT => ({ kind: 'type', of }),
  param: (name: string): CelT => ({ kind: 'param', name }),
  opaque: (name: string, ...params: CelT[]): CelT => ({ kind: 'opaque', name, params }),
  object: (name: string, fields: ReadonlyMap<string, CelT>): CelT => ({ kind: 'object', name, fields }),
  optional: (of: CelT): CelT => ({ kind: 'opaque', name: 'optional_type', params: [of] }),
};

const protoNames: Partial<Record<PrimitiveName, string>> = { timestamp: 'google.protobuf.Timestamp', duration: 'google.protobuf.Duration' };

export function typeName(t: CelT): string {
  switch (t.kind) {
    case 'primitive':
      return protoNames[t.name] ?? t.name;
    case 'dyn':
      return 'dyn';
    case 'error':
      return '*error*';
    case 'type':
      return `type(${typeName(t.of)})`;
    case 'list':
      return `list(${typeName(t.elem)})`;
    case 'map':
      return `map(${typeName(t.key)}, ${typeName(t.value)})`;
    case 'object':
      return t.name;
    case 'opaque':
      return t.params.length ? `${t.name}(${t.params.map(typeName).join(', ')})` : t.name;
    case 'param':
      return t.name;
  }
}

/** Bindings of type parameters found while unifying; copied for trial matches. */
export type Substitution = Map<string, CelT>;

export function substitute(t: CelT, s: Substitution, unboundAsDyn = false): CelT {
  switch (t.kind) {
    case 'param': {
      const bound = s.get(t.name);
      if (bound) return substitute(bound, s, unboundAsDyn);
      return unboundAsDyn ? T.dyn : t;
    }
    case 'list':
      return T.list(substitute(t.elem, s, unboundAsDyn));
    case 'map':
      return T.map(substitute(t.key, s, unboundAsDyn), substitute(t.value, s, unboundAsDyn));
    case 'type':
      return T.type(substitute(t.of, s, unboundAsDyn));
    case 'opaque':
      return t.params.length ? T.opaque(t.name, ...t.params.map((p) => substitute(p, s, unboundAsDyn))) : t;
    default:
      return t;
  }
}

function occurs(name: string, t: CelT, s: Substitution): boolean {
  const u = substitute(t, s);
  if (u.kind === 'param') return u.name === name;
  if (u.kind === 'list') return occurs(name, u.elem, s);
  if (u.kind === 'map') return occurs(name, u.key, s) || occurs(name, u.value, s);
  if (u.kind === 'opaque') return u.params.some((p) => occurs(name, p, s));
  return false;
}

/**
 * Whether a value of type `from` may stand where `to` is expected, binding
 * free parameters in `s` (mutated only on success). Dyn and errors match
 * anything, as in cel-go; null fits objects and opaque types.
 */
export function assignable(to: CelT, from: CelT, s: Substitution): boolean {
  const trial = new Map(s);
  if (!unify(to, from, trial)) return false;
  for (const [k, v] of trial) s.set(k, v);
  return true;
}

const isNull = (t: CelT) => t.kind === 'primitive' && t.name === 'null_type';

function unify(a: CelT, b: CelT, s: Substitution): boolean {
  if (a.kind === 'param' && s.has(a.name)) return unify(s.get(a.name)!, b, s);
  if (b.kind === 'param' && s.has(b.name)) return unify(a, s.get(b.name)!, s);
  if (a.kind === 'param' || b.kind === 'param') {
    if (a.kind === 'param' && b.kind === 'param' && a.name === b.name) return true;
    const [p, other] = a.kind === 'param' ? [a, b] : [b as Extract<CelT, { kind: 'param' }>, a];
    if (occurs(p.name, other, s)) return false;
    s.set(p.name, other);
    return true;
  }
  if (a.kind === 'dyn' || b.kind === 'dyn' || a.kind === 'error' || b.kind === 'error') return true;
  if (isNull(b) && (a.kind === 'object' || a.kind === 'opaque')) return true;
  if (isNull(a) && (b.kind === 'object' || b.kind === 'opaque')) return true;
  switch (a.kind) {
    case 'primitive':
      return b.kind === 'primitive' && a.name === b.name;
    case 'list':
      return b.kind === 'list' && unify(a.elem, b.elem, s);
    case 'map':
      return b.kind === 'map' && unify(a.key, b.key, s) && unify(a.value, b.value, s);
    case 'type':
      return b.kind === 'type';
    case 'object':
      return b.kind === 'object' && a.name === b.name;
    case 'opaque':
      return b.kind === 'opaque' && a.name === b.name && a.params.length === b.params.length && a.params.every((p, i) => unify(p, b.params[i], s));
  }
  return false;
}

/** Type equality after substitution, used to merge the results of several matching overloads. */
export function sameType(a: CelT, b: CelT): boolean {
  return typeName(a) === typeName(b);
}
