/** Compiles and evaluates one expression for the library table tests; results come back as plain data. */
import { compileRule } from '../../../src/machinery/cel/compile';
import { CelEnvironment } from '../../../src/machinery/cel/environment';
import { evaluate } from '../../../src/machinery/cel/evaluate';
import { T } from '../../../src/machinery/cel/types';
import { fromCelValue, toCelValue } from '../../../src/machinery/cel/values';

const env = new CelEnvironment({ x: { type: T.dyn } });

export type Outcome = { value: unknown } | { error: string } | { compileError: string };

export function run(expression: string, x?: unknown): Outcome {
  const compiled = compileRule(expression, env);
  if (compiled.error !== undefined) return { compileError: compiled.error };
  const r = evaluate(compiled.program, { x: toCelValue(x) });
  return r.error !== undefined ? { error: r.error } : { value: fromCelValue(r.value) };
}
