/**
 * CustomResourceDefinitions over HTTP, on both stores: a CRD created (under apiextensions.svc.io and its
 * apiextensions.k8s.io alias) becomes Established and its kinds are served like the built-in ones: CRUD, selectors,
 * watch, dry run, field validation, finalizers, the status subresource, Table output, discovery, OpenAPI, RBAC;
 * names conflicts, protected groups, and deleting a CRD (Terminating, creates refused, its objects deleted).
 */
import { backends, call as callAt, startCacheServer, until, WatchClient, type CacheServer } from '../watch/harness';
import { startSecureTestServer, type Credentials, type SecureTestServer } from '../support/secure-server';
import { grantClusterRole } from '../support/rbac-grant';

const crdPath = '/apis/apiextensions.svc.io/v1/customresourcedefinitions';
const crdAliasPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const widgets = (ns?: string) => (ns ? `/apis/example.com/v1/namespaces/${ns}/widgets` : '/apis/example.com/v1/widgets');
const gadgets = '/apis/example.com/v1/gadgets';
const tableAccept = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const aggregatedAccept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

/** A CRD of `plural`.example.com with one served version v1, a status subresource, printer columns and a selectable field. */
function crd(plural: string, kind: string, opts: { scope?: 'Namespaced' | 'Cluster'; apiVersion?: string; shortNames?: string[]; group?: string; annotations?: Record<string, string> } = {}) {
  const group = opts.group ?? 'example.com';
  return {
    apiVersion: opts.apiVersion ?? 'apiextensions.svc.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}`, ...(opts.annotations ? { annotations: opts.annotations } : {}) },
    spec: {
      group,
      scope: opts.scope ?? 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind, ...(opts.shortNames ? { shortNames: opts.shortNames } : {}) },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          selectableFields: [{ jsonPath: '.spec.color' }],
          additionalPrinterColumns: [
            { name: 'Color', type: 'string', jsonPath: '.spec.color' },
            { name: 'Size', type: 'integer', jsonPath: '.spec.size', description: 'How big.' },
            { name: 'Ready', type: 'boolean', jsonPath: '.status.ready' },
          ],
          schema: {
            openAPIV3Schema: {
              type: 'object',
              description: `A ${kind}.`,
              properties: {
                spec: {
                  type: 'object',
                  properties: {
                    color: { type: 'string', enum: ['red', 'blue', 'green'], description: 'The color.' },
                    size: { type: 'integer', minimum: 1, default: 3 },
                  },
                },
                status: { type: 'object', properties: { ready: { type: 'boolean' } } },
              },
            },
          },
        },
      ],
    },
  };
}

const widget = (name: string, spec: Record<string, unknown> = { color: 'red' }, metadata: Record<string, unknown> = {}) => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name, ...metadata },
  spec,
});

const names = (list: { items: Array<{ metadata: { name: string } }> }) => list.items.map((i) => i.metadata.name);

