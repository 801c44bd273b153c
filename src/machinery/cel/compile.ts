/**
 * Compile once, evaluate many: parse with the library, type-check with ours,
 * estimate the worst-case cost, instrument loops for the runtime cost limit,
 * and plan the evaluation.
 */
import { parse, plan, type CelResult } from '@bufbuild/cel';
import type { Expr } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import { check, type Checked, type Issue } from './checker';
import { estimateCost } from './cost/estimator';
import type { Range } from './cost/estimate-types';
import { instrument } from './cost/instrument';
import type { CelEnvironment } from './environment';
import { formatIssues } from './issues';
import { alignPositions } from './positions';
import { typeName, type CelT } from './types';

export interface Program {
  readonly source: string;
  readonly type: CelT;
  /** Declared variables the expression uses (`oldSelf` makes a CRD rule a transition rule). */
  readonly references: ReadonlySet<string>;
  /** Worst-case cost from declared sizes, in cel-go's units. */
  readonly estimatedCost: Range;
  /** Cost charged once per evaluation for the nodes outside loops. */
  readonly onceCost: number;
  readonly run: (activation: Record<string, unknown>) => CelResult;
}

export type CompileResult = { readonly program: Program; readonly error?: undefined } | { readonly program?: undefined; readonly error: string };

export interface CompileOptions {
  /** Required result type, e.g. bool for validation rules (dyn does not qualify, as upstream). */
  readonly resultType?: CelT;
  /** Error text when the result type differs; upstream's CRD text by default. */
  readonly resultTypeError?: string;
}

/** A parse or check failure as upstream reports it: `compilation failed: ERROR: <input>:1:6: ...`. */
export function compileRule(source: string, env: CelEnvironment, options: CompileOptions = {}): CompileResult {
  let expr: Expr;
  let positions: Record<string, number>;
  try {
    const parsed = parse(source);
    expr = parsed.expr;
    positions = alignPositions(expr, parsed.sourceInfo?.positions ?? {}, source);
  } catch (err) {
    return { error: `compilation failed: ${formatIssues(source, [syntaxIssue(source, err)])}` };
  }
  const checked: Checked = check(expr, positions, env.declarations, env.variableTypes());
  if (checked.issues.length) return { error: `compilation failed: ${formatIssues(source, checked.issues)}` };
  if (options.resultType && typeName(checked.type) !== typeName(options.resultType)) {
    return { error: options.resultTypeError ?? `cel expression must evaluate to a ${typeName(options.resultType)}` };
  }
  const estimatedCost = estimateCost(expr, checked, env);
  routeOverloads(expr, checked);
  const { expr: instrumented, once } = instrument(expr);
  const evaluate = plan(env.runtime, instrumented);
  return {
    program: {
      source,
      type: checked.type,
      references: checked.references,
      estimatedCost,
      onceCost: once,
      run: (activation) => evaluate(activation as never),
    },
  };
}

/** Calls whose single matching overload has its own runtime implementation are pointed at it. */
function routeOverloads(e: Expr | undefined, checked: Checked): void {
  if (!e) return;
  const k = e.exprKind;
  if (k.case === 'callExpr') {
    const matched = checked.overloads.get(e.id);
    if (matched?.length === 1 && matched[0].runtimeName) k.value.function = matched[0].runtimeName;
    routeOverloads(k.value.target, checked);
    k.value.args.forEach((a) => routeOverloads(a, checked));
  } else if (k.case === 'selectExpr') routeOverloads(k.value.operand, checked);
  else if (k.case === 'listExpr') k.value.elements.forEach((x) => routeOverloads(x, checked));
  else if (k.case === 'structExpr') for (const x of k.value.entries) routeOverloads(x.value, checked), routeOverloads(x.keyKind.case === 'mapKey' ? x.keyKind.value : undefined, checked);
  else if (k.case === 'comprehensionExpr') [k.value.iterRange, k.value.accuInit, k.value.loopCondition, k.value.loopStep, k.value.result].forEach((x) => routeOverloads(x, checked));
}

/** The parser's error as an issue; its message carries `<input>:line:col:` which we re-render. */
function syntaxIssue(source: string, err: unknown): Issue {
  const message = err instanceof Error ? err.message : String(err);
  const m = /^<input>:(\d+):(\d+): (.*)$/s.exec(message);
  if (!m) return { offset: 0, message: `Syntax error: ${message}` };
  const lines = source.split('\n');
  const before = lines.slice(0, Number(m[1]) - 1).reduce((n, l) => n + l.length + 1, 0);
  const column = Array.from(lines[Number(m[1]) - 1] ?? '').slice(0, Number(m[2]) - 1).join('').length;
  return { offset: before + column, message: `Syntax error: ${m[3]}` };
}
