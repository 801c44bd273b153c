/**
 * Upstream's protobuf wire schema for the kinds we accept as protobuf, as protobufjs reflection JSON.
 * Field numbers follow k8s.io/apimachinery (runtime, meta/v1) and k8s.io/api core/v1, rbac/v1 generated.proto.
 * Every field is proto2 `optional`; `nullable` marks Go pointer fields (`*bool`, `*int64`, `*Time`),
 * whose zero value is kept, while zero non-pointer scalars are dropped like Go's `omitempty`.
 */
import * as protobuf from 'protobufjs';

type FieldJSON = { id: number; type: string; rule?: 'repeated'; keyType?: string; options?: Record<string, unknown> };

const f = (id: number, type: string): FieldJSON => ({ id, type });
const list = (id: number, type: string): FieldJSON => ({ id, type, rule: 'repeated' });
const map = (id: number, type: string): FieldJSON => ({ id, type, keyType: 'string' });
const ptr = (id: number, type: string): FieldJSON => ({ id, type, options: { nullable: true } });
const msg = (fields: Record<string, FieldJSON>) => ({ fields });

const RUNTIME = 'k8s.io.apimachinery.pkg.runtime';
const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const CORE = 'k8s.io.api.core.v1';
const RBAC = 'k8s.io.api.rbac.v1';

const runtimeTypes = {
  TypeMeta: msg({ apiVersion: f(1, 'string'), kind: f(2, 'string') }),
  Unknown: msg({
    typeMeta: f(1, 'TypeMeta'),
    raw: f(2, 'bytes'),
    contentEncoding: f(3, 'string'),
    contentType: f(4, 'string'),
  }),
};

const metaTypes = {
  Time: msg({ seconds: f(1, 'int64'), nanos: f(2, 'int32') }),
  FieldsV1: msg({ Raw: f(1, 'bytes') }),
  ManagedFieldsEntry: msg({
    manager: f(1, 'string'),
    operation: f(2, 'string'),
    apiVersion: f(3, 'string'),
    time: ptr(4, 'Time'),
    fieldsType: f(6, 'string'),
    fieldsV1: ptr(7, 'FieldsV1'),
    subresource: f(8, 'string'),
  }),
  OwnerReference: msg({
    kind: f(1, 'string'),
    name: f(3, 'string'),
    uid: f(4, 'string'),
    apiVersion: f(5, 'string'),
    controller: ptr(6, 'bool'),
    blockOwnerDeletion: ptr(7, 'bool'),
  }),
  ObjectMeta: msg({
    name: f(1, 'string'),
    generateName: f(2, 'string'),
    namespace: f(3, 'string'),
    selfLink: f(4, 'string'),
    uid: f(5, 'string'),
    resourceVersion: f(6, 'string'),
    generation: f(7, 'int64'),
    creationTimestamp: f(8, 'Time'),
    deletionTimestamp: ptr(9, 'Time'),
    deletionGracePeriodSeconds: ptr(10, 'int64'),
    labels: map(11, 'string'),
    annotations: map(12, 'string'),
    ownerReferences: list(13, 'OwnerReference'),
    finalizers: list(14, 'string'),
    managedFields: list(17, 'ManagedFieldsEntry'),
  }),
  LabelSelectorRequirement: msg({ key: f(1, 'string'), operator: f(2, 'string'), values: list(3, 'string') }),
  LabelSelector: msg({ matchLabels: map(1, 'string'), matchExpressions: list(2, 'LabelSelectorRequirement') }),
};

const coreTypes = {
  ObjectReference: msg({
    kind: f(1, 'string'),
    namespace: f(2, 'string'),
    name: f(3, 'string'),
    uid: f(4, 'string'),
    apiVersion: f(5, 'string'),
    resourceVersion: f(6, 'string'),
    fieldPath: f(7, 'string'),
  }),
  LocalObjectReference: msg({ name: f(1, 'string') }),
  ConfigMap: msg({
    metadata: f(1, `.${META}.ObjectMeta`),
    data: map(2, 'string'),
    binaryData: map(3, 'bytes'),
    immutable: ptr(4, 'bool'),
  }),
  NamespaceSpec: msg({ finalizers: list(1, 'string') }),
  NamespaceCondition: msg({
    type: f(1, 'string'),
    status: f(2, 'string'),
    lastTransitionTime: f(4, `.${META}.Time`),
    reason: f(5, 'string'),
    message: f(6, 'string'),
  }),
  NamespaceStatus: msg({ phase: f(1, 'string'), conditions: list(2, 'NamespaceCondition') }),
  Namespace: msg({
    metadata: f(1, `.${META}.ObjectMeta`),
    spec: f(2, 'NamespaceSpec'),
    status: f(3, 'NamespaceStatus'),
  }),
  ServiceAccount: msg({
    metadata: f(1, `.${META}.ObjectMeta`),
    secrets: list(2, 'ObjectReference'),
    imagePullSecrets: list(3, 'LocalObjectReference'),
    automountServiceAccountToken: ptr(4, 'bool'),
  }),
};

const AUTHN = 'k8s.io.api.authentication.v1';
const AUTHZ = 'k8s.io.api.authorization.v1';
const objectMeta = f(1, `.${META}.ObjectMeta`);

/** kubectl create token / auth whoami send these (k8s.io/api authentication/v1 generated.proto). */
const authenticationTypes = {
  ExtraValue: msg({ items: list(1, 'string') }),
  UserInfo: msg({ username: f(1, 'string'), uid: f(2, 'string'), groups: list(3, 'string'), extra: map(4, 'ExtraValue') }),
  BoundObjectReference: msg({ kind: f(1, 'string'), apiVersion: f(2, 'string'), name: f(3, 'string'), uid: f(4, 'string') }),
  TokenRequestSpec: msg({ audiences: list(1, 'string'), boundObjectRef: f(3, 'BoundObjectReference'), expirationSeconds: ptr(4, 'int64') }),
  TokenRequest: msg({ metadata: objectMeta, spec: f(2, 'TokenRequestSpec') }),
  SelfSubjectReview: msg({ metadata: objectMeta }),
};