describe.each(backends)('custom resources over HTTP (%s)', (backend) => {
  let s: CacheServer;
  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => callAt(s.url, method, path, body, headers);
  /** POSTs a body given as raw text (duplicate fields). */
  const postRaw = async (path: string, text: string, contentType = 'application/json') => {
    const res = await fetch(s.url + path, { method: 'POST', headers: { 'content-type': contentType }, body: text });
    const body = await res.text();
    return { status: res.status, headers: res.headers, json: JSON.parse(body) };
  };
  const conditions = async (name: string) => {
    const got = await call('GET', `${crdPath}/${name}`);
    return Object.fromEntries(((got.json?.status?.conditions ?? []) as Array<{ type: string; status: string; reason: string; message: string }>).map((c) => [c.type, c]));
  };
  /** Waits until the CRD is Established and its collection is served. */
  const established = async (name: string, collection: string) => {
    await until(`${name} to be Established`, async () => (await conditions(name)).Established?.status === 'True', { timeoutMs: 10_000 });
    await until(`${collection} to be served`, async () => (await call('GET', collection)).status === 200, { timeoutMs: 10_000 });
  };
  const gone = async (name: string, collection: string) => {
    await until(`${name} to be deleted`, async () => (await call('GET', `${crdPath}/${name}`)).status === 404, { timeoutMs: 15_000 });
    await until(`${collection} to be withdrawn`, async () => (await call('GET', collection)).status === 404, { timeoutMs: 10_000 });
  };

  beforeAll(async () => {
    s = await startCacheServer(backend, { watchStream: { bookmarkIntervalMs: 300 } });
    for (const ns of ['crs-a', 'crs-b', 'crs-t']) expect((await call('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
  });
  afterAll(async () => {
    await s.close();
  });

  test('a CRD created under apiextensions.svc.io becomes Established, with its names accepted', async () => {
    const created = await call('POST', crdPath, crd('widgets', 'Widget', { shortNames: ['wd'] }));
    expect(created.status).toBe(201);
    expect(created.json.apiVersion).toBe('apiextensions.svc.io/v1');
    // The cleanup finalizer comes with the delete, as upstream's CRD storage adds it.
    expect(created.json.metadata.finalizers).toBeUndefined();
    await established('widgets.example.com', widgets());
    const got = (await call('GET', `${crdPath}/widgets.example.com`)).json;
    expect(got.status.acceptedNames).toEqual({ plural: 'widgets', singular: 'widget', shortNames: ['wd'], kind: 'Widget', listKind: 'WidgetList' });
    expect(got.status.storedVersions).toEqual(['v1']);
    const c = await conditions('widgets.example.com');
    expect(c.NamesAccepted).toMatchObject({ status: 'True', reason: 'NoConflicts', message: 'no conflicts found' });
    expect(c.Established).toMatchObject({ status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' });
  });

  test('a cluster-scoped CRD created under the apiextensions.k8s.io alias', async () => {
    const created = await call('POST', crdAliasPath, crd('gadgets', 'Gadget', { scope: 'Cluster', apiVersion: 'apiextensions.k8s.io/v1' }));
    expect(created.status).toBe(201);
    expect(created.json.apiVersion).toBe('apiextensions.k8s.io/v1');
    await established('gadgets.example.com', gadgets);
    const viaAlias = await call('GET', `${crdAliasPath}/gadgets.example.com`);
    expect(viaAlias.json).toMatchObject({ apiVersion: 'apiextensions.k8s.io/v1', spec: { scope: 'Cluster' } });
    const list = await call('GET', crdAliasPath);
    expect(list.json.kind).toBe('CustomResourceDefinitionList');
    expect(names(list.json)).toEqual(['gadgets.example.com', 'widgets.example.com']);
  });

  test('namespaced custom resources: create, get, list, replace, patch, delete', async () => {
    const created = await call('POST', widgets('crs-a'), widget('w1', { color: 'red' }));
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', namespace: 'crs-a', generation: 1 }, spec: { color: 'red', size: 3 } });
    expect(created.json.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect((await call('GET', `${widgets('crs-a')}/w1`)).json).toEqual(created.json);

    // The namespace in the path wins over none in the body; another in the body is refused.
    const mismatch = await call('POST', widgets('crs-a'), widget('w-other', { color: 'red' }, { namespace: 'crs-b' }));
    expect(mismatch.status).toBe(400);
    expect(mismatch.json.message).toBe('the namespace of the provided object does not match the namespace sent on the request');

    const replaced = await call('PUT', `${widgets('crs-a')}/w1`, { ...created.json, spec: { color: 'blue', size: 5 } });
    expect(replaced.status).toBe(200);
    expect(replaced.json.metadata.generation).toBe(2);
    const stale = await call('PUT', `${widgets('crs-a')}/w1`, { ...created.json, spec: { color: 'green' } });
    expect(stale.status).toBe(409);
    expect(stale.json).toMatchObject({
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on widgets.example.com "w1": the object has been modified; please apply your changes to the latest version and try again',
      details: { name: 'w1', group: 'example.com', kind: 'widgets' },
    });

    const merged = await call('PATCH', `${widgets('crs-a')}/w1`, { metadata: { labels: { tier: 'gold' } }, spec: { color: 'green' } }, { 'content-type': 'application/merge-patch+json' });
    expect(merged.status).toBe(200);
    expect(merged.json).toMatchObject({ metadata: { labels: { tier: 'gold' }, generation: 3 }, spec: { color: 'green', size: 5 } });
    const jsonPatched = await call('PATCH', `${widgets('crs-a')}/w1`, [{ op: 'replace', path: '/spec/size', value: 9 }], { 'content-type': 'application/json-patch+json' });
    expect(jsonPatched.json.spec).toEqual({ color: 'green', size: 9 });
    // Custom resources have no strategic merge patch (upstream answers 415).
    const strategic = await call('PATCH', `${widgets('crs-a')}/w1`, { spec: { size: 2 } }, { 'content-type': 'application/strategic-merge-patch+json' });
    expect(strategic.status).toBe(415);

    const invalid = await call('PUT', `${widgets('crs-a')}/w1`, { ...jsonPatched.json, spec: { color: 'purple', size: 0 } });
    expect(invalid.status).toBe(422);
    expect(invalid.json).toMatchObject({ reason: 'Invalid', details: { name: 'w1', group: 'example.com', kind: 'Widget' } });
    expect(invalid.json.message).toBe(
      'Widget.example.com "w1" is invalid: [spec.color: Unsupported value: "purple": supported values: "red", "blue", "green", spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1]',
    );

    expect((await call('POST', widgets('crs-b'), widget('w2', { color: 'blue' }))).status).toBe(201);
    const all = await call('GET', widgets());
    expect(all.json).toMatchObject({ apiVersion: 'example.com/v1', kind: 'WidgetList' });
    expect(all.json.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`)).toEqual(['crs-a/w1', 'crs-b/w2']);
    expect(names((await call('GET', widgets('crs-b'))).json)).toEqual(['w2']);

    const deleted = await call('DELETE', `${widgets('crs-b')}/w2`);
    expect(deleted.status).toBe(200);
    expect(deleted.json).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'w2', group: 'example.com', kind: 'widgets' } });
    const missing = await call('GET', `${widgets('crs-b')}/w2`);
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ reason: 'NotFound', message: 'widgets.example.com "w2" not found', details: { name: 'w2', group: 'example.com', kind: 'widgets' } });
  });

  test('cluster-scoped custom resources: no namespace, and no namespaced path', async () => {
    const created = await call('POST', gadgets, { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g1' }, spec: { color: 'blue' } });
    expect(created.status).toBe(201);
    expect(created.json.metadata.namespace).toBeUndefined();
    expect(created.json.spec).toEqual({ color: 'blue', size: 3 });
    expect((await call('GET', `${gadgets}/g1`)).json).toEqual(created.json);
    expect((await call('GET', '/apis/example.com/v1/namespaces/crs-a/gadgets')).status).toBe(404);
    const patched = await call('PATCH', `${gadgets}/g1`, { spec: { size: 4 } }, { 'content-type': 'application/merge-patch+json' });
    expect(patched.json.spec).toEqual({ color: 'blue', size: 4 });
    expect(names((await call('GET', gadgets)).json)).toEqual(['g1']);
    // metadata.namespace is no field of a cluster-scoped kind.
    const byNamespace = await call('GET', `${gadgets}?fieldSelector=metadata.namespace%3Dcrs-a`);
    expect(byNamespace.status).toBe(400);
    expect(byNamespace.json.message).toBe('field label not supported: metadata.namespace');
    expect((await call('DELETE', `${gadgets}/g1`)).status).toBe(200);
    expect((await call('GET', `${gadgets}/g1`)).status).toBe(404);
  });

  test('lists with label and field selectors (metadata.name, metadata.namespace, selectable fields)', async () => {
    await call('POST', widgets('crs-a'), widget('sel-red', { color: 'red' }, { labels: { sel: 'yes', tone: 'warm' } }));
    await call('POST', widgets('crs-b'), widget('sel-blue', { color: 'blue' }, { labels: { sel: 'yes', tone: 'cool' } }));
    await call('POST', widgets('crs-b'), widget('sel-none', {}, { labels: { sel: 'yes' } }));
    const q = (query: string) => call('GET', `${widgets()}?${query}`);
    expect(names((await q('labelSelector=sel%3Dyes')).json)).toEqual(['sel-red', 'sel-blue', 'sel-none']);
    expect(names((await q('labelSelector=sel%3Dyes,tone%20in%20(cool)')).json)).toEqual(['sel-blue']);
    expect(names((await q('labelSelector=sel%3Dyes,!tone')).json)).toEqual(['sel-none']);
    expect(names((await q('fieldSelector=metadata.name%3Dsel-red')).json)).toEqual(['sel-red']);
    expect(names((await q('labelSelector=sel&fieldSelector=metadata.namespace%3Dcrs-b')).json)).toEqual(['sel-blue', 'sel-none']);
    expect(names((await q('labelSelector=sel&fieldSelector=spec.color%3Dblue')).json)).toEqual(['sel-blue']);
    expect(names((await q('labelSelector=sel&fieldSelector=spec.color!%3Dblue')).json)).toEqual(['sel-red', 'sel-none']);
    // A missing field selects as the empty value.
    expect(names((await q('labelSelector=sel&fieldSelector=spec.color%3D')).json)).toEqual(['sel-none']);
    expect(names((await call('GET', `${widgets('crs-b')}?labelSelector=sel&fieldSelector=spec.color%3Dblue`)).json)).toEqual(['sel-blue']);
    const unknown = await q('fieldSelector=spec.size%3D3');
    expect(unknown.status).toBe(400);
    expect(unknown.json).toMatchObject({ reason: 'BadRequest', message: 'field label not supported: spec.size' });
    for (const n of ['sel-red']) await call('DELETE', `${widgets('crs-a')}/${n}`);
    for (const n of ['sel-blue', 'sel-none']) await call('DELETE', `${widgets('crs-b')}/${n}`);
  });

  test('a watch sees every change in order, with bookmarks, and field selectors on selectable fields', async () => {
    const list = await call('GET', widgets('crs-b'));
    const rv = list.json.metadata.resourceVersion;
    const w = await WatchClient.open(s.url, `${widgets('crs-b')}?watch=1&resourceVersion=${rv}&allowWatchBookmarks=true`);
    const blue = await WatchClient.open(s.url, `${widgets('crs-b')}?watch=1&resourceVersion=${rv}&fieldSelector=spec.color%3Dblue`);
    try {
      const a = (await call('POST', widgets('crs-b'), widget('watched', { color: 'red' }))).json;
      const a2 = (await call('PATCH', `${widgets('crs-b')}/watched`, { spec: { color: 'blue' } }, { 'content-type': 'application/merge-patch+json' })).json;
      const a3 = (await call('PATCH', `${widgets('crs-b')}/watched`, { spec: { size: 8 } }, { 'content-type': 'application/merge-patch+json' })).json;
      await call('DELETE', `${widgets('crs-b')}/watched`);
      await until(`4 events (${w.summary().join(', ')})`, () => w.events.filter((e) => e.type !== 'BOOKMARK').length >= 4);
      const changes = w.events.filter((e) => e.type !== 'BOOKMARK');
      expect(changes.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'MODIFIED', 'DELETED']);
      expect(changes.slice(0, 3).map((e) => e.object)).toEqual([a, a2, a3]);
      expect(changes[3].object.metadata.name).toBe('watched');
      // Entering and leaving a field selector's set is seen as ADDED and DELETED.
      const selected = await blue.waitFor(3);
      expect(selected.map((e) => [e.type, e.object.spec.color])).toEqual([
        ['ADDED', 'blue'],
        ['MODIFIED', 'blue'],
        ['DELETED', 'blue'],
      ]);
      const last = Number(changes[3].object.metadata.resourceVersion);
      await until('a bookmark after the delete', () => w.events.some((e) => e.type === 'BOOKMARK' && Number(e.object.metadata.resourceVersion) >= last), { timeoutMs: 5000 });
      const bookmark = w.events.find((e) => e.type === 'BOOKMARK')!;
      expect(bookmark.object).toMatchObject({ apiVersion: 'example.com/v1', kind: 'Widget' });
    } finally {
      w.close();
      blue.close();
    }
  });

  test('dry run writes nothing', async () => {
    const dry = await call('POST', `${widgets('crs-a')}?dryRun=All`, widget('dry', { color: 'blue' }));
    expect(dry.status).toBe(201);
    expect(dry.json).toMatchObject({ metadata: { name: 'dry', namespace: 'crs-a' }, spec: { color: 'blue', size: 3 } });
    expect((await call('GET', `${widgets('crs-a')}/dry`)).status).toBe(404);
    const real = (await call('POST', widgets('crs-a'), widget('dry', { color: 'blue' }))).json;
    const dryPut = await call('PUT', `${widgets('crs-a')}/dry?dryRun=All`, { ...real, spec: { color: 'red' } });
    expect(dryPut.status).toBe(200);
    expect(dryPut.json.spec.color).toBe('red');
    const dryPatch = await call('PATCH', `${widgets('crs-a')}/dry?dryRun=All`, { spec: { size: 7 } }, { 'content-type': 'application/merge-patch+json' });
    expect(dryPatch.json.spec.size).toBe(7);
    const dryDelete = await call('DELETE', `${widgets('crs-a')}/dry?dryRun=All`);
    expect(dryDelete.status).toBe(200);
    expect((await call('GET', `${widgets('crs-a')}/dry`)).json).toEqual(real);
    expect((await call('DELETE', `${widgets('crs-a')}/dry`)).status).toBe(200);
  });

  test('field validation: Strict refuses, Warn warns, Ignore drops unknown and duplicate fields', async () => {
    const body = (name: string) =>
      `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"${name}","ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"o","uid":"u1","extra":1}],"unknownMeta":"x"},"spec":{"color":"red","color":"blue","shape":"round"}}`;
    const strict = await postRaw(`${widgets('crs-a')}?fieldValidation=Strict`, body('strict'));
    expect(strict.status).toBe(400);
    expect(strict.json).toMatchObject({
      reason: 'BadRequest',
      message: 'Widget in version "v1" cannot be handled as a Widget: strict decoding error: duplicate field "spec.color", unknown field "metadata.ownerReferences[0].extra", unknown field "metadata.unknownMeta", unknown field "spec.shape"',
    });
    expect((await call('GET', `${widgets('crs-a')}/strict`)).status).toBe(404);

    const warn = await postRaw(`${widgets('crs-a')}?fieldValidation=Warn`, body('warn'));
    expect(warn.status).toBe(201);
    expect(warn.headers.get('warning')).toBe(
      '299 - "duplicate field \\"spec.color\\"", 299 - "unknown field \\"metadata.ownerReferences[0].extra\\"", 299 - "unknown field \\"metadata.unknownMeta\\"", 299 - "unknown field \\"spec.shape\\""',
    );
    // The last of duplicate fields wins; unknown fields are pruned.
    expect(warn.json.spec).toEqual({ color: 'blue', size: 3 });
    expect(warn.json.metadata.unknownMeta).toBeUndefined();
    expect(warn.json.metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: 'u1' }]);
    expect((await call('GET', `${widgets('crs-a')}/warn`)).json.metadata).toEqual(warn.json.metadata);
    // Warn is the default.
    const byDefault = await postRaw(widgets('crs-a'), body('default'));
    expect(byDefault.status).toBe(201);
    expect(byDefault.headers.get('warning')).toBe(warn.headers.get('warning'));

    const ignore = await postRaw(`${widgets('crs-a')}?fieldValidation=Ignore`, body('ignore'));
    expect(ignore.status).toBe(201);
    expect(ignore.headers.get('warning')).toBeNull();
    expect(ignore.json.spec).toEqual({ color: 'blue', size: 3 });

    // The same on updates and patches.
    const put = await call('PUT', `${widgets('crs-a')}/ignore?fieldValidation=Strict`, { ...ignore.json, spec: { color: 'red', bogus: 1 } });
    expect(put.status).toBe(400);
    expect(put.json.message).toBe('Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.bogus"');
    const patch = await call('PATCH', `${widgets('crs-a')}/ignore?fieldValidation=Strict`, { spec: { bogus: 1 } }, { 'content-type': 'application/merge-patch+json' });
    expect(patch.status).toBe(422);
    expect(patch.json.message).toMatch(/strict decoding error: unknown field "spec.bogus"$/);
    const patchWarn = await call('PATCH', `${widgets('crs-a')}/ignore`, { spec: { bogus: 1 } }, { 'content-type': 'application/merge-patch+json' });
    expect(patchWarn.status).toBe(200);
    expect(patchWarn.headers.get('warning')).toBe('299 - "unknown field \\"spec.bogus\\""');

    // metadata is read as ObjectMeta: a value of the wrong type is a 400, as upstream's decoder answers.
    const badMeta = await call('POST', widgets('crs-a'), widget('bad-meta', { color: 'red' }, { labels: { a: 5 } }));
    expect(badMeta.status).toBe(400);
    expect(badMeta.json.message).toMatch(/^Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal number into Go struct field ObjectMeta\.labels/);

    for (const n of ['warn', 'default', 'ignore']) await call('DELETE', `${widgets('crs-a')}/${n}`);
  });

  test('finalizers: a delete waits for them', async () => {
    const created = (await call('POST', widgets('crs-a'), widget('held', { color: 'red' }, { finalizers: ['example.com/hold'] }))).json;
    const w = await WatchClient.open(s.url, `${widgets('crs-a')}?watch=1&resourceVersion=${created.metadata.resourceVersion}&fieldSelector=metadata.name%3Dheld`);
    try {
      const deleting = await call('DELETE', `${widgets('crs-a')}/held`);
      expect(deleting.status).toBe(200);
      expect(deleting.json).toMatchObject({ kind: 'Widget', metadata: { name: 'held', finalizers: ['example.com/hold'], deletionGracePeriodSeconds: 0 } });
      expect(deleting.json.metadata.deletionTimestamp).toMatch(/Z$/);
      const still = await call('GET', `${widgets('crs-a')}/held`);
      expect(still.status).toBe(200);
      // No new finalizer once deleting; spec changes are still allowed.
      const more = await call('PATCH', `${widgets('crs-a')}/held`, { metadata: { finalizers: ['example.com/hold', 'example.com/other'] } }, { 'content-type': 'application/merge-patch+json' });
      expect(more.status).toBe(422);
      expect(more.json.message).toContain('metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted');
      const released = await call('PATCH', `${widgets('crs-a')}/held`, { metadata: { finalizers: null } }, { 'content-type': 'application/merge-patch+json' });
      expect(released.status).toBe(200);
      expect((await call('GET', `${widgets('crs-a')}/held`)).status).toBe(404);
      const events = await w.waitFor(2);
      expect(events.map((e) => e.type)).toEqual(['MODIFIED', 'DELETED']);
    } finally {
      w.close();
    }
  });

  test('status subresource: spec writes keep status, status writes keep spec and metadata', async () => {
    const path = `${widgets('crs-a')}/st`;
    // Status in a create is dropped: it is written through the subresource only.
    const created = (await call('POST', widgets('crs-a'), { ...widget('st', { color: 'red' }), status: { ready: true } })).json;
    expect(created.status).toBeUndefined();
    const status = await call('PUT', `${path}/status`, { ...created, metadata: { ...created.metadata, labels: { sneaky: 'yes' } }, spec: { color: 'blue' }, status: { ready: true } });
    expect(status.status).toBe(200);
    expect(status.json.status).toEqual({ ready: true });
    expect(status.json.spec).toEqual({ color: 'red', size: 3 });
    expect(status.json.metadata.labels).toBeUndefined();
    expect(status.json.metadata.generation).toBe(1);
    const gotStatus = await call('GET', `${path}/status`);
    expect(gotStatus.json).toEqual(status.json);

    const spec = await call('PUT', path, { ...status.json, spec: { color: 'green', size: 2 }, status: { ready: false } });
    expect(spec.status).toBe(200);
    expect(spec.json.spec).toEqual({ color: 'green', size: 2 });
    expect(spec.json.status).toEqual({ ready: true });
    expect(spec.json.metadata.generation).toBe(2);

    const patched = await call('PATCH', `${path}/status`, { status: { ready: false }, spec: { color: 'red' } }, { 'content-type': 'application/merge-patch+json' });
    expect(patched.json).toMatchObject({ spec: { color: 'green', size: 2 }, status: { ready: false }, metadata: { generation: 2 } });
    const invalid = await call('PATCH', `${path}/status`, { status: { ready: 'maybe' } }, { 'content-type': 'application/merge-patch+json' });
    expect(invalid.status).toBe(422);
    // The status schema validates the status value (upstream's statusSchemaValidator): its own paths in the detail.
    expect(invalid.json.message).toBe('Widget.example.com "st" is invalid: status.ready: Invalid value: "string": ready in body must be of type boolean: "string"');
    // The status subresource is for an existing object only.
    expect((await call('PUT', `${widgets('crs-a')}/nothing/status`, { ...widget('nothing'), status: { ready: true } })).status).toBe(404);
    expect((await call('DELETE', path)).status).toBe(200);
  });

  test('Table output from the printer columns', async () => {
    await call('POST', widgets('crs-t'), widget('t1', { color: 'blue', size: 4 }));
    const t2 = (await call('POST', widgets('crs-t'), widget('t2', { color: 'red' }))).json;
    await call('PATCH', `${widgets('crs-t')}/t2/status`, { status: { ready: true } }, { 'content-type': 'application/merge-patch+json' });
    const table = await call('GET', widgets('crs-t'), undefined, { accept: tableAccept });
    expect(table.status).toBe(200);
    expect(table.json).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
    expect(table.json.columnDefinitions.map((c: any) => [c.name, c.type])).toEqual([
      ['Name', 'string'],
      ['Color', 'string'],
      ['Size', 'integer'],
      ['Ready', 'boolean'],
    ]);
    expect(table.json.columnDefinitions[2].description).toBe('How big.');
    expect(table.json.rows.map((r: any) => r.cells)).toEqual([
      ['t1', 'blue', 4, null],
      ['t2', 'red', 3, true],
    ]);
    expect(table.json.rows[0].object).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { name: 't1' } });
    const one = await call('GET', `${widgets('crs-t')}/t2`, undefined, { accept: tableAccept });
    expect(one.json.rows.map((r: any) => r.cells)).toEqual([['t2', 'red', 3, true]]);
    expect(one.json.metadata.resourceVersion).toBeDefined();
    expect(one.json.rows[0].object.metadata.uid).toBe(t2.metadata.uid);
    for (const n of ['t1', 't2']) await call('DELETE', `${widgets('crs-t')}/${n}`);
  });

  test('discovery, legacy and aggregated, shows the kinds', async () => {
    const groups = await call('GET', '/apis');
    expect(groups.json.groups.find((g: any) => g.name === 'example.com')).toEqual({
      name: 'example.com',
      versions: [{ groupVersion: 'example.com/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'example.com/v1', version: 'v1' },
    });
    const group = await call('GET', '/apis/example.com');
    expect(group.json).toMatchObject({ kind: 'APIGroup', name: 'example.com', preferredVersion: { groupVersion: 'example.com/v1' } });
    const legacy = await call('GET', '/apis/example.com/v1');
    expect(legacy.json).toMatchObject({ kind: 'APIResourceList', groupVersion: 'example.com/v1' });
    const byName = Object.fromEntries(legacy.json.resources.map((r: any) => [r.name, r]));
    expect(Object.keys(byName).sort()).toEqual(['gadgets', 'gadgets/status', 'widgets', 'widgets/status']);
    expect(byName.widgets).toMatchObject({ singularName: 'widget', namespaced: true, kind: 'Widget', shortNames: ['wd'] });
    expect(byName.widgets.verbs.sort()).toEqual(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    expect(byName['widgets/status']).toMatchObject({ namespaced: true, kind: 'Widget', verbs: ['get', 'patch', 'update'] });
    expect(byName.gadgets).toMatchObject({ namespaced: false, kind: 'Gadget' });

    const aggregated = await call('GET', '/apis', undefined, { accept: aggregatedAccept });
    expect(aggregated.status).toBe(200);
    expect(aggregated.headers.get('content-type')).toContain('as=APIGroupDiscoveryList');
    const item = aggregated.json.items.find((g: any) => g.metadata.name === 'example.com');
    expect(item.versions.map((v: any) => v.version)).toEqual(['v1']);
    const resources = Object.fromEntries(item.versions[0].resources.map((r: any) => [r.resource, r]));
    expect(resources.widgets).toMatchObject({
      resource: 'widgets',
      responseKind: { group: 'example.com', version: 'v1', kind: 'Widget' },
      scope: 'Namespaced',
      singularResource: 'widget',
      shortNames: ['wd'],
      subresources: [{ subresource: 'status', responseKind: { group: 'example.com', version: 'v1', kind: 'Widget' }, verbs: ['get', 'patch', 'update'] }],
    });
    expect(resources.gadgets).toMatchObject({ scope: 'Cluster', responseKind: { kind: 'Gadget' } });
  });

  test('OpenAPI v3 publishes the schema', async () => {
    const index = await call('GET', '/openapi/v3');
    expect(Object.keys(index.json.paths)).toEqual(expect.arrayContaining(['apis/example.com/v1']));
    const doc = await call('GET', '/openapi/v3/apis/example.com/v1');
    expect(doc.status).toBe(200);
    const schema = doc.json.components.schemas['com.example.v1.Widget'];
    expect(schema).toMatchObject({
      type: 'object',
      description: 'A Widget.',
      'x-kubernetes-group-version-kind': [{ group: 'example.com', version: 'v1', kind: 'Widget' }],
    });
    expect(schema.properties.spec.properties.color).toMatchObject({ type: 'string', enum: ['red', 'blue', 'green'], description: 'The color.' });
    expect(schema.properties.spec.properties.size).toMatchObject({ type: 'integer', minimum: 1, default: 3 });
    expect(schema.properties.metadata.$ref).toMatch(/^#\/components\/schemas\/.*ObjectMeta/);
    expect(doc.json.components.schemas['com.example.v1.WidgetList']).toBeDefined();
    expect(Object.keys(doc.json.paths)).toEqual(expect.arrayContaining(['/apis/example.com/v1/namespaces/{namespace}/widgets/{name}', '/apis/example.com/v1/gadgets/{name}/status']));
  });

  test('NamesAccepted=False for a plural already in use, and that CRD is not served', async () => {
    // "wd" is the short name of widgets.example.com.
    const created = await call('POST', crdPath, crd('wd', 'WidgetDup'));
    expect(created.status).toBe(201);
    await until('the names decision', async () => (await conditions('wd.example.com')).NamesAccepted !== undefined, { timeoutMs: 10_000 });
    const c = await conditions('wd.example.com');
    expect(c.NamesAccepted).toMatchObject({ status: 'False', reason: 'PluralConflict', message: '"wd" is already in use' });
    expect(c.Established).toMatchObject({ status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' });
    const got = (await call('GET', `${crdPath}/wd.example.com`)).json;
    // The names that are free are accepted; plural has no omitempty in Go.
    expect(got.status.acceptedNames).toEqual({ plural: '', singular: 'widgetdup', kind: 'WidgetDup', listKind: 'WidgetDupList' });
    expect((await call('GET', '/apis/example.com/v1/wd')).status).toBe(404);
    const legacy = await call('GET', '/apis/example.com/v1');
    expect(legacy.json.resources.map((r: any) => r.name)).not.toContain('wd');
    expect(legacy.json.resources.map((r: any) => r.kind)).not.toContain('WidgetDup');
    expect((await call('DELETE', `${crdPath}/wd.example.com`)).status).toBe(200);
    await until('the refused CRD to go', async () => (await call('GET', `${crdPath}/wd.example.com`)).status === 404, { timeoutMs: 10_000 });
  });

  test('a protected group needs the api-approved.kubernetes.io annotation', async () => {
    const refused = await call('POST', crdPath, crd('things', 'Thing', { group: 'things.k8s.io' }));
    expect(refused.status).toBe(422);
    expect(refused.json).toMatchObject({
      reason: 'Invalid',
      message:
        'CustomResourceDefinition.apiextensions.svc.io "things.things.k8s.io" is invalid: metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
    });
    const approved = await call('POST', crdPath, crd('things', 'Thing', { group: 'things.k8s.io', annotations: { 'api-approved.kubernetes.io': 'https://github.com/kubernetes/enhancements/pull/1111' } }));
    expect(approved.status).toBe(201);
    await established('things.things.k8s.io', '/apis/things.k8s.io/v1/things');
    expect((await call('DELETE', `${crdPath}/things.things.k8s.io`)).status).toBe(200);
    await gone('things.things.k8s.io', '/apis/things.k8s.io/v1/things');
  });

  test('a CRD held in Terminating by a custom resource refuses creates; deleting it deletes its objects and withdraws the kind', async () => {
    await call('POST', widgets('crs-a'), widget('keep-1'));
    await call('POST', widgets('crs-b'), widget('keep-2', { color: 'blue' }));
    const held = (await call('POST', widgets('crs-a'), widget('held-crd', { color: 'red' }, { finalizers: ['example.com/hold'] }))).json;
    expect(held.metadata.finalizers).toEqual(['example.com/hold']);
    // A watch open across the CRD's deletion sees its objects go (the kind stays served while Terminating), then ends.
    const w = await WatchClient.open(s.url, `${widgets()}?watch=1&resourceVersion=${held.metadata.resourceVersion}`);

    const deleting = await call('DELETE', `${crdPath}/widgets.example.com`);
    expect(deleting.status).toBe(200);
    expect(deleting.json.metadata.deletionTimestamp).toBeDefined();
    expect(deleting.json.metadata.finalizers).toEqual(['customresourcecleanup.apiextensions.k8s.io']);
    expect(deleting.json.status.conditions.find((c: any) => c.type === 'Terminating')).toMatchObject({
      status: 'True',
      reason: 'InstanceDeletionPending',
      message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
    });
    await until('the cleanup to begin', async () => (await conditions('widgets.example.com')).Terminating?.reason === 'InstanceDeletionInProgress', { timeoutMs: 10_000 });
    expect((await conditions('widgets.example.com')).Terminating).toMatchObject({ status: 'True', message: 'CustomResource deletion is in progress' });
    // Objects without finalizers go; the held one stays, marked for deletion, and so does the CRD.
    await until('the objects without finalizers to go', async () => names((await call('GET', widgets())).json).join() === 'held-crd', { timeoutMs: 10_000 });
    expect((await call('GET', `${widgets('crs-a')}/held-crd`)).json.metadata.deletionTimestamp).toBeDefined();
    expect((await call('GET', `${crdPath}/widgets.example.com`)).status).toBe(200);

    // Creates are refused once the kind is served as terminating (dry run, to write nothing meanwhile).
    await until('creates to be refused', async () => (await call('POST', `${widgets('crs-a')}?dryRun=All`, widget('probe'))).status === 405, { timeoutMs: 10_000 });
    const refused = await call('POST', widgets('crs-a'), widget('late'));
    expect(refused.status).toBe(405);
    expect(refused.json).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'MethodNotAllowed',
      code: 405,
      message: 'create is not supported on resources of kind "widgets.example.com"',
      details: { group: 'example.com', kind: 'widgets' },
    });
    // Reads and updates of what is left still work.
    const released = await call('PATCH', `${widgets('crs-a')}/held-crd`, { metadata: { finalizers: null } }, { 'content-type': 'application/merge-patch+json' });
    expect(released.status).toBe(200);

    await gone('widgets.example.com', widgets());
    await w.waitEnd(10_000);
    // The cleanup deletes in key order (w1 is left from the CRUD test); the held one goes once released.
    expect(w.summary().map((e) => e.split(' ').slice(0, 2).join(' '))).toEqual(['MODIFIED held-crd', 'DELETED keep-1', 'DELETED w1', 'DELETED keep-2', 'DELETED held-crd']);
    const left = await s.storage.range('/example.com/widgets/');
    expect(left.count).toBe(0);
    const legacy = await call('GET', '/apis/example.com/v1');
    expect(legacy.json.resources.map((r: any) => r.name).sort()).toEqual(['gadgets', 'gadgets/status']);
    const aggregated = await call('GET', '/apis', undefined, { accept: aggregatedAccept });
    const item = aggregated.json.items.find((g: any) => g.metadata.name === 'example.com');
    expect(item.versions[0].resources.map((r: any) => r.resource)).toEqual(['gadgets']);
    expect(Object.keys((await call('GET', '/openapi/v3/apis/example.com/v1')).json.components.schemas)).not.toContain('com.example.v1.Widget');

    // The last CRD of the group gone, the group goes too.
    expect((await call('DELETE', `${crdPath}/gadgets.example.com`)).status).toBe(200);
    await gone('gadgets.example.com', gadgets);
    expect((await call('GET', '/apis/example.com/v1')).status).toBe(404);
    expect((await call('GET', '/apis')).json.groups.map((g: any) => g.name)).not.toContain('example.com');
    const after = await call('GET', '/apis', undefined, { accept: aggregatedAccept });
    expect(after.json.items.map((g: any) => g.metadata.name)).not.toContain('example.com');
  }, 30_000);
});

describe.each(backends)('RBAC on custom resources over HTTPS (%s)', (backend) => {
  let s: SecureTestServer;
  let admin: Credentials;
  let alice: Credentials;
  beforeAll(async () => {
    s = await startSecureTestServer(backend);
    admin = await s.clientCert('system:admin', ['system:masters']);
    alice = await s.clientCert('alice');
  });
  afterAll(async () => {
    await s.close();
  });

  test('a user bound to get widgets in example.com can read them, not write or list them', async () => {
    expect((await s.call('POST', crdPath, admin, crd('widgets', 'Widget'))).status).toBe(201);
    await until('widgets to be served', async () => (await s.call('GET', widgets('default'), admin)).status === 200, { timeoutMs: 10_000 });
    const created = await s.call('POST', widgets('default'), admin, widget('guarded'));
    expect(created.status).toBe(201);

    const before = await s.call('GET', `${widgets('default')}/guarded`, alice);
    expect(before.status).toBe(403);
    expect(before.json.message).toBe('widgets.example.com "guarded" is forbidden: User "alice" cannot get resource "widgets" in API group "example.com" in the namespace "default"');

    await grantClusterRole(s, admin, 'widget-reader', [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get'] }], 'alice');
    const got = await s.call('GET', `${widgets('default')}/guarded`, alice);
    expect(got.status).toBe(200);
    expect(got.json.spec).toEqual({ color: 'red', size: 3 });

    const create = await s.call('POST', widgets('default'), alice, widget('mine'));
    expect(create.status).toBe(403);
    expect(create.json).toMatchObject({
      reason: 'Forbidden',
      message: 'widgets.example.com is forbidden: User "alice" cannot create resource "widgets" in API group "example.com" in the namespace "default"',
      details: { group: 'example.com', kind: 'widgets' },
    });
    const update = await s.call('PUT', `${widgets('default')}/guarded`, alice, { ...got.json, spec: { color: 'blue' } });
    expect(update.status).toBe(403);
    const status = await s.call('PUT', `${widgets('default')}/guarded/status`, alice, { ...got.json, status: { ready: true } });
    expect(status.status).toBe(403);
    expect(status.json.message).toBe('widgets.example.com "guarded" is forbidden: User "alice" cannot update resource "widgets/status" in API group "example.com" in the namespace "default"');
    const list = await s.call('GET', widgets('default'), alice);
    expect(list.status).toBe(403);
    const del = await s.call('DELETE', `${widgets('default')}/guarded`, alice);
    expect(del.status).toBe(403);
    expect((await s.call('GET', `${widgets('default')}/guarded`, admin)).status).toBe(200);
  });
});
