/** The conversion webhook's answer checks, as upstream's webhookConverter makes them, over a fake WebhookPort. */
import { checkConverted, convertedObjectsOf, reviewVersionOf, webhookConverter } from '../../../src/resources/custom-resource/custom-resource.conversion';
import type { ServedVersion } from '../../../src/resources/custom-resource/custom-resource.strategy';
import { WebhookCallError, type WebhookPort } from '../../../src/ports/webhook.port';
import type { KObject } from '../../../src/machinery/object';

const served: ServedVersion = {
  group: 'conv.example.com',
  version: 'v2',
  storageVersion: 'v1',
  kind: 'Dial',
  plural: 'dials',
  schema: undefined,
  preserveUnknownFields: true,
  statusEnabled: false,
  terminating: false,
};

const stored = (name: string, extra: Partial<KObject['metadata']> = {}): KObject => ({
  apiVersion: 'conv.example.com/v1',
  kind: 'Dial',
  metadata: { name, namespace: 'ns', uid: `uid-${name}`, resourceVersion: '5', ...extra },
  spec: { size: 1 },
});

const ok = (uid: string, convertedObjects: unknown[]) => ({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: { uid, convertedObjects, result: { status: 'Success' } } });

describe('conversion review answers', () => {
  test('the first review version this server speaks is used', () => {
    expect(reviewVersionOf(['v2', 'v1beta1', 'v1'])).toBe('v1beta1');
    expect(reviewVersionOf(['v3'])).toBeUndefined();
  });

  test('v1 answers are checked for kind, uid and result', () => {
    expect(() => convertedObjectsOf('v1', 'u', { apiVersion: 'v1', kind: 'Status' })).toThrow('failed: expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got v1, Kind=Status');
    expect(() => convertedObjectsOf('v1', 'u', { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview' })).toThrow('failed: no response provided');
    expect(() => convertedObjectsOf('v1', 'u', ok('x', []))).toThrow('failed: expected response.uid="u", got "x"');
    const failed = { ...ok('u', []), response: { uid: 'u', result: { status: 'Failure', message: 'no way' } } };
    expect(() => convertedObjectsOf('v1', 'u', failed)).toThrow(/^failed: no way$/);
    const silent = { ...ok('u', []), response: { uid: 'u', result: { status: 'Failure' } } };
    expect(() => convertedObjectsOf('v1', 'u', silent)).toThrow("failed: response.result.status was 'Failure', not 'Success'");
    expect(convertedObjectsOf('v1', 'u', ok('u', [1]))).toEqual([1]);
  });

  test('v1beta1 answers are not checked for uid', () => {
    expect(convertedObjectsOf('v1beta1', 'u', { response: { uid: 'other', convertedObjects: [], result: { status: 'Success' } } })).toEqual([]);
  });

  test('converted objects: count, apiVersion, kind and identity must hold; only labels and annotations change', () => {
    const sent = [stored('a', { labels: { x: '1' }, finalizers: ['f'] })];
    const as = (o: Record<string, any>) => checkConverted(sent, [o], 'conv.example.com/v2');
    const good = { ...stored('a'), apiVersion: 'conv.example.com/v2', spec: { sizeString: '1' } };
    expect(() => checkConverted(sent, [], 'conv.example.com/v2')).toThrow('returned 0 objects, expected 1');
    expect(() => as({ ...good, apiVersion: 'conv.example.com/v1' })).toThrow('returned invalid object at index 0: invalid groupVersion (expected conv.example.com/v2, received conv.example.com/v1)');
    expect(() => as({ ...good, kind: 'Knob' })).toThrow('returned invalid object at index 0: invalid kind (expected Dial, received Knob)');
    expect(() => as({ ...good, metadata: { ...good.metadata, name: 'b' } })).toThrow('returned invalid object: must have the same name: a != b');
    expect(() => as({ ...good, metadata: { ...good.metadata, uid: 'u2' } })).toThrow('returned invalid object: must have the same UID: uid-a != u2');
    expect(() => as({ ...good, metadata: undefined })).toThrow('returned invalid object: must have the same name: a != ');
    expect(() => as({ ...good, metadata: { ...good.metadata, labels: { x: 1 } } })).toThrow('returned invalid metadata: metadata.labels[x] must be a string, but is number in converted object');
    const [out] = as({ ...good, metadata: { ...good.metadata, labels: { y: '2' }, finalizers: [], generation: 9 } });
    expect(out.metadata).toEqual({ name: 'a', namespace: 'ns', uid: 'uid-a', resourceVersion: '5', labels: { y: '2' }, finalizers: ['f'] });
    expect(out.spec).toEqual({ sizeString: '1' });
    // A list's items are numbered from 1, as upstream's messages do.
    const two = [stored('a'), stored('b')];
    expect(() => checkConverted(two, [good, { ...good, metadata: { ...good.metadata } }], 'conv.example.com/v2')).toThrow('returned invalid converted object at index 2: must have the same name: b != a');
  });
});

describe('webhookConverter', () => {
  const port = (answer: (body: any) => unknown): WebhookPort & { bodies: any[]; urls: string[] } => {
    const bodies: any[] = [];
    const urls: string[] = [];
    return { bodies, urls, post: async (config, body) => (urls.push(config.url!), bodies.push(body), answer(body)) };
  };
  const echo = (body: any) => ok(body.request.uid, body.request.objects.map((o: KObject) => ({ ...o, apiVersion: body.request.desiredAPIVersion })));
  const hook = { clientConfig: { url: 'https://hook.example/convert' }, conversionReviewVersions: ['v1'] };

  test('only objects not in the desired version are sent, in one review', async () => {
    const p = port(echo);
    const c = webhookConverter(served, hook, p);
    const already = { ...stored('b'), apiVersion: 'conv.example.com/v2' };
    const out = await c.fromStorage([stored('a'), already, stored('c')]);
    expect(out.map((o) => [o.metadata.name, o.apiVersion])).toEqual([['a', 'conv.example.com/v2'], ['b', 'conv.example.com/v2'], ['c', 'conv.example.com/v2']]);
    expect(p.bodies).toHaveLength(1);
    expect(p.bodies[0]).toMatchObject({ kind: 'ConversionReview', apiVersion: 'apiextensions.k8s.io/v1', request: { desiredAPIVersion: 'conv.example.com/v2' } });
    expect(p.bodies[0].request.objects.map((o: KObject) => o.metadata.name)).toEqual(['a', 'c']);
    expect(p.urls[0]).toBe('https://hook.example/convert?timeout=30s');
    expect(await c.toStorage([stored('d')])).toHaveLength(1);
    expect(p.bodies).toHaveLength(1); // already in the storage version: no call
  });

  test('failures are untyped 500s naming the group, version and kind', async () => {
    const down = webhookConverter(served, hook, { post: async () => Promise.reject(new WebhookCallError('unreachable', 'connect ECONNREFUSED 10.0.0.1:443')) });
    await expect(down.fromStorage([stored('a')])).rejects.toMatchObject({
      status: { code: 500, message: 'conversion webhook for conv.example.com/v1, Kind=Dial failed: Post "https://hook.example/convert?timeout=30s": dial tcp 10.0.0.1:443: connect: connection refused' },
    });
    const short = webhookConverter(served, hook, port(() => ok('x', [])));
    await expect(short.fromStorage([stored('a'), stored('b')])).rejects.toMatchObject({ status: { message: expect.stringMatching(/^conversion webhook for conv.example.com\/v1, Kind=DialList failed: expected response.uid=/) } });
    const none = webhookConverter(served, { ...hook, conversionReviewVersions: ['v9'] }, port(echo));
    await expect(none.fromStorage([stored('a')])).rejects.toMatchObject({ status: { message: 'conversion webhook for conv.example.com/v1, Kind=Dial failed: no supported conversion review versions' } });
  });
});
