/**
 * Events over HTTP on both backends: an event recorder's writes in
 * client-go's shapes (core v1 and events.k8s.io/v1, here events.svc.io/v1),
 * each visible through both APIs, field selectors as kubectl sends them,
 * validation, and expiry after --event-ttl as DELETED in watches.
 */
import { backends, startTestServer, TestServer } from '../support/test-server';
import { until } from '../support/until';

const ns = 'recorder';

async function call(s: TestServer, method: string, path: string, body?: unknown, contentType = 'application/json') {
  const res = await fetch(s.url + path, { method, headers: { 'content-type': contentType }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

const coreBase = `/api/v1/namespaces/${ns}/events`;
const eventsBase = `/apis/events.svc.io/v1/namespaces/${ns}/events`;

/** What client-go's record.EventRecorder POSTs (core v1), including its explicit nulls. */
const recorded = (name: string, objectName: string) => ({
  kind: 'Event',
  apiVersion: 'v1',
  metadata: { name, namespace: ns, creationTimestamp: null },
  involvedObject: { kind: 'ConfigMap', namespace: ns, name: objectName, uid: '3b6f2c1e-0000-4000-8000-000000000001', apiVersion: 'v1', resourceVersion: '42' },
  reason: 'Synced',
  message: `synced ${objectName}`,
  source: { component: 'demo-controller', host: 'node-1' },
  firstTimestamp: '2026-03-01T10:00:00Z',
  lastTimestamp: '2026-03-01T10:00:00Z',
  count: 1,
  type: 'Normal',
  eventTime: null,
  reportingComponent: 'demo-controller',
  reportingInstance: 'node-1',
});

/** What client-go's events.EventRecorder (events/v1 API) POSTs. */
const modern = (name: string) => ({
  kind: 'Event',
  apiVersion: 'events.svc.io/v1',
  metadata: { name, namespace: ns },
  eventTime: '2026-03-01T10:00:00.123456Z',
  series: null,
  reportingController: 'example.com/demo-controller',
  reportingInstance: 'demo-controller-7d9f',
  action: 'Reconcile',
  reason: 'Failed',
  regarding: { kind: 'Lease', namespace: ns, name: 'holder', apiVersion: 'coordination.svc.io/v1' },
  note: 'could not renew',
  type: 'Warning',
});

describe.each(backends)('Events over HTTP (%s)', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(backend);
  });
  afterAll(async () => {
    await s.close();
  });

  test('a core v1 recorder event, then its repeat as client-go patches it, seen through both APIs', async () => {
    const created = await call(s, 'POST', coreBase, recorded('demo.1835a', 'demo'));
    expect(created.status).toBe(201);
    // Upstream writes an unset eventTime (a struct without omitempty) as null, and the empty source struct as {}.
    expect(created.json).toMatchObject({ eventTime: null, reportingComponent: 'demo-controller' });
    const patched = await call(s, 'PATCH', `${coreBase}/demo.1835a`, { count: 2, lastTimestamp: '2026-03-01T10:05:00Z', message: 'synced demo' }, 'application/strategic-merge-patch+json');
    expect([patched.status, patched.json.count]).toEqual([200, 2]);

    const viaEvents = await call(s, 'GET', `${eventsBase}/demo.1835a`);
    expect(viaEvents.status).toBe(200);
    expect(viaEvents.json).toMatchObject({
      apiVersion: 'events.svc.io/v1',
      kind: 'Event',
      metadata: { name: 'demo.1835a', namespace: ns, uid: created.json.metadata.uid, resourceVersion: patched.json.metadata.resourceVersion },
      regarding: { kind: 'ConfigMap', name: 'demo', namespace: ns },
      note: 'synced demo',
      reason: 'Synced',
      type: 'Normal',
      reportingController: 'demo-controller',
      reportingInstance: 'node-1',
      deprecatedSource: { component: 'demo-controller', host: 'node-1' },
      deprecatedFirstTimestamp: '2026-03-01T10:00:00Z',
      deprecatedLastTimestamp: '2026-03-01T10:05:00Z',
      deprecatedCount: 2,
    });
    for (const core of ['message', 'involvedObject', 'source', 'count', 'firstTimestamp']) expect(viaEvents.json).not.toHaveProperty(core);
    const listed = await call(s, 'GET', eventsBase);
    expect(listed.json).toMatchObject({ kind: 'EventList', apiVersion: 'events.svc.io/v1' });
    expect(listed.json.items.map((e: any) => e.metadata.name)).toContain('demo.1835a');
  });

  test('an events.svc.io/v1 recorder event and its series update, seen through core v1', async () => {
    const created = await call(s, 'POST', eventsBase, modern('holder.1835b'));
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ eventTime: '2026-03-01T10:00:00.123456Z', note: 'could not renew' });
    const series = await call(s, 'PATCH', `${eventsBase}/holder.1835b`, { series: { count: 2, lastObservedTime: '2026-03-01T10:01:00.000001Z' } }, 'application/merge-patch+json');
    expect(series.status).toBe(200);
    const immutable = await call(s, 'PATCH', `${eventsBase}/holder.1835b`, { note: 'rewritten' }, 'application/merge-patch+json');
    expect(immutable.status).toBe(422);
    expect(immutable.json.message).toBe('Event.events.svc.io "holder.1835b" is invalid: message: Invalid value: "rewritten": field is immutable');

    const viaCore = await call(s, 'GET', `${coreBase}/holder.1835b`);
    expect(viaCore.json).toMatchObject({
      apiVersion: 'v1',
      involvedObject: { kind: 'Lease', name: 'holder' },
      message: 'could not renew',
      reportingComponent: 'example.com/demo-controller',
      series: { count: 2, lastObservedTime: '2026-03-01T10:01:00.000001Z' },
      type: 'Warning',
    });
    expect(viaCore.json).not.toHaveProperty('note');
    // Through core v1 only the legacy rules apply: the note may change there.
    const legacy = await call(s, 'PATCH', `${coreBase}/holder.1835b`, { message: 'rewritten' }, 'application/merge-patch+json');
    expect(legacy.status).toBe(200);
  });

  test('field selectors kubectl uses, through both APIs', async () => {
    await call(s, 'POST', coreBase, recorded('other.1835c', 'other'));
    const names = async (base: string, selector: string) => {
      const r = await call(s, 'GET', `${base}?fieldSelector=${encodeURIComponent(selector)}`);
      expect(r.status).toBe(200);
      return r.json.items.map((e: any) => e.metadata.name).sort();
    };
    expect(await names(coreBase, 'involvedObject.name=demo')).toEqual(['demo.1835a']);
    expect(await names(coreBase, `involvedObject.name=demo,involvedObject.namespace=${ns},involvedObject.kind=ConfigMap,involvedObject.uid=3b6f2c1e-0000-4000-8000-000000000001`)).toEqual(['demo.1835a']);
    expect(await names(coreBase, 'type=Warning')).toEqual(['holder.1835b']);
    expect(await names(coreBase, 'reason=Synced,source=demo-controller')).toEqual(['demo.1835a', 'other.1835c']);
    expect(await names(coreBase, 'source=example.com/demo-controller')).toEqual(['holder.1835b']);
    expect(await names(eventsBase, 'regarding.name=other')).toEqual(['other.1835c']);
    expect(await names(eventsBase, 'reportingController=example.com/demo-controller')).toEqual(['holder.1835b']);
    expect(await names('/api/v1/events', 'involvedObject.kind=Lease')).toEqual(['holder.1835b']);
    const unknown = await call(s, 'GET', `${eventsBase}?fieldSelector=involvedObject.name%3Ddemo`);
    expect([unknown.status, unknown.json.message]).toEqual([400, 'field label not supported: involvedObject.name']);
  });

  test('validation: legacy namespace rule through core v1, strict rules through events.svc.io/v1', async () => {
    const elsewhere = recorded('x.1', 'x');
    elsewhere.involvedObject.namespace = 'elsewhere';
    const legacy = await call(s, 'POST', coreBase, elsewhere);
    expect(legacy.status).toBe(422);
    expect(legacy.json.message).toBe('Event "x.1" is invalid: involvedObject.namespace: Invalid value: "elsewhere": does not match event.namespace');
    const strict = await call(s, 'POST', eventsBase, { ...modern('y.1'), type: 'Odd', deprecatedCount: 3 });
    expect(strict.status).toBe(422);
    expect(strict.json.details.causes.map((c: any) => c.field)).toEqual(['type', 'count']);
    const badTime = await call(s, 'POST', eventsBase, { ...modern('z.1'), eventTime: 'soon' });
    expect([badTime.status, badTime.json.reason]).toEqual([400, 'BadRequest']);
  });

  test('client-go\'s events/v1 recorder may use upstream\'s group name, events.k8s.io', async () => {
    const body = { ...modern('upstream.1835d'), apiVersion: 'events.k8s.io/v1' };
    const created = await call(s, 'POST', `/apis/events.k8s.io/v1/namespaces/${ns}/events`, body);
    expect([created.status, created.json.apiVersion]).toEqual([201, 'events.k8s.io/v1']);
    expect((await call(s, 'GET', `${eventsBase}/upstream.1835d`)).json.apiVersion).toBe('events.svc.io/v1');
    expect((await call(s, 'GET', `${coreBase}/upstream.1835d`)).json).toMatchObject({ apiVersion: 'v1', message: 'could not renew' });
  });

  test('a table for kubectl get events', async () => {
    const res = await fetch(`${s.url}${coreBase}?fieldSelector=involvedObject.name%3Ddemo`, { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
    const table = (await res.json()) as any;
    expect(table.columnDefinitions.map((c: any) => c.name)).toEqual(['Last Seen', 'Type', 'Reason', 'Object', 'Subobject', 'Source', 'Message', 'First Seen', 'Count', 'Name']);
    expect(table.rows[0].cells.slice(1)).toEqual(['Normal', 'Synced', 'configmap/demo', '', 'demo-controller, node-1', 'synced demo', expect.any(String), 2, 'demo.1835a']);
  });
});