/** kubectl auth can-i sends these (k8s.io/api authorization/v1 generated.proto). */
const authorizationTypes = {
  ExtraValue: msg({ items: list(1, 'string') }),
  ResourceAttributes: msg({
    namespace: f(1, 'string'),
    verb: f(2, 'string'),
    group: f(3, 'string'),
    version: f(4, 'string'),
    resource: f(5, 'string'),
    subresource: f(6, 'string'),
    name: f(7, 'string'),
  }),
  NonResourceAttributes: msg({ path: f(1, 'string'), verb: f(2, 'string') }),
  SelfSubjectAccessReviewSpec: msg({ resourceAttributes: f(1, 'ResourceAttributes'), nonResourceAttributes: f(2, 'NonResourceAttributes') }),
  SubjectAccessReviewSpec: msg({
    resourceAttributes: f(1, 'ResourceAttributes'),
    nonResourceAttributes: f(2, 'NonResourceAttributes'),
    user: f(3, 'string'),
    groups: list(4, 'string'),
    extra: map(5, 'ExtraValue'),
    uid: f(6, 'string'),
  }),
  SelfSubjectRulesReviewSpec: msg({ namespace: f(1, 'string') }),
  SelfSubjectAccessReview: msg({ metadata: objectMeta, spec: f(2, 'SelfSubjectAccessReviewSpec') }),
  SubjectAccessReview: msg({ metadata: objectMeta, spec: f(2, 'SubjectAccessReviewSpec') }),
  LocalSubjectAccessReview: msg({ metadata: objectMeta, spec: f(2, 'SubjectAccessReviewSpec') }),
  SelfSubjectRulesReview: msg({ metadata: objectMeta, spec: f(2, 'SelfSubjectRulesReviewSpec') }),
};

/** The bodies kubectl's create role / rolebinding / clusterrole / clusterrolebinding send. */
const rbacTypes = {
  PolicyRule: msg({
    verbs: list(1, 'string'),
    apiGroups: list(2, 'string'),
    resources: list(3, 'string'),
    resourceNames: list(4, 'string'),
    nonResourceURLs: list(5, 'string'),
  }),
  AggregationRule: msg({ clusterRoleSelectors: list(1, `.${META}.LabelSelector`) }),
  Role: msg({ metadata: objectMeta, rules: list(2, 'PolicyRule') }),
  ClusterRole: msg({ metadata: objectMeta, rules: list(2, 'PolicyRule'), aggregationRule: ptr(3, 'AggregationRule') }),
  RoleRef: msg({ apiGroup: f(1, 'string'), kind: f(2, 'string'), name: f(3, 'string') }),
  Subject: msg({ kind: f(1, 'string'), apiGroup: f(2, 'string'), name: f(3, 'string'), namespace: f(4, 'string') }),
  RoleBinding: msg({ metadata: objectMeta, subjects: list(2, 'Subject'), roleRef: f(3, 'RoleRef') }),
  ClusterRoleBinding: msg({ metadata: objectMeta, subjects: list(2, 'Subject'), roleRef: f(3, 'RoleRef') }),
};

function buildRoot(): protobuf.Root {
  const root = new protobuf.Root();
  root.define(RUNTIME, runtimeTypes);
  root.define(META, metaTypes);
  root.define(CORE, coreTypes);
  root.define(AUTHN, authenticationTypes);
  root.define(AUTHZ, authorizationTypes);
  root.define(RBAC, rbacTypes);
  root.resolveAll();
  return root;
}

/** The protobufjs root holding every message above, resolved once at load. */
export const kubernetesProtoRoot: protobuf.Root = buildRoot();

export const UNKNOWN_TYPE = `${RUNTIME}.Unknown`;
export const TIME_TYPE = `${META}.Time`;
export const FIELDS_V1_TYPE = `${META}.FieldsV1`;

/** `apiVersion/kind` → message type of the object carried in `Unknown.raw`. */
export const PROTOBUF_KINDS: Readonly<Record<string, string>> = {
  'v1/ConfigMap': `${CORE}.ConfigMap`,
  'v1/ServiceAccount': `${CORE}.ServiceAccount`,
  ...Object.fromEntries(
    ['authentication.k8s.io/v1', 'authentication.svc.io/v1'].flatMap((gv) => [
      [`${gv}/TokenRequest`, `${AUTHN}.TokenRequest`],
      [`${gv}/SelfSubjectReview`, `${AUTHN}.SelfSubjectReview`],
    ]),
  ),
  ...Object.fromEntries(
    ['authorization.k8s.io/v1', 'authorization.svc.io/v1'].flatMap((gv) =>
      ['SelfSubjectAccessReview', 'SubjectAccessReview', 'LocalSubjectAccessReview', 'SelfSubjectRulesReview'].map((k) => [`${gv}/${k}`, `${AUTHZ}.${k}`]),
    ),
  ),
  ...Object.fromEntries(
    ['rbac.authorization.k8s.io/v1', 'rbac.authorization.svc.io/v1'].flatMap((gv) =>
      ['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding'].map((kind) => [`${gv}/${kind}`, `${RBAC}.${kind}`]),
    ),
  ),
  'v1/Namespace': `${CORE}.Namespace`,
};

/** Messages whose JSON form is their one repeated field (Go's `type ExtraValue []string`). */
export const STRING_LIST_TYPES = new Set([`.${AUTHN}.ExtraValue`, `.${AUTHZ}.ExtraValue`]);
