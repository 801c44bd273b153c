/** managedFields bookkeeping of non-apply writes, and dry runs, over HTTP on both backends. */
import { backends, CacheServer, cmPath, configMap, send, startWriteServer, WatchClient, MERGE } from './write-helpers';

const base = cmPath();
const entry = (r: { json: any }, manager: string) => r.json.metadata.managedFields?.find((e: any) => e.manager === manager);

describe.each(backends)('managedFields on create/update/patch (%s)', (backend) => {
  let s: CacheServer;
  beforeAll(async () => {
    s = await startWriteServer(backend);
  });
  afterAll(async () => {
    await s.close();
  });

  test('create records an Update entry for what it set; the default manager comes from the User-Agent', async () => {
    const r = await send(s, 'POST', base, configMap('c1', { a: '1' }, { labels: { app: 'x' } }));
    expect(r.status).toBe(201);
    expect(r.json.metadata.managedFields).toEqual([
      {
        manager: 'write-path-test',
        operation: 'Update',
        apiVersion: 'v1',
        time: r.json.metadata.creationTimestamp,
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { '.': {}, 'f:a': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } },
      },
    ]);
  });

  test('an update takes the fields it changed from other managers; a no-op write changes nothing', async () => {
    const created = await send(s, 'POST', `${base}?fieldManager=creator`, configMap('c2', { a: '1', b: '2' }));
    const updated = await send(s, 'PUT', `${base}/c2?fieldManager=editor`, { ...created.json, data: { a: '9', b: '2', c: '3' } });
    expect(updated.status).toBe(200);
    expect(entry(updated, 'creator').fieldsV1).toEqual({ 'f:data': { '.': {}, 'f:b': {} } });
    expect(entry(updated, 'editor').fieldsV1).toEqual({ 'f:data': { 'f:a': {}, 'f:c': {} } });

    const rv = updated.json.metadata.resourceVersion;
    const watch = await WatchClient.open(s.url, `${base}?watch=1&resourceVersion=${rv}&fieldSelector=metadata.name%3Dc2`);
    // Same content, keys in another order, no managedFields sent: nothing to write.
    const { managedFields: _mf, ...meta } = updated.json.metadata;
    const same = await send(s, 'PUT', `${base}/c2?fieldManager=third`, { data: { c: '3', b: '2', a: '9' }, metadata: meta, kind: 'ConfigMap', apiVersion: 'v1' });
    expect(same.status).toBe(200);
    expect(same.json.metadata.resourceVersion).toBe(rv);
    expect(same.json.metadata.managedFields).toEqual(updated.json.metadata.managedFields);
    const samePatch = await send(s, 'PATCH', `${base}/c2?fieldManager=fourth`, { data: { a: '9' } }, MERGE);
    expect(samePatch.json.metadata.resourceVersion).toBe(rv);
    // Barrier: a real change to c2, which the watch must deliver; it delivers in revision order, so whatever either
    // no-op had written would come before it.
    const barrier = await send(s, 'PATCH', `${base}/c2?fieldManager=barrier`, { metadata: { labels: { barrier: 'yes' } } }, MERGE);
    expect(barrier.status).toBe(200);
    const seen = await watch.through(barrier.json.metadata.resourceVersion);
    expect(seen.map((e) => [e.type, e.object.metadata.resourceVersion])).toEqual([['MODIFIED', barrier.json.metadata.resourceVersion]]);
    watch.close();
  });

  test('clients may overwrite managedFields; [] and [{}] reset them; invalid entries are 422', async () => {
    const created = await send(s, 'POST', `${base}?fieldManager=creator`, configMap('c3', { a: '1' }));
    const custom = [{ manager: 'someone', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} } } }];
    const overwritten = await send(s, 'PUT', `${base}/c3?fieldManager=editor`, { ...created.json, metadata: { ...created.json.metadata, managedFields: custom } });
    expect(overwritten.json.metadata.managedFields).toEqual(custom);

    for (const reset of [[], [{}]]) {
      const cur = (await send(s, 'GET', `${base}/c3`)).json;
      const r = await send(s, 'PUT', `${base}/c3?fieldManager=resetter`, { ...cur, data: { ...cur.data, [`k${reset.length}`]: 'v' }, metadata: { ...cur.metadata, managedFields: reset } });
      expect(r.status).toBe(200);
      expect(r.json.metadata.managedFields.map((e: any) => e.manager)).toEqual(['resetter']);
      expect(r.json.metadata.managedFields[0].fieldsV1).toEqual({ 'f:data': { [`f:k${reset.length}`]: {} } });
    }

    const cur = (await send(s, 'GET', `${base}/c3`)).json;
    const bad = await send(s, 'PUT', `${base}/c3`, { ...cur, metadata: { ...cur.metadata, managedFields: [{ manager: 'm', operation: 'Foo', fieldsType: 'FieldsV2' }] } });
    expect(bad.status).toBe(422);
    expect(bad.json.message).toBe(
      'ConfigMap "c3" is invalid: [metadata.managedFields[0].operation: Invalid value: "Foo": must be `Apply` or `Update`, metadata.managedFields[0].fieldsType: Invalid value: "FieldsV2": must be `FieldsV1`]',
    );
  });

  test('at most ten Update managers; older ones merge into ancient-changes', async () => {
    await send(s, 'POST', `${base}?fieldManager=m0`, configMap('c4', { k0: 'v' }));
    for (let i = 1; i <= 11; i++) {
      const r = await send(s, 'PATCH', `${base}/c4?fieldManager=m${i}`, { data: { [`k${i}`]: 'v' } }, MERGE);
      expect(r.status).toBe(200);
    }
    const got = (await send(s, 'GET', `${base}/c4`)).json;
    const managers = got.metadata.managedFields.map((e: any) => e.manager);
    expect(managers).toHaveLength(10);
    expect(managers).toContain('ancient-changes');
    expect(managers).toContain('m11');
    expect(managers).not.toContain('m0');
  });

  test('empty maps and lists under omitempty are neither stored, served, watched nor owned (issue 10)', async () => {
    const rv = (await send(s, 'GET', base)).json.metadata.resourceVersion;
    const watch = await WatchClient.open(s.url, `${base}?watch=1&resourceVersion=${rv}&fieldSelector=metadata.name%3Dempty`);
    const created = await send(s, 'POST', `${base}?fieldManager=maker`, { metadata: { name: 'empty', labels: {}, annotations: null, finalizers: [] }, data: {}, binaryData: {} });
    expect(created.status).toBe(201);
    const shape = (o: any) => ({ meta: Object.keys(o.metadata).sort(), data: o.data, binaryData: o.binaryData });
    const expected = { meta: ['creationTimestamp', 'name', 'namespace', 'resourceVersion', 'uid'], data: undefined, binaryData: undefined };
    expect(shape(created.json)).toEqual(expected);
    expect(shape((await send(s, 'GET', `${base}/empty`)).json)).toEqual(expected);
    const [added] = await watch.waitFor(1);
    expect(shape(added.object)).toEqual(expected);
    watch.close();
    // Emptying the last label is a change back to no labels at all; sending {} again then changes nothing.
    await send(s, 'PATCH', `${base}/empty`, { metadata: { labels: { a: 'b' } } }, MERGE);
    const emptied = await send(s, 'PATCH', `${base}/empty?fieldManager=editor`, { metadata: { labels: { a: null } } }, MERGE);
    expect(emptied.json.metadata.labels).toBeUndefined();
    const again = await send(s, 'PUT', `${base}/empty`, { ...emptied.json, metadata: { ...emptied.json.metadata, labels: {}, annotations: {} } });
    expect(again.json.metadata.resourceVersion).toBe(emptied.json.metadata.resourceVersion);

    // Role.rules has no omitempty upstream: an empty list reads back as null.
    const roles = '/apis/rbac.authorization.svc.io/v1/namespaces/default/roles';
    const role = await send(s, 'POST', roles, { metadata: { name: 'no-rules' }, rules: [] });
    expect([role.status, role.json.rules]).toEqual([201, null]);
  });

  test('writes through /status record the subresource', async () => {
    const pdbs = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
    const created = await send(s, 'POST', pdbs, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'p' }, spec: { minAvailable: 1 } });
    expect(created.status).toBe(201);
    const r = await send(s, 'PUT', `${pdbs}/p/status?fieldManager=ctl`, { ...created.json, status: { ...created.json.status, currentHealthy: 3 } });
    expect(r.status).toBe(200);
    expect(entry(r, 'ctl')).toMatchObject({ operation: 'Update', subresource: 'status', fieldsV1: { 'f:status': { 'f:currentHealthy': {} } } });
  });

  test('a PDB /status write keeps its metadata change (upstream resets none) and its manager owns it', async () => {
    const pdbs = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
    const created = await send(s, 'POST', pdbs, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'pm' }, spec: { minAvailable: 1 } });
    expect(created.status).toBe(201);
    const r = await send(s, 'PATCH', `${pdbs}/pm/status?fieldManager=ctl`, { metadata: { labels: { seen: 'yes' } }, status: { currentHealthy: 2 } }, MERGE);
    expect([r.status, r.json.metadata.labels]).toEqual([200, { seen: 'yes' }]);
    expect(entry(r, 'ctl')).toMatchObject({
      subresource: 'status',
      fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:seen': {} } }, 'f:status': { 'f:currentHealthy': {} } },
    });
  });

  test('dryRun: create 201 without resourceVersion, update 200 with the current one, nothing stored', async () => {
    const dryCreate = await send(s, 'POST', `${base}?dryRun=All`, configMap('dry', { a: '1' }));
    expect(dryCreate.status).toBe(201);
    expect(dryCreate.json.metadata.resourceVersion).toBeUndefined();
    expect(dryCreate.json.metadata.uid).toBeDefined();
    expect((await send(s, 'GET', `${base}/dry`)).status).toBe(404);

    const real = await send(s, 'POST', base, configMap('dry', { a: '1' }));
    const rv = real.json.metadata.resourceVersion;
    const dryUpdate = await send(s, 'PUT', `${base}/dry?dryRun=All`, { ...real.json, data: { a: '2' } });
    expect(dryUpdate.status).toBe(200);
    expect(dryUpdate.json.data).toEqual({ a: '2' });
    expect(dryUpdate.json.metadata.resourceVersion).toBe(rv);
    const dryPatch = await send(s, 'PATCH', `${base}/dry?dryRun=All`, { data: { a: '3' } }, MERGE);
    expect(dryPatch.json.metadata.resourceVersion).toBe(rv);
    const after = await send(s, 'GET', `${base}/dry`);
    expect(after.json.data).toEqual({ a: '1' });
    expect(after.json.metadata.resourceVersion).toBe(rv);
  });
});
