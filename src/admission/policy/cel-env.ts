/**
 * The CEL environments of a policy's expressions, as upstream's admission CEL compiler
 * declares them (plugin/cel/compile.go): `object`, `oldObject` dyn; `request` and
 * `namespaceObject` typed as upstream's hand-written types; `params` only when the policy
 * has a paramKind; `authorizer` and `authorizer.requestResource` for all expressions but
 * messageExpression; `variables` as an object whose fields are the variables compiled so
 * far (composition.go), each typed as its expression's result.
 */
import { AUTHORIZER_TYPE, CelEnvironment, NAMESPACE_TYPE, REQUEST_TYPE, RESOURCE_CHECK_TYPE, T, type CelT, type VariableDecl } from '../../machinery/cel';

export const VARIABLES_TYPE_NAME = 'kubernetes.variables';

export interface EnvOptions {
  hasParams: boolean;
  hasAuthorizer: boolean;
  /** The variables declared so far, by name and result type. */
  variables: ReadonlyMap<string, CelT>;
  /** Types to check against instead of dyn (type checking against a kind's schema). */
  object?: CelT;
  params?: CelT;
}

export function policyEnvironment(o: EnvOptions): CelEnvironment {
  const decls: Record<string, VariableDecl> = {
    object: { type: o.object ?? T.dyn },
    oldObject: { type: o.object ?? T.dyn },
    request: { type: REQUEST_TYPE },
    namespaceObject: { type: NAMESPACE_TYPE },
    variables: { type: T.object(VARIABLES_TYPE_NAME, o.variables) },
  };
  if (o.hasParams) decls.params = { type: o.params ?? T.dyn };
  if (o.hasAuthorizer) {
    decls.authorizer = { type: AUTHORIZER_TYPE };
    decls['authorizer.requestResource'] = { type: RESOURCE_CHECK_TYPE };
  }
  return new CelEnvironment(decls);
}
