/** DELETE, finalizers, the built-in finalizer controller and corrupt objects, over HTTP on both backends. */
import { backends, CacheServer, cmPath, configMap, send, startWriteServer, until, WatchClient, MERGE } from './write-helpers';

const base = cmPath();
const deleteBody = (opts: Record<string, unknown>) => ({ kind: 'DeleteOptions', apiVersion: 'v1', ...opts });

describe.each(backends)('delete (%s)', (backend) => {
  let s: CacheServer;
  beforeAll(async () => {
    s = await startWriteServer(backend);
  });
  afterAll(async () => {
    await s.close();
  });

  test('a finalizer holds the object; removing the last one deletes it (watch: MODIFIED, DELETED)', async () => {
    const created = await send(s, 'POST', base, configMap('held', { a: '1' }, { finalizers: ['example.com/keep'] }));
    const watch = await WatchClient.open(s.url, `${base}?watch=1&resourceVersion=${created.json.metadata.resourceVersion}&fieldSelector=metadata.name%3Dheld`);
    const deleting = await send(s, 'DELETE', `${base}/held`);
    expect(deleting.status).toBe(200);
    expect(deleting.json.kind).toBe('ConfigMap');
    expect(deleting.json.metadata.deletionTimestamp).toMatch(/Z$/);
    expect(deleting.json.metadata.deletionGracePeriodSeconds).toBe(0);
    const again = await send(s, 'DELETE', `${base}/held`);
    expect(again.status).toBe(200);
    expect(again.json.metadata.resourceVersion).toBe(deleting.json.metadata.resourceVersion);

    const more = await send(s, 'PATCH', `${base}/held`, { metadata: { finalizers: ['example.com/keep', 'example.com/more'] } }, MERGE);
    expect(more.status).toBe(422);
    expect(more.json.message).toContain('no new finalizers can be added if the object is being deleted');

    const removed = await send(s, 'PATCH', `${base}/held`, { metadata: { finalizers: null } }, MERGE);
    expect(removed.status).toBe(200);
    expect(removed.json.metadata.name).toBe('held');
    expect((await send(s, 'GET', `${base}/held`)).status).toBe(404);
    const events = await watch.waitFor(2);
    expect(events.map((e) => e.type)).toEqual(['MODIFIED', 'DELETED']);
    expect(events[1].object.metadata.finalizers).toEqual(['example.com/keep']);
    watch.close();
  });

  test('plain delete answers Status; preconditions and options are checked as upstream', async () => {
    const created = await send(s, 'POST', base, configMap('plain'));
    const badUid = await send(s, 'DELETE', `${base}/plain`, deleteBody({ preconditions: { uid: 'nope' } }));
    expect(badUid.status).toBe(409);
    expect(badUid.json.message).toBe(
      `Operation cannot be fulfilled on ConfigMap "plain": the UID in the precondition (nope) does not match the UID in record (${created.json.metadata.uid}). The object might have been deleted and then recreated`,
    );
    const badRv = await send(s, 'DELETE', `${base}/plain`, deleteBody({ preconditions: { resourceVersion: '1' } }));
    expect(badRv.json.message).toBe(
      `Operation cannot be fulfilled on ConfigMap "plain": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${created.json.metadata.resourceVersion}). The object might have been modified`,
    );
    const both = await send(s, 'DELETE', `${base}/plain?propagationPolicy=Orphan&orphanDependents=true`);
    expect(both.status).toBe(422);
    expect(both.json.message).toBe('DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set');
    const dry = await send(s, 'DELETE', `${base}/plain?dryRun=All`);
    expect(dry.status).toBe(200);
    expect((await send(s, 'GET', `${base}/plain`)).status).toBe(200);
    const gone = await send(s, 'DELETE', `${base}/plain`, deleteBody({ preconditions: { uid: created.json.metadata.uid } }));
    expect(gone.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'plain', kind: 'configmaps', uid: created.json.metadata.uid } });
  });

  test('orphanDependents=false on a held object answers 202; a dry-run delete shows the would-be object', async () => {
    await send(s, 'POST', base, configMap('held202', {}, { finalizers: ['example.com/keep'] }));
    const dry = await send(s, 'DELETE', `${base}/held202?dryRun=All`);
    expect(dry.status).toBe(200);
    expect(dry.json.metadata.deletionTimestamp).toBeDefined();
    expect((await send(s, 'GET', `${base}/held202`)).json.metadata.deletionTimestamp).toBeUndefined();
    const r = await send(s, 'DELETE', `${base}/held202`, deleteBody({ orphanDependents: false }));
    expect(r.status).toBe(202);
    await send(s, 'PATCH', `${base}/held202`, { metadata: { finalizers: [] } }, MERGE);
  });

  test('deletecollection honours selectors and answers the list as it was', async () => {
    for (const [n, tier] of [['dc1', 'x'], ['dc2', 'x'], ['dc3', 'y']]) await send(s, 'POST', base, configMap(n, {}, { labels: { tier } }));
    const dry = await send(s, 'DELETE', `${base}?labelSelector=tier%3Dx&dryRun=All`);
    expect(dry.json.items).toHaveLength(2);
    expect((await send(s, 'GET', `${base}/dc1`)).status).toBe(200);
    const r = await send(s, 'DELETE', `${base}?labelSelector=tier%3Dx`);
    expect(r.status).toBe(200);
    expect(r.json.kind).toBe('ConfigMapList');
    expect(r.json.items.map((i: any) => i.metadata.name).sort()).toEqual(['dc1', 'dc2']);
    expect((await send(s, 'GET', `${base}/dc1`)).status).toBe(404);
    expect((await send(s, 'GET', `${base}/dc3`)).status).toBe(200);
  });

  test('Orphan: the controller strips owner references from dependents, then lets the owner go', async () => {
    const owner = await send(s, 'POST', base, configMap('orphan-owner'));
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'orphan-owner', uid: owner.json.metadata.uid };
    await send(s, 'POST', base, configMap('orphan-dep', {}, { ownerReferences: [ref] }));
    const r = await send(s, 'DELETE', `${base}/orphan-owner?propagationPolicy=Orphan`);
    expect(r.status).toBe(200);
    expect(r.json.metadata.finalizers).toEqual(['orphan']);
    await until('the owner to go', async () => (await send(s, 'GET', `${base}/orphan-owner`)).status === 404, { timeoutMs: 10_000 });
    const dep = await send(s, 'GET', `${base}/orphan-dep`);
    expect(dep.status).toBe(200);
    expect(dep.json.metadata.ownerReferences).toBeUndefined();
  });

  test('Foreground: dependents are deleted first (cascading), then the owner', async () => {
    const owner = await send(s, 'POST', base, configMap('fg-owner'));
    const refTo = (o: any) => [{ apiVersion: 'v1', kind: 'ConfigMap', name: o.metadata.name, uid: o.metadata.uid, blockOwnerDeletion: true }];
    const child = await send(s, 'POST', base, configMap('fg-child', {}, { ownerReferences: refTo(owner.json) }));
    await send(s, 'POST', base, configMap('fg-grandchild', {}, { ownerReferences: refTo(child.json) }));
    const r = await send(s, 'DELETE', `${base}/fg-owner`, deleteBody({ propagationPolicy: 'Foreground' }));
    expect(r.json.metadata.finalizers).toEqual(['foregroundDeletion']);
    await until('the owner to go', async () => (await send(s, 'GET', `${base}/fg-owner`)).status === 404, { timeoutMs: 10_000 });
    expect((await send(s, 'GET', `${base}/fg-child`)).status).toBe(404);
    expect((await send(s, 'GET', `${base}/fg-grandchild`)).status).toBe(404);
  });

  test('an undecodable object: 500 on read, skipped by lists, removable only with the unsafe option', async () => {
    await send(s, 'POST', base, configMap('healthy'));
    await s.storage.create('/configmaps/default/corrupt', Buffer.from('{not json'));
    const get = await send(s, 'GET', `${base}/corrupt`);
    expect(get.status).toBe(500);
    expect(get.json.message).toMatch(/^Internal error occurred: StorageError: corrupt object, Code: 7, Key: \/configmaps\/default\/corrupt, ResourceVersion: 0, AdditionalErrorMsg: object not decodable/);
    const list = await send(s, 'GET', base);
    expect(list.status).toBe(200);
    expect(list.json.items.map((i: any) => i.metadata.name)).toContain('healthy');
    expect(list.json.items.map((i: any) => i.metadata.name)).not.toContain('corrupt');

    const plain = await send(s, 'DELETE', `${base}/corrupt`);
    expect(plain.status).toBe(500);
    expect(plain.json.message).toContain('corrupt object');
    const withDry = await send(s, 'DELETE', `${base}/corrupt?ignoreStoreReadErrorWithClusterBreakingPotential=true&dryRun=All`);
    expect(withDry.json.message).toBe(
      'DeleteOptions.meta.k8s.io "" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together with .dryRun',
    );
    const healthy = await send(s, 'DELETE', `${base}/healthy?ignoreStoreReadErrorWithClusterBreakingPotential=true`);
    expect(healthy.status).toBe(422);
    expect(healthy.json.message).toBe(
      'configmaps "healthy" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: is exclusively used to delete corrupt object(s), try again by removing this option',
    );
    const unsafe = await send(s, 'DELETE', `${base}/corrupt?ignoreStoreReadErrorWithClusterBreakingPotential=true`);
    expect(unsafe.status).toBe(200);
    expect(unsafe.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'corrupt', kind: 'ConfigMap' }, code: 200 });
    expect(await s.storage.get('/configmaps/default/corrupt')).toBeUndefined();
  });
});
