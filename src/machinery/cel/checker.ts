/**
 * A type checker over @bufbuild/cel's parsed AST (the library's own checker
 * handles constants and identifiers only). It follows cel-go's rules closely
 * enough for Kubernetes rules: overload resolution with type parameters,
 * homogeneous list/map literals, comprehension variables, qualified function
 * names (`sets.contains`), and cel-go's error texts.
 */
import type { Expr } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import type { Declarations, Overload } from './declarations';
import { typeIdentifiers } from './stdlib';
import { assignable, sameType, substitute, T, typeName, type CelT, type Substitution } from './types';

export interface Issue {
  /** Offset in the source, in UTF-16 code units, as the parser reports positions. */
  readonly offset: number;
  readonly message: string;
}

export interface Checked {
  readonly type: CelT;
  /** Deduced type of every expression node, by node id. */
  readonly types: ReadonlyMap<bigint, CelT>;
  /** Matching overloads of every call node, by node id. */
  readonly overloads: ReadonlyMap<bigint, readonly Overload[]>;
  /** Declared variables the expression refers to (e.g. `oldSelf` marks a transition rule). */
  readonly references: ReadonlySet<string>;
  readonly issues: readonly Issue[];
}

export interface CheckOptions {
  /** Kubernetes requires list and map literals of one type (cel.HomogeneousAggregateLiterals); plain CEL joins mixed ones to dyn. */
  readonly homogeneousLiterals?: boolean;
}

export function check(expr: Expr, positions: Record<string, number>, decls: Declarations, variables: ReadonlyMap<string, CelT>, options: CheckOptions = {}): Checked {
  return new Checker(decls, variables, positions, options.homogeneousLiterals ?? true).run(expr);
}

type Call = Extract<Expr['exprKind'], { case: 'callExpr' }>['value'];

class Checker {
  private readonly types = new Map<bigint, CelT>();
  private readonly overloads = new Map<bigint, Overload[]>();
  private readonly references = new Set<string>();
  private readonly issues: Issue[] = [];
  private readonly subst: Substitution = new Map();
  private readonly scopes: Map<string, CelT>[] = [];
  private fresh = 0;

  constructor(
    private readonly decls: Declarations,
    private readonly variables: ReadonlyMap<string, CelT>,
    private readonly positions: Record<string, number>,
    private readonly homogeneousLiterals: boolean,
  ) {}

  run(expr: Expr): Checked {
    const type = substitute(this.visit(expr), this.subst, true);
    for (const [id, t] of this.types) this.types.set(id, substitute(t, this.subst, true));
    return { type, types: this.types, overloads: this.overloads, references: this.references, issues: this.issues };
  }

  private error(e: Expr, message: string): CelT {
    this.issues.push({ offset: this.positions[e.id.toString()] ?? 0, message });
    return T.error;
  }

  private resolved(t: CelT): CelT {
    return substitute(t, this.subst);
  }

  private visit(e: Expr): CelT {
    const t = this.visitKind(e);
    this.types.set(e.id, t);
    return t;
  }

  private visitKind(e: Expr): CelT {
    const k = e.exprKind;
    switch (k.case) {
      case 'constExpr':
        return constantType(k.value.constantKind.case);
      case 'identExpr':
        return this.identifier(e, k.value.name);
      case 'selectExpr': {
        const qualified = this.qualifiedName(e);
        // A declared dotted name (`authorizer.requestResource`) wins over selecting from its root, as in cel-go.
        if (qualified !== undefined && (!this.isVariableRoot(qualified) || this.variables.has(qualified))) {
          const known = this.lookup(qualified);
          if (known) return known;
        }
        const operand = this.resolved(this.visit(k.value.operand!));
        if (k.value.testOnly) return this.presence(e, operand, k.value.field);
        return this.field(e, operand, k.value.field);
      }
      case 'callExpr':
        return this.call(e, k.value);
      case 'listExpr':
        return T.list(this.homogeneous(k.value.elements));
      case 'structExpr': {
        if (k.value.messageName) return this.error(e, `undeclared reference to '${k.value.messageName}' (in container '')`);
        const key = this.homogeneous(k.value.entries.map((x) => (x.keyKind.case === 'mapKey' ? x.keyKind.value : undefined)).filter((x): x is Expr => !!x));
        return T.map(key, this.homogeneous(k.value.entries.map((x) => x.value!)));
      }
      case 'comprehensionExpr':
        return this.comprehension(e, k.value);
      default:
        return this.error(e, 'unsupported expression');
    }
  }

