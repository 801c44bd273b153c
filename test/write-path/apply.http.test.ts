/** Server-side apply over HTTP, on both storage backends, with upstream's exact texts. */
import { apply, backends, CacheServer, cmPath, configMap, send, startWriteServer, WatchClient, MERGE } from './write-helpers';
import { makeCsrPem } from '../support/crypto-fixtures';

const base = cmPath();
const yamlCm = (name: string, data: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n${data}`;

describe.each(backends)('server-side apply (%s)', (backend) => {
  let s: CacheServer;
  beforeAll(async () => {
    s = await startWriteServer(backend);
  });
  afterAll(async () => {
    await s.close();
  });

  test('apply creates (201) with an Apply entry, and an identical apply is a no-op', async () => {
    const created = await apply(s, `${base}/created`, yamlCm('created', '  a: "1"\n'), 'fieldManager=alice');
    expect(created.status).toBe(201);
    expect(created.json.data).toEqual({ a: '1' });
    expect(created.json.metadata.managedFields).toEqual([
      { manager: 'alice', operation: 'Apply', apiVersion: 'v1', time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/), fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} } } },
    ]);
    const rv = created.json.metadata.resourceVersion;
    const watch = await WatchClient.open(s.url, `${base}?watch=1&resourceVersion=${rv}&fieldSelector=metadata.name%3Dcreated`);
    const again = await apply(s, `${base}/created`, yamlCm('created', '  a: "1"\n'), 'fieldManager=alice');
    expect(again.status).toBe(200);
    expect(again.json.metadata.resourceVersion).toBe(rv);
    expect(again.json.metadata.managedFields).toEqual(created.json.metadata.managedFields);
    // Barrier: a real change to the object, which the watch must deliver; it delivers in revision order, so whatever
    // the identical apply had written would come before it.
    const barrier = await send(s, 'PATCH', `${base}/created?fieldManager=barrier`, { metadata: { labels: { barrier: 'yes' } } }, MERGE);
    expect(barrier.status).toBe(200);
    const seen = await watch.through(barrier.json.metadata.resourceVersion);
    expect(seen.map((e) => [e.type, e.object.metadata.resourceVersion])).toEqual([['MODIFIED', barrier.json.metadata.resourceVersion]]);
    watch.close();
  });

  test('conflicts: exact 409 body, shared ownership for equal values, force takes over', async () => {
    await apply(s, `${base}/shared`, configMap('shared', { a: '1', b: '2' }), 'fieldManager=alice');
    const same = await apply(s, `${base}/shared`, configMap('shared', { a: '1' }), 'fieldManager=bob');
    expect(same.status).toBe(200);
    const conflict = await apply(s, `${base}/shared`, configMap('shared', { a: '9' }), 'fieldManager=carol');
    expect(conflict.status).toBe(409);
    expect(conflict.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Apply failed with 2 conflicts: conflicts with "alice":\n- .data.a\nconflicts with "bob":\n- .data.a',
      reason: 'Conflict',
      details: {
        causes: [
          { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.data.a' },
          { reason: 'FieldManagerConflict', message: 'conflict with "bob"', field: '.data.a' },
        ],
      },
      code: 409,
    });
    const forced = await apply(s, `${base}/shared`, configMap('shared', { a: '9' }), 'fieldManager=carol&force=true');
    expect(forced.status).toBe(200);
    expect(forced.json.data).toEqual({ a: '9', b: '2' });
    const owners = Object.fromEntries(forced.json.metadata.managedFields.map((e: any) => [e.manager, e.fieldsV1]));
    expect(owners).toEqual({ alice: { 'f:data': { 'f:b': {} } }, carol: { 'f:data': { 'f:a': {} } } });
  });

  test('a conflict with an Update manager names its version', async () => {
    await send(s, 'POST', `${base}?fieldManager=kubectl-client-side-apply`, configMap('csa', { key: 'v' }));
    const r = await apply(s, `${base}/csa`, configMap('csa', { key: 'other' }), 'fieldManager=ssa');
    expect(r.status).toBe(409);
    expect(r.json.message).toBe('Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.key');
    expect(r.json.details).toEqual({ causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl-client-side-apply" using v1', field: '.data.key' }] });
  });

  test('fields a manager stops applying are removed, unless another manager owns them', async () => {
    await apply(s, `${base}/prune`, configMap('prune', { a: '1', b: '2', c: '3' }, { labels: { l: 'x' } }), 'fieldManager=alice');
    await send(s, 'PATCH', `${base}/prune?fieldManager=editor`, { data: { c: '33' } }, MERGE);
    const r = await apply(s, `${base}/prune`, configMap('prune', { a: '1' }), 'fieldManager=alice');
    expect(r.status).toBe(200);
    expect(r.json.data).toEqual({ a: '1', c: '33' });
    expect(r.json.metadata.labels).toBeUndefined();
  });

  test('request errors in upstream words', async () => {
    const p = `${base}/errs`;
    const expect400 = async (body: unknown, message: string | RegExp, query = 'fieldManager=m') => {
      const r = await apply(s, p, body, query);
      expect(r.status).toBe(400);
      expect(r.json.reason).toBe('BadRequest');
      if (typeof message === 'string') expect(r.json.message).toBe(message);
      else expect(r.json.message).toMatch(message);
    };
    await expect400({ ...configMap('errs'), apiVersion: 'v2' }, 'invalid object type: /v2, Kind=ConfigMap');
    await expect400({ ...configMap('errs'), kind: 'Secret' }, 'invalid object type: /v1, Kind=Secret');
    await expect400({ metadata: { name: 'errs' } }, 'invalid object type: /, Kind=');
    await expect400(configMap('errs', {}, { managedFields: [] }), 'metadata.managedFields must be nil');
    await expect400(configMap('other'), 'the name of the object (other) does not match the name on the URL (errs)');
    await expect400('a: [1, 2\n', /^error decoding YAML: /);
    await expect400({ ...configMap('errs'), foo: 1 }, 'failed to create typed patch object (/errs; /v1, Kind=ConfigMap): .foo: field not declared in schema', 'fieldManager=m&fieldValidation=Strict');
    await expect400(
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: errs\ndata:\n  a: "1"\n  a: "2"\n',
      'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 7: key "a" already set in map',
      'fieldManager=m&fieldValidation=Strict',
    );
    const uid = await apply(s, p, configMap('errs', {}, { uid: 'abc' }), 'fieldManager=m');
    expect(uid.status).toBe(409);
    expect(uid.json.message).toBe('Operation cannot be fulfilled on configmaps "errs": uid mismatch: the provided object specified uid abc, and no existing object was found');
    const noManager = await apply(s, p, configMap('errs'), 'force=true');
    expect(noManager.status).toBe(422);
    expect(noManager.json.message).toBe('PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
    const forceMerge = await send(s, 'PATCH', `${p}?force=true`, {}, MERGE);
    expect(forceMerge.json.message).toBe('PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');
    const unsupported = await send(s, 'PATCH', p, 'x', 'text/plain');
    expect(unsupported.status).toBe(415);
    expect(unsupported.json.message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml',
    );
  });

  test('unknown fields and duplicates warn by default, and are ignored with Ignore', async () => {
    const warn = await apply(s, `${base}/warned`, { ...configMap('warned', { a: '1' }), spec: { x: 1 } }, 'fieldManager=m');
    expect(warn.status).toBe(201);
    expect(warn.headers.get('warning')).toBe('299 - "unknown field \\"spec\\""');
    expect(warn.json.spec).toBeUndefined();
    const ignore = await apply(s, `${base}/warned`, { ...configMap('warned', { a: '1' }), spec: { x: 1 } }, 'fieldManager=m&fieldValidation=Ignore');
    expect(ignore.status).toBe(200);
    expect(ignore.headers.get('warning')).toBeNull();
    const dup = await apply(s, `${base}/warned`, '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"warned"},"data":{"a":"1","a":"1"}}', 'fieldManager=m');
    expect(dup.status).toBe(200);
    expect(dup.headers.get('warning')).toContain('line 1: key \\"a\\" already set in map');
  });

  test('dryRun apply creates nothing and shows no resourceVersion', async () => {
    const r = await apply(s, `${base}/dry`, configMap('dry', { a: '1' }), 'fieldManager=m&dryRun=All');
    expect(r.status).toBe(201);
    expect(r.json.metadata.resourceVersion).toBeUndefined();
    expect(r.json.metadata.managedFields[0].operation).toBe('Apply');
    expect((await send(s, 'GET', `${base}/dry`)).status).toBe(404);
  });

  test('status is reset on the main resource and only status is applied through /status', async () => {
    const pdbs = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
    const body = (spec: object, status: object) => ({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'pdb' }, spec, status });
    const main = await apply(s, `${pdbs}/pdb`, body({ minAvailable: 1 }, { currentHealthy: 5 }), 'fieldManager=user');
    expect(main.status).toBe(201);
    expect(main.json.status.currentHealthy).toBe(0);
    expect(main.json.metadata.managedFields[0].fieldsV1).toEqual({ 'f:spec': { 'f:minAvailable': {} } });
    const status = await apply(
      s,
      `${pdbs}/pdb/status`,
      body({ minAvailable: 7 }, { currentHealthy: 5, desiredHealthy: 1, disruptionsAllowed: 4, expectedPods: 5 }),
      'fieldManager=controller',
    );
    expect(status.status).toBe(200);
    expect(status.json.spec.minAvailable).toBe(1);
    expect(status.json.status.currentHealthy).toBe(5);
    const entry = status.json.metadata.managedFields.find((e: any) => e.manager === 'controller');
    expect(entry).toMatchObject({ operation: 'Apply', subresource: 'status' });
    expect(Object.keys(entry.fieldsV1)).toEqual(['f:status']);
  });

  test('apply through /status sets labels where upstream keeps status-write metadata (PDB), not where it resets it (PCR)', async () => {
    const pdbs = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
    const pdb = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'pdb-meta' } };
    expect((await apply(s, `${pdbs}/pdb-meta`, { ...pdb, spec: { minAvailable: 1 } }, 'fieldManager=user')).status).toBe(201);
    const status = await apply(s, `${pdbs}/pdb-meta/status`, { ...pdb, metadata: { ...pdb.metadata, labels: { by: 'controller' } }, status: { currentHealthy: 1 } }, 'fieldManager=controller');
    expect([status.status, status.json.metadata.labels]).toEqual([200, { by: 'controller' }]);
    const entry = status.json.metadata.managedFields.find((e: any) => e.manager === 'controller');
    expect(entry.fieldsV1).toEqual({ 'f:metadata': { 'f:labels': { 'f:by': {} } }, 'f:status': { 'f:currentHealthy': {} } });

    const { der } = await makeCsrPem({ keyType: 'ED25519' });
    const pcrs = '/apis/certificates.svc.io/v1/namespaces/default/podcertificaterequests';
    const pcr = { apiVersion: 'certificates.svc.io/v1', kind: 'PodCertificateRequest', metadata: { name: 'pcr-meta' } };
    const spec = {
      signerName: 'example.com/signer', podName: 'p', podUID: 'pu', serviceAccountName: 'sa', serviceAccountUID: 'su',
      nodeName: 'n', nodeUID: 'nu', stubPKCS10Request: Buffer.from(der).toString('base64'),
    };
    expect((await apply(s, `${pcrs}/pcr-meta`, { ...pcr, spec }, 'fieldManager=kubelet')).status).toBe(201);
    const reset = await apply(s, `${pcrs}/pcr-meta/status`, { ...pcr, metadata: { ...pcr.metadata, labels: { by: 'signer' } } }, 'fieldManager=signer');
    expect([reset.status, reset.json.metadata.labels]).toEqual([200, undefined]);
  });

  test('manager "kubectl" rewrites an existing last-applied annotation and may take over its fields', async () => {
    const key = 'kubectl.kubernetes.io/last-applied-configuration';
    const last = JSON.stringify(configMap('la', { k: 'v' }));
    await send(s, 'POST', `${base}?fieldManager=kubectl-client-side-apply`, configMap('la', { k: 'v' }, { annotations: { [key]: last } }));
    const r = await apply(s, `${base}/la`, configMap('la', { k: 'new' }), 'fieldManager=kubectl');
    expect(r.status).toBe(200);
    expect(r.json.data).toEqual({ k: 'new' });
    expect(r.json.metadata.annotations[key]).toBe('{"apiVersion":"v1","data":{"k":"new"},"kind":"ConfigMap","metadata":{"name":"la"}}\n');
  });

  test('keyed lists (ServiceAccount secrets by name) are owned per item', async () => {
    const sas = '/api/v1/namespaces/default/serviceaccounts';
    const sa = (secrets: string[]) => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa' }, secrets: secrets.map((name) => ({ name })) });
    await apply(s, `${sas}/sa`, sa(['a', 'b']), 'fieldManager=one');
    await apply(s, `${sas}/sa`, sa(['c']), 'fieldManager=two');
    const r = await apply(s, `${sas}/sa`, sa(['b']), 'fieldManager=one');
    expect(r.json.secrets).toEqual([{ name: 'b' }, { name: 'c' }]);
    const one = r.json.metadata.managedFields.find((e: any) => e.manager === 'one');
    expect(one.fieldsV1).toEqual({ 'f:secrets': { 'k:{"name":"b"}': { '.': {}, 'f:name': {} } } });
  });
});
