/**
 * A CRD with two versions converted by a conversion webhook (a real HTTPS server with its own CA), on both stores:
 * v1 (the storage version) has spec.size as a number, v2 has spec.sizeString. Objects are read, listed, watched
 * and written in either version; a webhook that fails or is down is upstream's 500; a Webhook strategy with a
 * bad clientConfig is refused.
 */
import { backends, call as callAt, startCacheServer, until, WatchClient, type CacheServer } from '../watch/harness';
import { closedPort, startWebhookServer, type Review, type WebhookServer } from '../support/webhook-server';

const crdPath = '/apis/apiextensions.svc.io/v1/customresourcedefinitions';
const dials = (version: string, name = '') => `/apis/conv.example.com/${version}/namespaces/conv/dials${name ? `/${name}` : ''}`;

/** The test's conversion webhook: size <-> sizeString, the rest kept. */
function convert(review: Review): unknown {
  const desired = review.request.desiredAPIVersion as string;
  const convertedObjects = (review.request.objects as Array<Record<string, any>>).map((o) => {
    const spec = desired.endsWith('/v2') ? { sizeString: String(o.spec?.size ?? '') } : { size: Number(o.spec?.sizeString ?? 0) };
    return { ...o, apiVersion: desired, spec };
  });
  return { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: { uid: review.request.uid, convertedObjects, result: { status: 'Success' } } };
}

const schema = (spec: Record<string, unknown>) => ({ openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: spec } } } });

function crd(clientConfig: Record<string, unknown>, reviewVersions = ['v1']) {
  return {
    apiVersion: 'apiextensions.svc.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'dials.conv.example.com' },
    spec: {
      group: 'conv.example.com',
      scope: 'Namespaced',
      names: { plural: 'dials', singular: 'dial', kind: 'Dial' },
      conversion: { strategy: 'Webhook', webhook: { clientConfig, conversionReviewVersions: reviewVersions } },
      versions: [
        { name: 'v1', served: true, storage: true, schema: schema({ size: { type: 'integer' } }) },
        { name: 'v2', served: true, storage: false, schema: schema({ sizeString: { type: 'string' } }), selectableFields: [{ jsonPath: '.spec.sizeString' }] },
      ],
    },
  };
}

