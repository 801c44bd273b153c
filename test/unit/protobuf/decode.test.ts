import {
  decodeKubernetesProtobuf,
  kubernetesProtoRoot,
  PROTOBUF_KINDS,
  ProtobufDecodeError,
} from '../../../src/adapters/http/protobuf';
import { KUBECTL_BODIES } from './kubectl-bodies';

const MAGIC = Buffer.from('k8s\0', 'binary');
const Unknown = kubernetesProtoRoot.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown');

/** `k8s\0` + Unknown{typeMeta, raw = the object encoded with our own schema}. */
function envelope(apiVersion: string, kind: string, object: Record<string, unknown>, extra: object = {}): Buffer {
  const type = kubernetesProtoRoot.lookupType(PROTOBUF_KINDS[`${apiVersion}/${kind}`]);
  const raw = type.encode(type.fromObject(object)).finish();
  return wrap({ typeMeta: { apiVersion, kind }, raw, ...extra });
}

function wrap(unknown: Record<string, unknown>): Buffer {
  return Buffer.concat([MAGIC, Unknown.encode(Unknown.fromObject(unknown)).finish()]);
}

const t = (iso: string) => ({ seconds: Date.parse(iso) / 1000, nanos: 0 });

function expectDecodeError(body: Buffer, message: RegExp, statusCode = 400): void {
  let caught: unknown;
  try {
    decodeKubernetesProtobuf(body);
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(ProtobufDecodeError);
  expect((caught as ProtobufDecodeError).message).toMatch(message);
  expect((caught as ProtobufDecodeError).statusCode).toBe(statusCode);
}

describe('decodeKubernetesProtobuf: bodies captured from kubectl 1.32', () => {
  const decode = (b64: string) => decodeKubernetesProtobuf(Buffer.from(b64, 'base64'));

  it('create configmap --from-literal', () => {
    expect(decode(KUBECTL_BODIES.configMap)).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'demo' }, data: { a: 'b' } },
    });
  });

  it('create configmap with binary file and --append-hash', () => {
    expect(decode(KUBECTL_BODIES.configMapBinary).object).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'bin-hh862d4d92' },
      data: { x: 'y' },
      binaryData: { blob: Buffer.from([0xff, 0x00, 0xfe]).toString('base64') },
    });
  });

  it('create serviceaccount', () => {
    expect(decode(KUBECTL_BODIES.serviceAccount)).toEqual({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      object: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa1' } },
    });
  });

  it('create namespace', () => {
    expect(decode(KUBECTL_BODIES.namespace)).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'demo-ns' }, spec: {}, status: {} },
    });
  });

  it('create configmap --dry-run=server -n kube-system', () => {
    expect(decode(KUBECTL_BODIES.configMapDryRun).object).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'demo', namespace: 'kube-system' },
      data: { a: 'b' },
    });
  });
});

describe('decodeKubernetesProtobuf: RBAC bodies captured from kubectl 1.32 (upstream group name)', () => {
  const decode = (b64: string) => decodeKubernetesProtobuf(Buffer.from(b64, 'base64')).object;
  const av = { apiVersion: 'rbac.authorization.k8s.io/v1' };
  const k8s = 'rbac.authorization.k8s.io';

  it('create role', () => {
    expect(decode(KUBECTL_BODIES.role)).toEqual({
      ...av,
      kind: 'Role',
      metadata: { name: 'pod-reader', namespace: 'default' },
      rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'] }],
    });
  });

  it('create rolebinding', () => {
    expect(decode(KUBECTL_BODIES.roleBinding)).toEqual({
      ...av,
      kind: 'RoleBinding',
      metadata: { name: 'read-settings', namespace: 'default' },
      subjects: [
        { kind: 'User', apiGroup: k8s, name: 'alice' },
        { kind: 'Group', apiGroup: k8s, name: 'devs' },
        { kind: 'ServiceAccount', name: 'builder', namespace: 'ci' },
      ],
      roleRef: { apiGroup: k8s, kind: 'Role', name: 'pod-reader' },
    });
  });

  it('create clusterrole with resources and a non-resource URL', () => {
    expect(decode(KUBECTL_BODIES.clusterRole)).toEqual({
      ...av,
      kind: 'ClusterRole',
      metadata: { name: 'metrics-reader' },
      rules: [
        { verbs: ['get'], apiGroups: ['coordination.svc.io'], resources: ['leases'] },
        { verbs: ['get'], nonResourceURLs: ['/metrics'] },
      ],
    });
  });

  it('create clusterrole --aggregation-rule', () => {
    expect(decode(KUBECTL_BODIES.clusterRoleAggregated)).toEqual({
      ...av,
      kind: 'ClusterRole',
      metadata: { name: 'monitoring' },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.example.com/aggregate-to-monitoring': 'true' } }] },
    });
  });

  it('create clusterrolebinding', () => {
    expect(decode(KUBECTL_BODIES.clusterRoleBinding)).toEqual({
      ...av,
      kind: 'ClusterRoleBinding',
      metadata: { name: 'read-metrics' },
      subjects: [
        { kind: 'User', apiGroup: k8s, name: 'bob' },
        { kind: 'ServiceAccount', name: 'prometheus', namespace: 'monitoring' },
      ],
      roleRef: { apiGroup: k8s, kind: 'ClusterRole', name: 'metrics-reader' },
    });
  });

  it('a label selector with expressions round-trips through our schema', () => {
    const selector = { matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }, { key: 'x', operator: 'Exists' }] };
    const body = envelope('rbac.authorization.svc.io/v1', 'ClusterRole', { metadata: { name: 'agg' }, aggregationRule: { clusterRoleSelectors: [selector] } });
    expect(decodeKubernetesProtobuf(body).object).toEqual({
      apiVersion: 'rbac.authorization.svc.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'agg' },
      aggregationRule: { clusterRoleSelectors: [selector] },
    });
  });
});

