/**
 * Upstream's protobuf wire schema for the kinds we accept as protobuf, as protobufjs reflection JSON.
 * Field numbers follow k8s.io/apimachinery (runtime, meta/v1) and k8s.io/api core/v1 generated.proto.
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
  ServiceAccount: msg({
    metadata: f(1, `.${META}.ObjectMeta`),
    secrets: list(2, 'ObjectReference'),
    imagePullSecrets: list(3, 'LocalObjectReference'),
    automountServiceAccountToken: ptr(4, 'bool'),
  }),
};

function buildRoot(): protobuf.Root {
  const root = new protobuf.Root();
  root.define(RUNTIME, runtimeTypes);
  root.define(META, metaTypes);
  root.define(CORE, coreTypes);
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
};
