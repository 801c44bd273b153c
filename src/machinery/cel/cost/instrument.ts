/**
 * Makes a parsed expression count its own cost: each comprehension's loop
 * condition becomes `@cost_guard(n) && condition`, where n is the static
 * cost of one iteration (condition and step), and the nodes evaluated once
 * are summed into `once`. This approximates cel-go's actual-cost tracking:
 * an iteration is charged for all of its nodes, even those a short-circuit
 * skips, and standard functions cost 1 per call whatever their inputs' sizes
 * (library functions with size-dependent costs charge the tracker themselves).
 */
import { create } from '@bufbuild/protobuf';
import { ExprSchema, type Expr } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import { LOOP_GUARD } from './runtime';

const FREE_CALLS = new Set(['_&&_', '_||_', '_?_:_']);

export interface Instrumented {
  readonly expr: Expr;
  /** Cost of the nodes outside any loop body, charged once per evaluation. */
  readonly once: number;
}

export function instrument(root: Expr): Instrumented {
  let nextId = maxId(root) + 1n;
  const id = () => nextId++;

  /** Cost of `e` evaluated once, with loop bodies replaced by their guards. */
  function visit(e: Expr): number {
    const k = e.exprKind;
    switch (k.case) {
      case 'constExpr':
        return 0;
      case 'identExpr':
        return 1;
      case 'selectExpr':
        return visit(k.value.operand!) + (k.value.testOnly ? 0 : 1);
      case 'callExpr':
        return (k.value.target ? visit(k.value.target) : 0) + k.value.args.reduce((s, a) => s + visit(a), 0) + (FREE_CALLS.has(k.value.function) ? 0 : 1);
      case 'listExpr':
        return 10 + k.value.elements.reduce((s, a) => s + visit(a), 0);
      case 'structExpr':
        return 30 + k.value.entries.reduce((s, x) => s + visit(x.value!) + (x.keyKind.case === 'mapKey' ? visit(x.keyKind.value) : 0), 0);
      case 'comprehensionExpr': {
        const c = k.value;
        const perIteration = visit(c.loopCondition!) + visit(c.loopStep!);
        const guard = create(ExprSchema, {
          id: id(),
          exprKind: { case: 'callExpr', value: { function: LOOP_GUARD, args: [create(ExprSchema, { id: id(), exprKind: { case: 'constExpr', value: { constantKind: { case: 'int64Value', value: BigInt(perIteration) } } } })] } },
        });
        c.loopCondition = create(ExprSchema, { id: id(), exprKind: { case: 'callExpr', value: { function: '_&&_', args: [guard, c.loopCondition!] } } });
        return visit(c.iterRange!) + visit(c.accuInit!) + visit(c.result!);
      }
      default:
        return 0;
    }
  }

  const once = visit(root);
  return { expr: root, once };
}

function maxId(e: Expr | undefined): bigint {
  if (!e) return 0n;
  let m = e.id;
  const k = e.exprKind;
  const children: (Expr | undefined)[] = [];
  if (k.case === 'selectExpr') children.push(k.value.operand);
  else if (k.case === 'callExpr') children.push(k.value.target, ...k.value.args);
  else if (k.case === 'listExpr') children.push(...k.value.elements);
  else if (k.case === 'structExpr') for (const x of k.value.entries) children.push(x.value, x.keyKind.case === 'mapKey' ? x.keyKind.value : undefined);
  else if (k.case === 'comprehensionExpr') children.push(k.value.iterRange, k.value.accuInit, k.value.loopCondition, k.value.loopStep, k.value.result);
  for (const c of children) {
    const n = maxId(c);
    if (n > m) m = n;
  }
  return m;
}