  private lookup(name: string): CelT | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const t = this.scopes[i].get(name);
      if (t) return t;
    }
    const v = this.variables.get(name);
    if (v) {
      this.references.add(name);
      return v;
    }
    return typeIdentifiers.get(name);
  }

  private identifier(e: Expr, name: string): CelT {
    return this.lookup(name) ?? this.error(e, `undeclared reference to '${name}' (in container '')`);
  }

  /** `a.b.c` as one dotted name when the expression is only identifiers and selections. */
  private qualifiedName(e: Expr): string | undefined {
    const k = e.exprKind;
    if (k.case === 'identExpr') return k.value.name;
    if (k.case === 'selectExpr' && !k.value.testOnly) {
      const head = this.qualifiedName(k.value.operand!);
      return head === undefined ? undefined : `${head}.${k.value.field}`;
    }
    return undefined;
  }

  private isVariableRoot(qualified: string): boolean {
    const root = qualified.split('.')[0];
    return this.scopes.some((s) => s.has(root)) || this.variables.has(root);
  }

  private field(e: Expr, operand: CelT, name: string): CelT {
    switch (operand.kind) {
      case 'object':
        return operand.fields.get(name) ?? this.error(e, `undefined field '${name}'`);
      case 'map':
        if (!assignable(operand.key, T.string, this.subst)) return this.error(e, `type '${typeName(operand)}' does not support field selection`);
        return operand.value;
      case 'dyn':
      case 'error':
      case 'param':
        return T.dyn;
      default:
        return this.error(e, `type '${typeName(operand)}' does not support field selection`);
    }
  }

  private presence(e: Expr, operand: CelT, name: string): CelT {
    if (operand.kind === 'object' && !operand.fields.has(name)) return this.error(e, `undefined field '${name}'`);
    if (!['object', 'map', 'dyn', 'error', 'param'].includes(operand.kind)) return this.error(e, `invalid type for field selection.`);
    return T.bool;
  }

  private homogeneous(items: readonly Expr[]): CelT {
    const elem = this.freshParam();
    let mixed = false;
    for (const item of items) {
      const t = this.visit(item);
      if (assignable(elem, t, this.subst)) continue;
      if (this.homogeneousLiterals) this.error(item, `expected type '${typeName(this.resolved(elem))}' but found '${typeName(this.resolved(t))}'`);
      mixed = true;
    }
    return mixed ? T.dyn : elem;
  }

  private call(e: Expr, c: Call): CelT {
    let name = c.function;
    let target = c.target;
    if (target) {
      const qualified = this.qualifiedName(target);
      if (qualified !== undefined && this.decls.has(`${qualified}.${name}`) && !this.isVariableRoot(qualified)) {
        name = `${qualified}.${name}`;
        target = undefined;
      }
    }
    const member = target !== undefined;
    const args = [...(target ? [target] : []), ...c.args].map((a) => this.visit(a));
    const candidates = this.decls.overloads(name);
    if (candidates.length === 0) return this.error(e, `undeclared reference to '${name}' (in container '')`);
    const matched: Overload[] = [];
    let result: CelT | undefined;
    for (const o of candidates) {
      if (o.member !== member || o.params.length !== args.length) continue;
      const renames = new Map<string, CelT>();
      const params = o.params.map((p) => this.instantiate(p, renames));
      const trial: Substitution = new Map(this.subst);
      if (!params.every((p, i) => assignable(p, args[i], trial))) continue;
      for (const [k, v] of trial) this.subst.set(k, v);
      const r = this.resolved(this.instantiate(o.result, renames));
      result = result === undefined || sameType(result, r) ? r : T.dyn;
      matched.push(o);
    }
    if (result === undefined) return this.error(e, `found no matching overload for '${name}' applied to '${this.signature(args, member)}'`);
    this.overloads.set(e.id, matched);
    return result;
  }

  private signature(args: CelT[], member: boolean): string {
    const names = args.map((a) => typeName(substitute(a, this.subst, true)));
    return member ? `${names[0]}.(${names.slice(1).join(', ')})` : `(${names.join(', ')})`;
  }

  private freshParam(): CelT {
    return T.param(`_var${this.fresh++}`);
  }

  /** A declaration's type with its parameters renamed apart, so each call site binds its own. */
  private instantiate(t: CelT, renames: Map<string, CelT>): CelT {
    switch (t.kind) {
      case 'param': {
        if (!renames.has(t.name)) renames.set(t.name, this.freshParam());
        return renames.get(t.name)!;
      }
      case 'list':
        return T.list(this.instantiate(t.elem, renames));
      case 'map':
        return T.map(this.instantiate(t.key, renames), this.instantiate(t.value, renames));
      case 'type':
        return T.type(this.instantiate(t.of, renames));
      case 'opaque':
        return t.params.length ? T.opaque(t.name, ...t.params.map((p) => this.instantiate(p, renames))) : t;
      default:
        return t;
    }
  }

  private comprehension(e: Expr, c: Extract<Expr['exprKind'], { case: 'comprehensionExpr' }>['value']): CelT {
    const range = this.resolved(this.visit(c.iterRange!));
    let iter: CelT;
    if (range.kind === 'list') iter = range.elem;
    else if (range.kind === 'map') iter = range.key;
    else if (range.kind === 'dyn' || range.kind === 'error' || range.kind === 'param') iter = T.dyn;
    else iter = this.error(c.iterRange!, `expression of type '${typeName(range)}' cannot be range of a comprehension (must be list, map, or dynamic)`);
    const accu = this.visit(c.accuInit!);
    this.scopes.push(new Map([[c.accuVar, accu]]));
    this.scopes.push(new Map([[c.iterVar, iter]]));
    const cond = this.visit(c.loopCondition!);
    if (!assignable(T.bool, cond, this.subst)) this.error(c.loopCondition!, `expected type 'bool' but found '${typeName(this.resolved(cond))}'`);
    const step = this.visit(c.loopStep!);
    if (!assignable(accu, step, this.subst)) this.error(c.loopStep!, `expected type '${typeName(this.resolved(accu))}' but found '${typeName(this.resolved(step))}'`);
    this.scopes.pop();
    const result = this.visit(c.result!);
    this.scopes.pop();
    return result;
  }
}

function constantType(kind: string | undefined): CelT {
  switch (kind) {
    case 'int64Value':
      return T.int;
    case 'uint64Value':
      return T.uint;
    case 'doubleValue':
      return T.double;
    case 'stringValue':
      return T.string;
    case 'bytesValue':
      return T.bytes;
    case 'boolValue':
      return T.bool;
    case 'nullValue':
      return T.null;
    default:
      return T.dyn;
  }
}