describe.each(backends)('Event expiry (%s)', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(backend, {}, { eventTtlSeconds: 1 });
  });
  afterAll(async () => {
    await s.close();
  });

  test('events expire after --event-ttl as DELETED in watches of both APIs; other kinds stay', async () => {
    const start = await call(s, 'GET', coreBase);
    const watch = (base: string) => {
      const controller = new AbortController();
      const lines: any[] = [];
      const done = (async () => {
        const res = await fetch(`${s.url}${base}?watch=1&resourceVersion=${start.json.metadata.resourceVersion}`, { signal: controller.signal });
        const decoder = new TextDecoder();
        let buffered = '';
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffered += decoder.decode(chunk, { stream: true });
          const parts = buffered.split('\n');
          buffered = parts.pop()!;
          for (const p of parts) if (p.trim()) lines.push(JSON.parse(p));
        }
      })().catch(() => undefined);
      return { lines, stop: () => controller.abort(), done };
    };
    const core = watch(coreBase);
    const events = watch(eventsBase);
    expect((await call(s, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'stays' } })).status).toBe(201);
    expect((await call(s, 'POST', coreBase, recorded('short.1', 'stays'))).status).toBe(201);
    const deleted = (w: { lines: any[] }) => w.lines.find((l) => l.type === 'DELETED' && l.object.metadata.name === 'short.1');
    await until('short.1 deleted on both watches', () => deleted(core) && deleted(events), { timeoutMs: 20_000, intervalMs: 100 });
    core.stop();
    events.stop();
    expect(core.lines.map((l) => l.type)).toEqual(['ADDED', 'DELETED']);
    expect(deleted(core).object).toMatchObject({ kind: 'Event', apiVersion: 'v1', message: 'synced stays' });
    expect(deleted(events).object).toMatchObject({ kind: 'Event', apiVersion: 'events.svc.io/v1', note: 'synced stays' });
    expect((await call(s, 'GET', `${coreBase}/short.1`)).status).toBe(404);
    expect((await call(s, 'GET', `/api/v1/namespaces/${ns}/configmaps/stays`)).status).toBe(200);
  }, 30_000);
});
