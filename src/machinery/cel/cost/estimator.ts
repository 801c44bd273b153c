/**
 * Static worst-case cost of a checked expression, after cel-go's
 * checker/cost.go with Kubernetes' settings (has() is free) and size
 * estimator: the size of anything reached from a declared variable comes
 * from its schema bounds, found by path (`self.items.@items.name`).
 * Approximations: entry sizes of computed lists are tracked for literals and
 * comprehension results only, and a has() on a dyn operand costs as cel-go's.
 */
import type { Expr } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import type { Checked } from '../checker';
import type { CelEnvironment } from '../environment';
import { T, type CelT } from '../types';
import { defaultCallCost } from './defaults';
import { range, type EstimateNode, type Range, type SizeBounds } from './estimate-types';

const CONST_COST = 0;
const SELECT_AND_IDENT_COST = 1;
const LIST_CREATE_COST = 10;
const MAP_CREATE_COST = 30;

interface Local {
  path: string[] | undefined;
  size: Range | undefined;
  entry: Range | undefined;
}

export function estimateCost(expr: Expr, checked: Checked, env: CelEnvironment): Range {
  return new Coster(checked, env).cost(expr);
}

class Coster {
  private readonly paths = new Map<bigint, string[]>();
  private readonly sizes = new Map<bigint, Range>();
  /** Sizes of elements of lists computed in the expression (literals, comprehension results). */
  private readonly entrySizes = new Map<bigint, Range>();
  private readonly locals = new Map<string, Local[]>();

  constructor(
    private readonly checked: Checked,
    private readonly env: CelEnvironment,
  ) {}

  cost(e: Expr | undefined): Range {
    if (!e) return range.fixed(0);
    const k = e.exprKind;
    switch (k.case) {
      case 'constExpr':
        return range.fixed(CONST_COST);
      case 'identExpr': {
        const local = this.local(k.value.name);
        this.paths.set(e.id, local ? (local.path ?? []) : [k.value.name]);
        return range.fixed(SELECT_AND_IDENT_COST);
      }
      case 'selectExpr': {
        const operand = k.value.operand!;
        const sum = this.cost(operand);
        if (k.value.testOnly) return sum;
        const kind = this.type(operand).kind;
        const path = this.path(operand);
        if (path) this.paths.set(e.id, [...path, k.value.field]);
        return kind === 'map' || kind === 'object' || kind === 'param' ? range.add(sum, range.fixed(SELECT_AND_IDENT_COST)) : sum;
      }
      case 'callExpr':
        return this.call(e, k.value);
      case 'listExpr': {
        let sum = range.fixed(LIST_CREATE_COST);
        let entry: Range | undefined = k.value.elements.length ? undefined : range.fixed(0);
        for (const item of k.value.elements) {
          sum = range.add(sum, this.cost(item));
          const s = this.sizeOrUnknown(item);
          entry = entry ? range.union(entry, s) : s;
        }
        if (entry) this.entrySizes.set(e.id, entry);
        return sum;
      }
      case 'structExpr': {
        let sum = range.fixed(MAP_CREATE_COST);
        for (const x of k.value.entries) sum = range.add(range.add(sum, this.cost(x.keyKind.case === 'mapKey' ? x.keyKind.value : undefined)), this.cost(x.value));
        return sum;
      }
      case 'comprehensionExpr':
        return this.comprehension(e, k.value);
      default:
        return range.fixed(0);
    }
  }

