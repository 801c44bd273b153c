/**
 * A policy compiled once per version of it (plugin.go compilePolicy): variables in order
 * (each sees the ones before it), validations and match conditions (bool), message
 * expressions (string, no authorizer), audit annotation values (string or null). A
 * compile error stays with its expression and surfaces when the expression would run,
 * as upstream's `compilation error: ...`.
 */
import { compileRule, T, typeName, type CelT, type Program } from '../../machinery/cel';
import { policyEnvironment } from './cel-env';
import type { AuditAnnotationObject, NamedExpression, PolicyObject, ValidationObject } from './policy-types';

export type Compiled = { readonly source: string; readonly program: Program; readonly error?: undefined } | { readonly source: string; readonly program?: undefined; readonly error: string };

export interface CompiledValidation {
  readonly validation: ValidationObject;
  readonly expression: Compiled;
  readonly messageExpression?: Compiled;
}

export interface CompiledPolicy {
  readonly hasParams: boolean;
  readonly variables: ReadonlyMap<string, Compiled>;
  readonly matchConditions: readonly { readonly name: string; readonly compiled: Compiled }[];
  readonly validations: readonly CompiledValidation[];
  readonly auditAnnotations: readonly { readonly annotation: AuditAnnotationObject; readonly compiled: Compiled }[];
}

/** cel-go's `%v` of a list of types. */
const typeList = (ts: readonly CelT[]) => `[${ts.map(typeName).join(' ')}]`;

/** Compiles against `accepted` result types (any type when empty), with upstream's messages. */
export function compileAs(source: string, env: ReturnType<typeof policyEnvironment>, accepted: readonly CelT[]): Compiled {
  const r = compileRule(source, env);
  if (r.error !== undefined) return { source, error: r.error };
  if (accepted.length && !accepted.some((t) => typeName(t) === typeName(r.program.type))) {
    const got = typeName(r.program.type);
    const error = accepted.length === 1 ? `must evaluate to ${typeName(accepted[0])} but got ${got}` : `must evaluate to one of ${typeList(accepted)} but got ${got}`;
    return { source, error };
  }
  return { source, program: r.program };
}

/** The variables compiled in order, and their names and result types for the expressions after them. */
export function compileVariables(variables: readonly NamedExpression[], hasParams: boolean, typed: { object?: CelT; params?: CelT } = {}) {
  const compiled = new Map<string, Compiled>();
  const types = new Map<string, CelT>();
  for (const v of variables) {
    const env = policyEnvironment({ hasParams, hasAuthorizer: true, variables: new Map(types), ...typed });
    const c = compileAs(v.expression, env, []);
    compiled.set(v.name, c);
    // A variable that does not compile is dyn to the rest, as upstream's composition declares it.
    types.set(v.name, c.program ? c.program.type : T.dyn);
  }
  return { compiled, types };
}

export function compilePolicy(policy: PolicyObject): CompiledPolicy {
  const spec = policy.spec ?? {};
  const hasParams = !!spec.paramKind;
  const { compiled: variables, types } = compileVariables(spec.variables ?? [], hasParams);
  const full = policyEnvironment({ hasParams, hasAuthorizer: true, variables: types });
  const forMessages = policyEnvironment({ hasParams, hasAuthorizer: false, variables: types });
  return {
    hasParams,
    variables,
    matchConditions: (spec.matchConditions ?? []).map((m) => ({ name: m.name, compiled: compileAs(m.expression, full, [T.bool]) })),
    validations: (spec.validations ?? []).map((v) => ({
      validation: v,
      expression: compileAs(v.expression, full, [T.bool]),
      messageExpression: v.messageExpression ? compileAs(v.messageExpression, forMessages, [T.string]) : undefined,
    })),
    auditAnnotations: (spec.auditAnnotations ?? []).map((a) => ({ annotation: a, compiled: compileAs(a.valueExpression, full, [T.string, T.null]) })),
  };
}
