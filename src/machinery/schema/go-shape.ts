/**
 * Objects in the shape upstream's Go types give them. kube-apiserver decodes
 * a body into its Go struct, keeps it as protobuf and writes it back with
 * encoding/json, so what a client reads depends on each field's JSON tag
 * (declared with the field: OmitEmpty/EmitEmpty in declare.ts):
 * - with `omitempty`, an empty string, 0, false, empty list, map or byte
 *   string is left out; a pointer only when unset;
 * - without it, the zero value is written: "", 0, false, and null for an
 *   unset pointer, list, map or byte string (protobuf storage reads empty
 *   lists and maps back as nil, so those turn null too);
 * - a struct is always written, {} when unset; metav1.Time is a struct whose
 *   zero value is written as null.
 * Free-form fields (x-kubernetes-preserve-unknown-fields) are left as they are.
 */
import { dropKey, isPlainObject } from '../object';
import { deref, Schema } from './schema';

type GoKind = 'struct' | 'map' | 'list' | 'bytes' | 'time' | 'scalar' | 'opaque';

/** One declared field, compiled once from the schema: every write walks these. */
interface FieldPlan {
  name: string;
  /** undefined: no Go tag declared, the value is left as it is. */
  omitempty: boolean | undefined;
  pointer: boolean;
  kind: GoKind;
  zero: unknown;
  /** The struct plan of the field itself, of its list items, or of its map values. */
  nested: () => FieldPlan[] | undefined;
}

function goKind(s: Schema): GoKind {
  if (s['x-kubernetes-preserve-unknown-fields']) return 'opaque';
  if (s.properties) return 'struct';
  if (s.type === 'object') return 'map';
  if (s.type === 'array') return 'list';
  if (s.format === 'byte') return 'bytes';
  if (s.format === 'date-time') return 'time';
  return 'scalar';
}

function zeroScalar(s: Schema): unknown {
  if (s.type === 'string') return '';
  if (s.type === 'boolean') return false;
  if (s.type === 'integer' || s.type === 'number') return 0;
  return null;
}

const isZeroScalar = (v: unknown) => v === '' || v === 0 || v === false;

const plans = new WeakMap<Schema, FieldPlan[]>();

/** The plan of a struct schema, cached by its (stable) schema node; recursive types resolve lazily. */
function structPlan(raw: Schema): FieldPlan[] {
  let plan = plans.get(raw);
  if (plan) return plan;
  plan = [];
  plans.set(raw, plan);
  for (const [name, rawField] of Object.entries(deref(raw)?.properties ?? {})) plan.push(fieldPlan(name, rawField));
  return plan;
}

function fieldPlan(name: string, raw: Schema): FieldPlan {
  const s = deref(raw)!;
  const kind = goKind(s);
  const inner = kind === 'list' ? s.items : kind === 'map' && typeof s.additionalProperties === 'object' ? s.additionalProperties : kind === 'struct' ? raw : undefined;
  let nested: FieldPlan[] | undefined | null = null;
  return {
    name,
    omitempty: s['x-go-omitempty'],
    pointer: s['x-go-pointer'] === true,
    kind,
    zero: zeroScalar(s),
    nested: () => {
      if (nested === null) nested = inner && (kind === 'struct' || goKind(deref(inner)!) === 'struct') ? structPlan(inner) : undefined;
      return nested;
    },
  };
}

/** Reshapes `obj` in place as upstream would store and serve it, following `schema` (a struct). */
export function shapeAsGo(obj: Record<string, unknown>, schema: Schema): void {
  shapeStruct(obj, structPlan(schema));
}

function shapeStruct(obj: Record<string, unknown>, plan: FieldPlan[]): void {
  for (const f of plan) shapeField(obj, f);
}

function shapeField(holder: Record<string, unknown>, f: FieldPlan): void {
  const { name, omitempty, pointer, kind } = f;
  const v = holder[name];
  if (v === undefined || v === null) {
    // Not declared: nothing to go by, leave it.
    if (omitempty === undefined) return;
    if (!pointer && kind === 'struct') {
      const empty: Record<string, unknown> = {};
      shapeStruct(empty, f.nested()!);
      holder[name] = empty;
    } else if (!pointer && kind === 'time') holder[name] = null;
    else if (omitempty) dropKey(holder, name);
    else holder[name] = pointer || kind !== 'scalar' ? null : f.zero;
    return;
  }
  switch (kind) {
    case 'struct':
      if (isPlainObject(v)) shapeStruct(v, f.nested()!);
      return;
    case 'list': {
      if (!Array.isArray(v)) return;
      const item = f.nested();
      if (item) for (const x of v) if (isPlainObject(x)) shapeStruct(x, item);
      if (v.length === 0 && !pointer) emptyValue(holder, name, omitempty);
      return;
    }
    case 'map': {
      if (!isPlainObject(v)) return;
      const value = f.nested();
      if (value) for (const x of Object.values(v)) if (isPlainObject(x)) shapeStruct(x, value);
      if (Object.keys(v).length === 0 && !pointer) emptyValue(holder, name, omitempty);
      return;
    }
    case 'bytes':
      if (v === '' && !pointer) emptyValue(holder, name, omitempty);
      return;
    case 'scalar':
      if (omitempty && !pointer && isZeroScalar(v)) delete holder[name];
      return;
    default:
      return;
  }
}

/** An empty list, map or byte string: left out under omitempty, else null (nil after the protobuf round trip). */
function emptyValue(holder: Record<string, unknown>, name: string, omitempty: boolean | undefined): void {
  if (omitempty) delete holder[name];
  else if (omitempty === false) holder[name] = null;
}