  private call(e: Expr, c: Extract<Expr['exprKind'], { case: 'callExpr' }>['value']): Range {
    if (c.function === 'dyn' && c.args.length === 1 && !c.target) {
      const argCost = this.cost(c.args[0]);
      const s = this.computeSize(c.args[0]);
      if (s) this.sizes.set(e.id, s);
      return range.add(range.fixed(1), argCost);
    }
    const argCosts = c.args.map((a) => this.cost(a));
    const overloads = this.checked.overloads.get(e.id) ?? [];
    if (overloads.length === 0) return range.fixed(0);
    let sum = range.fixed(0);
    // A call whose target is a qualified function name (sets.contains) has no target at run time.
    const member = overloads[0].member && c.target !== undefined;
    let target: EstimateNode | undefined;
    if (member) {
      sum = this.cost(c.target);
      target = this.node(c.target!);
    }
    const args = c.args.map((a) => this.node(a));
    let fnCost: Range | undefined;
    let resultSize: Range | undefined;
    for (const o of overloads) {
      const estimator = this.env.estimators[o.name];
      const est = estimator?.(o.id, target, args) ?? defaultCallCost(o.id, target, args);
      fnCost = fnCost ? range.union(fnCost, est.cost) : est.cost;
      if (est.resultSize) resultSize = resultSize ? range.union(resultSize, est.resultSize) : est.resultSize;
      if (o.id === 'index_list' || o.id === 'index_map') {
        const container = c.args[0];
        resultSize = this.entrySizes.get(container.id);
        const path = this.path(container);
        if (path) this.paths.set(e.id, [...path, o.id === 'index_list' ? '@items' : '@values']);
      }
    }
    if (overloads[0].id === 'conditional') {
      const a = this.entrySizes.get(c.args[1].id);
      const b = this.entrySizes.get(c.args[2].id);
      if (a && b) this.entrySizes.set(e.id, range.union(a, b));
    }
    if (resultSize) this.sizes.set(e.id, resultSize);
    const argSum = argCosts.reduce((s, a) => range.add(s, a), range.fixed(0));
    // Logical operators and the conditional price their arguments themselves (short-circuits).
    const selfPriced = overloads.some((o) => o.id === 'logical_and' || o.id === 'logical_or' || o.id === 'conditional');
    return range.add(sum, selfPriced ? this.logical(overloads[0].id, argCosts) : range.add(fnCost!, argSum));
  }

  private logical(id: string, argCosts: Range[]): Range {
    if (id === 'conditional') return range.add(argCosts[0], range.union(argCosts[1], argCosts[2]));
    return { min: argCosts[0].min, max: range.add(argCosts[0], argCosts[1]).max };
  }

  private comprehension(e: Expr, c: Extract<Expr['exprKind'], { case: 'comprehensionExpr' }>['value']): Range {
    let sum = range.add(this.cost(c.iterRange), this.cost(c.accuInit));
    this.push(c.accuVar, { path: this.path(c.accuInit!), size: this.computeSize(c.accuInit!), entry: this.entrySizes.get(c.accuInit!.id) });
    const rangeType = this.type(c.iterRange!);
    const rangePath = this.path(c.iterRange!);
    const isList = rangeType.kind === 'list';
    const sub = isList ? '@items' : '@keys';
    this.push(c.iterVar, { path: rangePath ? [...rangePath, sub] : undefined, size: isList ? this.entrySizes.get(c.iterRange!.id) : undefined, entry: undefined });
    const loopCost = this.cost(c.loopCondition);
    const stepCost = this.cost(c.loopStep);
    this.pop(c.iterVar);
    sum = range.add(sum, this.cost(c.result));
    this.pop(c.accuVar);
    const count = this.sizeOrUnknown(c.iterRange!);
    sum = range.add(sum, range.multiply(count, range.add(stepCost, loopCost)));
    const init = c.accuInit!.exprKind.case;
    if (init === 'constExpr') {
      const s = this.computeSize(c.accuInit!);
      if (s) this.sizes.set(e.id, s);
    } else if (init === 'listExpr' || init === 'structExpr') {
      this.sizes.set(e.id, count);
      const stepEntry = this.entrySizes.get(c.loopStep!.id);
      if (stepEntry) this.entrySizes.set(e.id, stepEntry);
    }
    return sum;
  }

  private push(name: string, local: Local): void {
    const stack = this.locals.get(name) ?? [];
    stack.push(local);
    this.locals.set(name, stack);
  }