describe('decodeKubernetesProtobuf: round trips through our schema', () => {
  it('decodes a ConfigMap with full metadata', () => {
    const body = envelope('v1', 'ConfigMap', {
      metadata: {
        generateName: 'demo-',
        namespace: 'ns1',
        uid: 'u-1',
        resourceVersion: '42',
        generation: 3,
        creationTimestamp: t('2026-01-02T03:04:05Z'),
        deletionTimestamp: { seconds: Date.parse('2026-01-02T03:05:00Z') / 1000, nanos: 999 },
        deletionGracePeriodSeconds: 0,
        labels: { app: 'demo', tier: '' },
        annotations: { note: 'hi' },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'd', uid: 'u-0', controller: false }],
        finalizers: ['example.com/f'],
        managedFields: [
          {
            manager: 'kubectl-create',
            operation: 'Update',
            apiVersion: 'v1',
            time: t('2026-01-02T03:04:05Z'),
            fieldsType: 'FieldsV1',
            fieldsV1: { Raw: Buffer.from('{"f:data":{".":{},"f:a":{}}}') },
          },
        ],
      },
      data: { a: 'b', empty: '' },
      binaryData: { bin: Buffer.from([0, 1, 2, 255]) },
      immutable: true,
    });

    expect(decodeKubernetesProtobuf(body).object).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        generateName: 'demo-',
        namespace: 'ns1',
        uid: 'u-1',
        resourceVersion: '42',
        generation: 3,
        creationTimestamp: '2026-01-02T03:04:05Z',
        deletionTimestamp: '2026-01-02T03:05:00Z',
        deletionGracePeriodSeconds: 0,
        labels: { app: 'demo', tier: '' },
        annotations: { note: 'hi' },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'd', uid: 'u-0', controller: false }],
        finalizers: ['example.com/f'],
        managedFields: [
          {
            manager: 'kubectl-create',
            operation: 'Update',
            apiVersion: 'v1',
            time: '2026-01-02T03:04:05Z',
            fieldsType: 'FieldsV1',
            fieldsV1: { 'f:data': { '.': {}, 'f:a': {} } },
          },
        ],
      },
      data: { a: 'b', empty: '' },
      binaryData: { bin: 'AAEC/w==' },
      immutable: true,
    });
  });

  it('keeps pointer fields set to false but drops zero non-pointer fields', () => {
    const body = envelope('v1', 'ConfigMap', {
      metadata: { name: 'cm', generateName: '', generation: 0, selfLink: '', creationTimestamp: {}, labels: {} },
      immutable: false,
    });
    const { object } = decodeKubernetesProtobuf(body);
    expect(object).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, immutable: false });
    expect(object).not.toHaveProperty('data');
  });

  it("omits Go's zero time (0001-01-01T00:00:00Z)", () => {
    const body = envelope('v1', 'ConfigMap', { metadata: { name: 'cm', creationTimestamp: { seconds: -62135596800 } } });
    expect(decodeKubernetesProtobuf(body).object.metadata).toEqual({ name: 'cm' });
  });

  it('decodes a ServiceAccount', () => {
    const body = envelope('v1', 'ServiceAccount', {
      metadata: { name: 'sa1', namespace: 'default', labels: { a: 'b' } },
      secrets: [{ name: 's1' }, { kind: 'Secret', namespace: 'default', name: 's2', fieldPath: 'x' }, {}],
      imagePullSecrets: [{ name: 'pull' }],
      automountServiceAccountToken: false,
    });
    expect(decodeKubernetesProtobuf(body)).toEqual({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      object: {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: 'sa1', namespace: 'default', labels: { a: 'b' } },
        secrets: [{ name: 's1' }, { kind: 'Secret', namespace: 'default', name: 's2', fieldPath: 'x' }, {}],
        imagePullSecrets: [{ name: 'pull' }],
        automountServiceAccountToken: false,
      },
    });
  });

  it('ignores fields our schema does not know', () => {
    const cm = kubernetesProtoRoot.lookupType(PROTOBUF_KINDS['v1/ConfigMap']);
    const known = cm.encode(cm.fromObject({ metadata: { name: 'cm' } })).finish();
    const raw = Buffer.concat([known, Buffer.from([0xc8, 0x06, 0x01])]); // field 105, varint 1
    expect(decodeKubernetesProtobuf(wrap({ typeMeta: { apiVersion: 'v1', kind: 'ConfigMap' }, raw })).object).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cm' },
    });
  });
});

