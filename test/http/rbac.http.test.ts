/**
 * RBAC kinds over HTTP, on both backends: roleRef immutability and table columns, and the same
 * objects under upstream's group name (rbac.authorization.k8s.io), which kubectl's create
 * role/rolebinding/clusterrole/clusterrolebinding call with protobuf bodies.
 */
import yaml from 'js-yaml';
import { KUBECTL_BODIES } from '../unit/protobuf/kubectl-bodies';
import { backends, startTestServer, TestServer } from '../support/test-server';
import { WatchClient } from '../watch/harness';

const OURS = 'rbac.authorization.svc.io/v1';
const UPSTREAM = 'rbac.authorization.k8s.io/v1';
const ours = '/apis/rbac.authorization.svc.io/v1';
const upstream = '/apis/rbac.authorization.k8s.io/v1';
const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const TABLE = 'application/json;as=Table;g=meta.k8s.io;v=v1';

async function call(s: TestServer, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(s.url + path, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : Buffer.isBuffer(body) || typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json, type: res.headers.get('content-type') ?? '' };
}

const pb = (b64: string) => Buffer.from(b64, 'base64');

describe.each(backends)('RBAC kinds over HTTP (%s)', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(backend);
  });
  afterAll(async () => {
    await s.close();
  });

  test('a RoleBinding: defaults, columns, roleRef immutable on PUT and patch, subjects mutable', async () => {
    const path = `${ours}/namespaces/default/rolebindings`;
    const created = await call(s, 'POST', path, { metadata: { name: 'readers' }, roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'alice' }] });
    expect(created.status).toBe(201);
    expect(created.json.roleRef).toEqual({ apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: 'view' });
    expect(created.json.subjects).toEqual([{ kind: 'User', apiGroup: 'rbac.authorization.svc.io', name: 'alice' }]);

    const changed = await call(s, 'PUT', `${path}/readers`, { ...created.json, roleRef: { ...created.json.roleRef, name: 'edit' } });
    expect(changed.status).toBe(422);
    expect(changed.json.message).toBe(
      'RoleBinding.rbac.authorization.svc.io "readers" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.svc.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef',
    );
    expect(changed.json.details.causes).toEqual([
      { reason: 'FieldValueInvalid', message: 'Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.svc.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef', field: 'roleRef' },
    ]);
    const patched = await call(s, 'PATCH', `${path}/readers`, { roleRef: { kind: 'Role' } }, { 'content-type': 'application/merge-patch+json' });
    expect([patched.status, patched.json.details.causes.map((c: { field: string }) => c.field)]).toEqual([422, ['roleRef']]);
    const more = await call(s, 'PATCH', `${path}/readers`, { subjects: [{ kind: 'ServiceAccount', name: 'builder', namespace: 'ci' }] }, { 'content-type': 'application/merge-patch+json' });
    expect(more.status).toBe(200);

    const table = await call(s, 'GET', path, undefined, { accept: TABLE });
    expect(table.json.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'Role', 'Age', 'Users', 'Groups', 'ServiceAccounts']);
    expect(table.json.rows[0].cells).toEqual(['readers', 'ClusterRole/view', expect.stringMatching(/^\d+s$/), '', '', 'ci/builder']);
  });

  test('a ClusterRole: Name / Created At table, rules null when absent', async () => {
    const created = await call(s, 'POST', `${ours}/clusterroles`, { metadata: { name: 'aggregate' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] } });
    expect([created.status, created.json.rules]).toEqual([201, null]);
    const table = await call(s, 'GET', `${ours}/clusterroles/aggregate`, undefined, { accept: TABLE });
    expect(table.json.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'Created At']);
    expect(table.json.rows[0].cells).toEqual(['aggregate', created.json.metadata.creationTimestamp]);
  });

  test("kubectl's protobuf create bodies under upstream's group: created as ours, answered as upstream's", async () => {
    const cases: Array<[string, string, string]> = [
      [`${upstream}/namespaces/default/roles`, KUBECTL_BODIES.role, 'Role'],
      [`${upstream}/namespaces/default/rolebindings`, KUBECTL_BODIES.roleBinding, 'RoleBinding'],
      [`${upstream}/clusterroles`, KUBECTL_BODIES.clusterRole, 'ClusterRole'],
      [`${upstream}/clusterroles`, KUBECTL_BODIES.clusterRoleAggregated, 'ClusterRole'],
      [`${upstream}/clusterrolebindings`, KUBECTL_BODIES.clusterRoleBinding, 'ClusterRoleBinding'],
    ];
    for (const [path, body, kind] of cases) {
      const res = await call(s, 'POST', `${path}?fieldManager=kubectl-create&fieldValidation=Strict`, pb(body), { 'content-type': PROTOBUF, accept: `${PROTOBUF}, */*` });
      expect([kind, res.status, res.json?.message]).toEqual([kind, 201, undefined]);
      expect(res.json).toMatchObject({ apiVersion: UPSTREAM, kind });
      const stored = await call(s, 'GET', `${path.replace(upstream, ours)}/${res.json.metadata.name}`);
      expect(stored.json).toMatchObject({ apiVersion: OURS, kind });
      expect(stored.json.metadata.managedFields[0]).toMatchObject({ manager: 'kubectl-create', apiVersion: OURS });
    }
    const binding = await call(s, 'GET', `${ours}/namespaces/default/rolebindings/read-settings`);
    expect(binding.json.roleRef).toEqual({ apiGroup: 'rbac.authorization.svc.io', kind: 'Role', name: 'pod-reader' });
    expect(binding.json.subjects.map((x: { apiGroup?: string }) => x.apiGroup)).toEqual(['rbac.authorization.svc.io', 'rbac.authorization.svc.io', undefined]);
  });

  test("reads under upstream's group carry its apiVersion in JSON, YAML, lists, tables and watches; text inside values is left alone", async () => {
    const note = '{"apiVersion":"rbac.authorization.svc.io/v1"}';
    const body = { apiVersion: UPSTREAM, kind: 'ClusterRole', metadata: { name: 'noted', annotations: { note } }, rules: [] };
    const created = await call(s, 'POST', `${upstream}/clusterroles`, body);
    expect([created.status, created.json.apiVersion, created.json.metadata.annotations.note]).toEqual([201, UPSTREAM, note]);
    const item = `${upstream}/clusterroles/noted`;

    const got = await call(s, 'GET', item);
    expect([got.json.apiVersion, got.json.metadata.annotations.note]).toEqual([UPSTREAM, note]);
    const pretty = await call(s, 'GET', `${item}?pretty=true`);
    expect(pretty.text).toContain(`"apiVersion": "${UPSTREAM}"`);
    const asYaml = await call(s, 'GET', item, undefined, { accept: 'application/yaml' });
    const doc = yaml.load(asYaml.text) as any;
    expect([doc.apiVersion, doc.metadata.annotations.note]).toEqual([UPSTREAM, note]);
    const list = await call(s, 'GET', `${upstream}/clusterroles`);
    expect(list.json.apiVersion).toBe(UPSTREAM);
    expect(new Set(list.json.items.map((i: { apiVersion: string }) => i.apiVersion))).toEqual(new Set([UPSTREAM]));
    const listYaml = yaml.load((await call(s, 'GET', `${upstream}/clusterroles`, undefined, { accept: 'application/yaml' })).text) as any;
    expect(listYaml.items.every((i: { apiVersion: string }) => i.apiVersion === UPSTREAM)).toBe(true);
    const table = await call(s, 'GET', `${item}?includeObject=Object`, undefined, { accept: TABLE });
    expect([table.json.apiVersion, table.json.rows[0].object.apiVersion]).toEqual(['meta.k8s.io/v1', UPSTREAM]);

    const watch = await WatchClient.open(s.url, `${upstream}/clusterroles?watch=1&fieldSelector=metadata.name%3Dnoted`);
    try {
      const [added] = await watch.waitFor(1);
      expect([added.type, added.object.apiVersion, added.object.metadata.annotations.note]).toEqual(['ADDED', UPSTREAM, note]);
    } finally {
      watch.close();
    }

    // Our own group is untouched.
    expect((await call(s, 'GET', `${ours}/clusterroles/noted`)).json.apiVersion).toBe(OURS);
  });

  test("updates, applies and deletes under upstream's group; it is not in discovery", async () => {
    const path = `${upstream}/namespaces/default/rolebindings`;
    const rb = { apiVersion: UPSTREAM, kind: 'RoleBinding', metadata: { name: 'b' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' } };
    expect((await call(s, 'POST', path, rb)).status).toBe(201);
    const current = (await call(s, 'GET', `${path}/b`)).json;
    const put = await call(s, 'PUT', `${path}/b`, { ...current, subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'g' }] });
    expect([put.status, put.json.apiVersion, put.json.subjects]).toEqual([200, UPSTREAM, [{ kind: 'Group', apiGroup: 'rbac.authorization.svc.io', name: 'g' }]]);
    const applied = await call(
      s,
      'PATCH',
      `${path}/applied?fieldManager=tool`,
      `apiVersion: ${UPSTREAM}\nkind: RoleBinding\nmetadata:\n  name: applied\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: view\n`,
      { 'content-type': 'application/apply-patch+yaml' },
    );
    expect([applied.status, applied.json?.apiVersion, applied.json?.message]).toEqual([201, UPSTREAM, undefined]);
    const wrongGroup = await call(s, 'POST', path, { ...rb, apiVersion: 'rbac.authorization.k8s.io/v2', metadata: { name: 'c' } });
    expect(wrongGroup.status).toBe(400);
    const deleted = await call(s, 'DELETE', `${path}/b`);
    expect([deleted.status, deleted.json.kind]).toEqual([200, 'Status']);
    expect((await call(s, 'GET', `${ours}/namespaces/default/rolebindings/b`)).status).toBe(404);

    const groups = (await call(s, 'GET', '/apis')).json.groups.map((g: { name: string }) => g.name);
    expect(groups).toContain('rbac.authorization.svc.io');
    expect(groups).not.toContain('rbac.authorization.k8s.io');
    expect((await call(s, 'GET', `${upstream}/namespaces/default/configmaps`)).status).toBe(404);
  });
});