  private pop(name: string): void {
    this.locals.get(name)?.pop();
  }

  private local(name: string): Local | undefined {
    const stack = this.locals.get(name);
    return stack && stack.length ? stack[stack.length - 1] : undefined;
  }

  private type(e: Expr): CelT {
    return this.checked.types.get(e.id) ?? T.dyn;
  }

  private path(e: Expr): string[] | undefined {
    if (e.exprKind.case === 'identExpr') {
      const local = this.local(e.exprKind.value.name);
      if (local) return local.path;
    }
    return this.paths.get(e.id);
  }

  private node(e: Expr): EstimateNode {
    const type = this.type(e);
    const path = this.path(e);
    const computed = this.computeSize(e);
    const literal = e.exprKind.case === 'constExpr' ? e.exprKind.value.constantKind.value : undefined;
    return this.estimateNode(type, path, computed, literal, this.entrySizes.get(e.id));
  }

  private estimateNode(type: CelT, path: string[] | undefined, computed: Range | undefined, literal?: unknown, entry?: Range): EstimateNode {
    return {
      type,
      literal,
      size: () => computed ?? (path && this.boundsSize(path)) ?? scalarSize(type) ?? range.unknown(),
      element: () => (type.kind === 'list' ? this.estimateNode(type.elem, path ? [...path, '@items'] : undefined, entry) : undefined),
    };
  }

  private sizeOrUnknown(e: Expr): Range {
    return this.computeSize(e) ?? range.unknown();
  }

  /** cel-go's computeSize: computed sizes, literal sizes, schema bounds, fixed-size types, then locals. */
  private computeSize(e: Expr): Range | undefined {
    const known = this.sizes.get(e.id);
    if (known) return known;
    const literal = literalSize(e);
    if (literal) return literal;
    const path = this.path(e);
    const bounded = path && this.boundsSize(path);
    if (bounded) return bounded;
    const scalar = scalarSize(this.type(e));
    if (scalar) return scalar;
    if (e.exprKind.case === 'identExpr') return this.local(e.exprKind.value.name)?.size;
    return undefined;
  }

  /** Upstream's sizeEstimator: walk the declared variable's bounds along the path. */
  private boundsSize(path: readonly string[]): Range | undefined {
    if (path.length < 2) return path.length === 1 ? this.rootBounds(path[0]) : undefined;
    let node: SizeBounds | undefined = this.env.variables.get(path[0])?.bounds;
    for (const step of path.slice(1)) {
      if (!node) return undefined;
      if (step === '@items' || step === '@values') node = node.items ?? node.values;
      else if (step === '@keys') node = node.keys;
      else node = node.fields?.get(step);
    }
    return node ? { min: 0, max: node.maxElements } : undefined;
  }

  private rootBounds(name: string): Range | undefined {
    const b = this.env.variables.get(name)?.bounds;
    return b ? { min: 0, max: b.maxElements } : undefined;
  }
}

function literalSize(e: Expr): Range | undefined {
  const k = e.exprKind;
  if (k.case === 'constExpr') {
    const c = k.value.constantKind;
    if (c.case === 'stringValue') return range.fixed(Array.from(c.value).length);
    if (c.case === 'bytesValue') return range.fixed(c.value.length);
    if (c.case === undefined) return undefined;
    return range.fixed(1);
  }
  if (k.case === 'listExpr') return range.fixed(k.value.elements.length);
  if (k.case === 'structExpr' && !k.value.messageName) return range.fixed(k.value.entries.length);
  return undefined;
}

/** Types whose values have a constant size (cel-go's isScalar). */
function scalarSize(t: CelT): Range | undefined {
  if (t.kind === 'primitive' && ['bool', 'double', 'duration', 'int', 'timestamp', 'uint'].includes(t.name)) return range.fixed(1);
  if (t.kind === 'opaque' && t.name === 'optional_type') return scalarSize(t.params[0]);
  return undefined;
}