describe('decodeKubernetesProtobuf: typeMeta', () => {
  const cm = kubernetesProtoRoot.lookupType(PROTOBUF_KINDS['v1/ConfigMap']);
  const raw = cm.encode(cm.fromObject({ metadata: { name: 'cm' } })).finish();

  it('falls back to the endpoint defaults when typeMeta is absent', () => {
    const decoded = decodeKubernetesProtobuf(wrap({ raw }), { apiVersion: 'v1', kind: 'ConfigMap' });
    expect(decoded.object).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } });
  });

  it('fills only the empty parts of typeMeta', () => {
    const decoded = decodeKubernetesProtobuf(wrap({ typeMeta: { kind: 'ConfigMap' }, raw }), { apiVersion: 'v1' });
    expect([decoded.apiVersion, decoded.kind]).toEqual(['v1', 'ConfigMap']);
  });

  it('decodes an Unknown without raw as an empty object', () => {
    const decoded = decodeKubernetesProtobuf(wrap({ typeMeta: { apiVersion: 'v1', kind: 'ServiceAccount' } }));
    expect(decoded.object).toEqual({ apiVersion: 'v1', kind: 'ServiceAccount' });
  });

  it('rejects a missing typeMeta without defaults', () => {
    expectDecodeError(wrap({ raw }), /no apiVersion or kind/);
  });
});

describe('decodeKubernetesProtobuf: errors', () => {
  it('rejects a body without the k8s\\0 prefix', () => {
    expectDecodeError(Buffer.from('{"kind":"ConfigMap"}'), /prefix/);
    expectDecodeError(Buffer.from('k8s'), /prefix/);
  });

  it('rejects a truncated envelope', () => {
    const body = Buffer.from(KUBECTL_BODIES.configMap, 'base64');
    expectDecodeError(body.subarray(0, 20), /malformed protobuf runtime.Unknown/);
  });

  it('rejects a malformed raw object', () => {
    const raw = Buffer.from([0x0a, 0x10, 0x0a]); // metadata claims 16 bytes, has 1
    expectDecodeError(wrap({ typeMeta: { apiVersion: 'v1', kind: 'ConfigMap' }, raw }), /malformed protobuf ConfigMap/);
  });

  it('rejects a kind without a protobuf schema with 415', () => {
    expectDecodeError(wrap({ typeMeta: { apiVersion: 'v1', kind: 'Secret' }, raw: Buffer.alloc(0) }), /Kind=Secret/, 415);
    expectDecodeError(wrap({ typeMeta: { apiVersion: 'v2', kind: 'ConfigMap' }, raw: Buffer.alloc(0) }), /v2/, 415);
  });

  it('rejects encoded or non-protobuf content', () => {
    expectDecodeError(envelope('v1', 'ConfigMap', {}, { contentEncoding: 'gzip' }), /contentEncoding "gzip"/);
    expectDecodeError(envelope('v1', 'ConfigMap', {}, { contentType: 'application/json' }), /contentType/);
  });

  it('rejects managedFields whose fieldsV1 is not JSON', () => {
    const body = envelope('v1', 'ConfigMap', {
      metadata: { managedFields: [{ fieldsType: 'FieldsV1', fieldsV1: { Raw: Buffer.from('{nope') } }] },
    });
    expectDecodeError(body, /fieldsV1 is not valid JSON/);
  });
});
