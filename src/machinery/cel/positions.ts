/**
 * Moves node positions to where cel-go puts them, so error columns match
 * upstream's: a function call (and the nodes a macro expands into) sits at
 * its opening parenthesis, where the library's parser puts it at the name or
 * the receiver's dot. Operators and selections already agree.
 */
import type { Expr } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';

const NAMED_CALL = /^[A-Za-z_][A-Za-z0-9_.]*$/;

export function alignPositions(root: Expr, positions: Record<string, number>, source: string): Record<string, number> {
  const out = { ...positions };
  const paren = (from: number) => {
    const i = source.indexOf('(', from);
    return i < 0 ? from : i;
  };

  function visit(e: Expr | undefined): void {
    if (!e) return;
    const k = e.exprKind;
    const key = e.id.toString();
    switch (k.case) {
      case 'selectExpr':
        return visit(k.value.operand);
      case 'callExpr':
        visit(k.value.target);
        k.value.args.forEach(visit);
        if (NAMED_CALL.test(k.value.function) && out[key] !== undefined) out[key] = paren(out[key]);
        return;
      case 'listExpr':
        return k.value.elements.forEach(visit);
      case 'structExpr':
        for (const x of k.value.entries) visit(x.keyKind.case === 'mapKey' ? x.keyKind.value : undefined), visit(x.value);
        return;
      case 'comprehensionExpr': {
        const c = k.value;
        const original = positions[key];
        for (const part of [c.iterRange, c.accuInit, c.loopCondition, c.loopStep, c.result]) visit(part);
        if (original === undefined) return;
        const moved = paren(original);
        // Nodes the macro made share its position; user-written ones keep theirs.
        for (const part of [c.accuInit, c.loopCondition, c.loopStep, c.result]) moveSynthesized(part, original, moved);
        out[key] = moved;
        return;
      }
    }
  }

  function moveSynthesized(e: Expr | undefined, from: number, to: number): void {
    if (!e) return;
    if (positions[e.id.toString()] === from) out[e.id.toString()] = to;
    const k = e.exprKind;
    if (k.case === 'callExpr') {
      moveSynthesized(k.value.target, from, to);
      k.value.args.forEach((a) => moveSynthesized(a, from, to));
    } else if (k.case === 'selectExpr') moveSynthesized(k.value.operand, from, to);
  }

  visit(root);
  return out;
}
