/**
 * The CEL environments of a policy's expressions, as upstream's admission CEL compiler
 * declares them (plugin/cel/compile.go): `object`, `oldObject` dyn; `request` and
 * `namespaceObject` typed as upstream's hand-written types; `params` only when the policy
 * has a paramKind; `authorizer` and `authorizer.requestResource` for all expressions but
 * messageExpression; `variables` as an object whose fields are the variables compiled so
 * far (composition.go), each typed as its expression's result.
 */
import { AUTHORIZER_TYPE, CelEnvironment, RESOURCE_CHECK_TYPE, T, type CelT, type VariableDecl } from '../../machinery/cel';

const obj = (name: string, fields: Record<string, CelT>) => T.object(name, new Map(Object.entries(fields)));

/** BuildRequestType: the AdmissionRequest without uid, object and oldObject. */
export const REQUEST_TYPE = (() => {
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

/** BuildNamespaceType, with its `UID` spelling: `namespaceObject.metadata.uid` does not compile upstream either. */
export const NAMESPACE_TYPE = (() => {
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
