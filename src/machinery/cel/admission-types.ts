/**
 * The hand-written CEL types upstream declares for admission expressions (plugin/cel/compile.go): `request`, the
 * AdmissionRequest without uid and objects, and `namespaceObject`, the Namespace fields an expression may read.
 * Shared by the policy kinds' compile checks on write and the admission plugin's environments.
 */
import { T, type CelT } from './types';

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
