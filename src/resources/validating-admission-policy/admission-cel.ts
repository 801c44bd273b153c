/**
 * Compile checks of the CEL expressions the admissionregistration kinds carry,
 * as upstream's admission CEL compiler runs them when an object is written
 * (k8s.io/apiserver/pkg/admission/plugin/cel): the variables declared depend
 * on the expression (params only when the policy has a paramKind, authorizer
 * for all but message expressions, `variables` only in policies that declare
 * some), `request` and `namespaceObject` are typed as upstream types them,
 * and the result type is checked. Errors read as upstream's:
 * `compilation failed: ERROR: <input>:1:6: ...` or `must evaluate to bool but got dyn`.
 */
import { CelEnvironment, compileRule, NAMESPACE_TYPE, REQUEST_TYPE, T, typeName, type CelT } from '../../machinery/cel';
import { FieldError, fieldErrors, FieldPath } from '../../machinery/field-errors';

export interface ExpressionScope {
  /** The policy has a paramKind: `params` is declared. */
  hasParams: boolean;
  /** `authorizer` and `authorizer.requestResource` are declared (all but message expressions). */
  hasAuthorizer: boolean;
  /** The policy's variables so far, by name and type (upstream's composited compiler); undefined: `variables` is not declared. */
  variables?: Map<string, CelT>;
}


const stateless = new Map<string, CelEnvironment>();

/**
 * The environment of one expression. `authorizer` is declared as dyn: the CEL
 * module serves no authz library, so calls on it (`authorizer.group(...)`) do
 * not compile here.
 */
function environment(scope: ExpressionScope): CelEnvironment {
  const key = `${scope.hasParams}/${scope.hasAuthorizer}`;
  if (!scope.variables) {
    const cached = stateless.get(key);
    if (cached) return cached;
  }
  const dyn = { type: T.dyn };
  const vars: Record<string, { type: CelT }> = { object: dyn, oldObject: dyn, namespaceObject: { type: NAMESPACE_TYPE }, request: { type: REQUEST_TYPE } };
  if (scope.hasParams) vars.params = dyn;
  if (scope.hasAuthorizer) {
    vars.authorizer = dyn;
    vars['authorizer.requestResource'] = dyn;
  }
  // The field map is shared, not copied: variables compiled later see those before them, as upstream's composition env.
  if (scope.variables) vars.variables = { type: T.object('kubernetes.variables', scope.variables) };
  const env = new CelEnvironment(vars);
  if (!scope.variables) stateless.set(key, env);
  return env;
}

export type CompileOutcome = { type: CelT; error?: undefined } | { type?: undefined; error: string };

/**
 * Compiles one expression; `returnTypes` as upstream's ExpressionAccessor.ReturnTypes
 * (none: any result, as variables).
 */
export function compileExpression(source: string, scope: ExpressionScope, returnTypes: CelT[] = []): CompileOutcome {
  const compiled = compileRule(source, environment(scope));
  if (compiled.error !== undefined) return { error: compiled.error };
  const got = compiled.program.type;
  if (returnTypes.length && !returnTypes.some((t) => typeName(t) === typeName(got))) {
    const want = returnTypes.length === 1 ? typeName(returnTypes[0]) : `one of [${returnTypes.map(typeName).join(' ')}]`;
    return { error: `must evaluate to ${want} but got ${typeName(got)}` };
  }
  return { type: got };
}

/** An Invalid error at `path` showing the expression, when it does not compile (upstream's convertCELErrorToValidationError). */
export function expressionErrors(path: FieldPath, shown: string, outcome: CompileOutcome): FieldError[] {
  return outcome.error === undefined ? [] : [fieldErrors.invalid(path, shown, outcome.error)];
}