describe.each(backends)('CRD conversion webhook (%s)', (backend) => {
  let s: CacheServer;
  let hook: WebhookServer;
  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => callAt(s.url, method, path, body, headers);
  const calls = (desired: string) => hook.reviews.filter((r) => r.review.request.desiredAPIVersion === desired).length;

  beforeAll(async () => {
    hook = await startWebhookServer({
      '/convert': convert,
      '/fail': (r) => ({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: { uid: r.request.uid, result: { status: 'Failure', message: 'cannot convert that' } } }),
      '/wrong-uid': (r) => ({ ...(convert(r) as object), response: { ...(convert(r) as { response: object }).response, uid: 'other' } }),
    });
    s = await startCacheServer(backend);
    expect((await call('POST', '/api/v1/namespaces', { metadata: { name: 'conv' } })).status).toBe(201);
    expect((await call('POST', crdPath, crd({ url: hook.url('/convert'), caBundle: hook.caBundle }))).status).toBe(201);
    await until('v2 dials to be served', async () => (await call('GET', dials('v2'))).status === 200, { timeoutMs: 10_000 });
  });
  afterAll(async () => {
    await s?.close();
    await hook?.close();
  });

  test('created in v1, read, listed and watched in v2, updated in v2 and read back in v1', async () => {
    const created = await call('POST', dials('v1'), { apiVersion: 'conv.example.com/v1', kind: 'Dial', metadata: { name: 'a', labels: { app: 'x' } }, spec: { size: 3 } });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ apiVersion: 'conv.example.com/v1', spec: { size: 3 } });

    const before = calls('conv.example.com/v2');
    const got = await call('GET', dials('v2', 'a'));
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({ apiVersion: 'conv.example.com/v2', kind: 'Dial', metadata: { name: 'a', labels: { app: 'x' } }, spec: { sizeString: '3' } });
    expect(got.json.spec.size).toBeUndefined();
    expect(calls('conv.example.com/v2')).toBeGreaterThan(before);
    expect(got.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);

    const list = await call('GET', dials('v2'));
    expect(list.json.items.map((i: any) => [i.apiVersion, i.spec])).toEqual([['conv.example.com/v2', { sizeString: '3' }]]);
    // A v2 field selector matches the converted objects.
    expect((await call('GET', `${dials('v2')}?fieldSelector=spec.sizeString%3D3`)).json.items).toHaveLength(1);
    expect((await call('GET', `${dials('v2')}?fieldSelector=spec.sizeString%3D4`)).json.items).toHaveLength(0);

    const w = await WatchClient.open(s.url, `${dials('v2')}?watch=1&resourceVersion=0`);
    const [added] = await w.waitFor(1);
    expect(added).toMatchObject({ type: 'ADDED', object: { apiVersion: 'conv.example.com/v2', spec: { sizeString: '3' } } });

    const updated = await call('PUT', dials('v2', 'a'), { ...got.json, spec: { sizeString: '5' } });
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({ apiVersion: 'conv.example.com/v2', spec: { sizeString: '5' } });
    const [, modified] = await w.waitFor(2);
    expect(modified).toMatchObject({ type: 'MODIFIED', object: { apiVersion: 'conv.example.com/v2', spec: { sizeString: '5' }, metadata: { resourceVersion: updated.json.metadata.resourceVersion } } });
    w.close();

    const back = await call('GET', dials('v1', 'a'));
    expect(back.json).toMatchObject({ apiVersion: 'conv.example.com/v1', spec: { size: 5 } });

    const patched = await call('PATCH', dials('v2', 'a'), { spec: { sizeString: '7' } }, { 'content-type': 'application/merge-patch+json' });
    expect(patched.status).toBe(200);
    expect(patched.json.spec).toEqual({ sizeString: '7' });
    expect((await call('GET', dials('v1', 'a'))).json.spec).toEqual({ size: 7 });

    const created2 = await call('POST', dials('v2'), { apiVersion: 'conv.example.com/v2', kind: 'Dial', metadata: { name: 'b' }, spec: { sizeString: '9' } });
    expect(created2.status).toBe(201);
    expect(created2.json).toMatchObject({ apiVersion: 'conv.example.com/v2', spec: { sizeString: '9' } });
    expect((await call('GET', dials('v1', 'b'))).json.spec).toEqual({ size: 9 });
    const deleted = await call('DELETE', dials('v2', 'b'));
    expect(deleted.status).toBe(200);
    expect((await call('GET', dials('v2', 'b'))).status).toBe(404);
  });

  test('a webhook that refuses, answers for another request or is down is a 500 with upstream’s reason', async () => {
    const useUrl = async (url: string) => {
      const current = (await call('GET', `${crdPath}/dials.conv.example.com`)).json;
      current.spec.conversion.webhook.clientConfig.url = url;
      expect((await call('PUT', `${crdPath}/dials.conv.example.com`, current)).status).toBe(200);
    };
    const failing = async () => {
      let last: Awaited<ReturnType<typeof call>> | undefined;
      await until('v2 reads to fail', async () => (last = await call('GET', dials('v2', 'a'))).status === 500, { timeoutMs: 10_000 });
      return last!;
    };

    await useUrl(hook.url('/fail'));
    const refused = await failing();
    expect(refused.json).toMatchObject({ kind: 'Status', status: 'Failure', code: 500, message: 'conversion webhook for conv.example.com/v1, Kind=Dial failed: cannot convert that' });
    expect(refused.json.reason).toBeUndefined();

    await useUrl(hook.url('/wrong-uid'));
    await until('the uid check', async () => /expected response\.uid="[^"]+", got "other"/.test((await call('GET', dials('v2', 'a'))).json?.message ?? ''), { timeoutMs: 10_000 });

    const port = await closedPort();
    await useUrl(`https://127.0.0.1:${port}/convert`);
    await until('connection refused', async () => (await call('GET', dials('v2', 'a'))).json?.message?.includes('connect: connection refused'), { timeoutMs: 10_000 });
    const down = await call('GET', dials('v2', 'a'));
    expect(down.status).toBe(500);
    expect(down.json.message).toBe(
      `conversion webhook for conv.example.com/v1, Kind=Dial failed: Post "https://127.0.0.1:${port}/convert?timeout=30s": dial tcp 127.0.0.1:${port}: connect: connection refused`,
    );
    expect((await call('GET', dials('v2'))).status).toBe(500);
    const write = await call('POST', dials('v2'), { apiVersion: 'conv.example.com/v2', kind: 'Dial', metadata: { name: 'c' }, spec: { sizeString: '1' } });
    expect(write.status).toBe(500);
    expect(write.json.message).toMatch(/^conversion webhook for conv\.example\.com\/v2, Kind=Dial failed: Post /);
    // The storage version needs no call.
    expect((await call('GET', dials('v1', 'a'))).status).toBe(200);

    await useUrl(hook.url('/convert'));
    await until('v2 reads to work again', async () => (await call('GET', dials('v2', 'a'))).status === 200, { timeoutMs: 10_000 });
  });

  test('a watch with a v2 field selector sees an object leave and come back as DELETED and ADDED', async () => {
    // The CRD changed in the test before, so its kinds' cache is new: watch from a write made after it loaded.
    const got = (await call('GET', dials('v2', 'a'))).json;
    const current = (await call('PUT', dials('v2', 'a'), { ...got, metadata: { ...got.metadata, labels: { step: '1' } } })).json;
    const w = await WatchClient.open(s.url, `${dials('v2')}?watch=1&fieldSelector=spec.sizeString%3D7&resourceVersion=${current.metadata.resourceVersion}`);
    const away = await call('PUT', dials('v2', 'a'), { ...current, spec: { sizeString: '8' } });
    expect(away.status).toBe(200);
    const back = await call('PUT', dials('v2', 'a'), { ...away.json, spec: { sizeString: '7' } });
    expect(back.status).toBe(200);
    const events = await w.waitFor(2);
    expect(events.map((e) => [e.type, e.object.spec, e.object.metadata.resourceVersion])).toEqual([
      ['DELETED', { sizeString: '7' }, away.json.metadata.resourceVersion],
      ['ADDED', { sizeString: '7' }, back.json.metadata.resourceVersion],
    ]);
    w.close();
  });

  test('strategy Webhook with a bad clientConfig is refused with upstream’s causes', async () => {
    const bad = crd({ url: 'http://user@example.com/convert?x=1#frag' }, ['v3']);
    const res = await call('POST', crdPath, { ...bad, metadata: { name: 'knobs.conv.example.com' }, spec: { ...bad.spec, names: { plural: 'knobs', singular: 'knob', kind: 'Knob' } } });
    expect(res.status).toBe(422);
    expect(res.json.reason).toBe('Invalid');
    const fields = (res.json.details.causes as Array<{ field: string; message: string }>).map((c) => c.field);
    // Upstream validates its internal form, whose paths name webhookClientConfig.
    expect(fields).toEqual(expect.arrayContaining(['spec.conversion.webhookClientConfig.url', 'spec.conversion.conversionReviewVersions']));
    const both = crd({ url: 'https://example.com/convert', service: { namespace: 'conv', name: 'hook' } });
    const res2 = await call('POST', crdPath, { ...both, metadata: { name: 'knobs.conv.example.com' }, spec: { ...both.spec, names: { plural: 'knobs', singular: 'knob', kind: 'Knob' } } });
    expect(res2.status).toBe(422);
    expect(res2.json.details.causes).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'spec.conversion.webhookClientConfig', message: expect.stringContaining('exactly one of url or service is required') })]));
    const none = crd({});
    const res3 = await call('POST', crdPath, { ...none, metadata: { name: 'knobs.conv.example.com' }, spec: { ...none.spec, names: { plural: 'knobs', singular: 'knob', kind: 'Knob' }, conversion: { strategy: 'Webhook' } } });
    expect(res3.status).toBe(422);
    expect(res3.json.details.causes).toEqual([
      { reason: 'FieldValueRequired', message: 'Required value: required when strategy is set to Webhook', field: 'spec.conversion.webhookClientConfig' },
      { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.conversion.conversionReviewVersions' },
    ]);
  });
});
