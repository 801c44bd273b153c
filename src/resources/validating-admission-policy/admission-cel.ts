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
import { CelEnvironment, compileRule, T, typeName, type CelT } from '../../machinery/cel';
import { FieldError, fieldErrors, FieldPath } from '../../machinery/field-errors';

export interface ExpressionScope {
  /** The policy has a paramKind: `params` is declared. */
  hasParams: boolean;
  /** `authorizer` and `authorizer.requestResource` are declared (all but message expressions). */
  hasAuthorizer: boolean;
  /** The policy's variables so far, by name and type (upstream's composited compiler); undefined: `variables` is not declared. */
  variables?: Map<string, CelT>;
}

const obj = (name: string, fields: Record<string, CelT>) => T.object(name, new Map(Object.entries(fields)));

/** Upstream's BuildRequestType: the AdmissionRequest without uid, object and oldObject. */
const requestType = (() => {
  const gvk = obj('kubernetes.GroupVersionKind', { group: T.string, version: T.string, kind: T.string });
  const gvr = obj('kubernetes.GroupVersionResource', { group: T.string, version: T.string, resource: T.string });
  const userInfo = obj('kubernetes.UserInfo', { username: T.string, uid: T.string, groups: T.list(T.string), extra: T.map(T.string, T.list(T.string)) });
  return obj('kubernetes.AdmissionRequest', {
    kind: gvk,
    resource: gvr,
    subResource: T.string,
    requestKind: gvk,
    requestResource: gvr,
    requestSubResource: T.string,
    name: T.string,
    namespace: T.string,
    operation: T.string,
    userInfo,
    dryRun: T.bool,
    options: T.dyn,
  });
})();

/** Upstream's BuildNamespaceType: the fields of a Namespace an expression may read. */
const namespaceType = (() => {
  const strings = T.list(T.string);
  const labels = T.map(T.string, T.string);
  const condition = obj('kubernetes.NamespaceCondition', { status: T.string, type: T.string, lastTransitionTime: T.timestamp, message: T.string, reason: T.string });
  return obj('kubernetes.Namespace', {
    metadata: obj('kubernetes.NamespaceMetadata', {
      name: T.string,
      generateName: T.string,
      namespace: T.string,
      labels,
      annotations: labels,
      UID: T.string,
      creationTimestamp: T.timestamp,
      deletionGracePeriodSeconds: T.int,
      deletionTimestamp: T.timestamp,
      generation: T.int,
      resourceVersion: T.string,
      finalizers: strings,
    }),
    spec: obj('kubernetes.NamespaceSpec', { finalizers: strings }),
    status: obj('kubernetes.NamespaceStatus', { conditions: T.list(condition), phase: T.string }),
  });
})();

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
  const vars: Record<string, { type: CelT }> = { object: dyn, oldObject: dyn, namespaceObject: { type: namespaceType }, request: { type: requestType } };
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
