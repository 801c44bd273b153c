/** Event: both APIs' conversion, upstream's legacy and strict validation, field selectors, table, time normalization. */
import 'reflect-metadata';
import type { KObject } from '../../../src/machinery/object';
import { ApiError } from '../../../src/machinery/status';
import { coreEventDefinition, eventsEventDefinition } from '../../../src/resources/event';
import { coreToEvents, eventsToCore } from '../../../src/resources/event/event.convert';
import { fixedNow, strategyContext } from '../../support/strategy-context';

const ctx = strategyContext();
const core = (fields: Record<string, unknown> = {}, ns = 'default'): KObject => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: 'demo.17a', namespace: ns, creationTimestamp: '2026-01-02T03:00:05Z' },
  involvedObject: { kind: 'ConfigMap', name: 'demo', namespace: ns, uid: 'u-1', apiVersion: 'v1' },
  reason: 'Synced',
  message: 'all good',
  source: { component: 'my-controller' },
  firstTimestamp: '2026-01-02T03:00:05Z',
  lastTimestamp: '2026-01-02T03:04:00Z',
  count: 3,
  type: 'Normal',
  ...fields,
});
const modern = (fields: Record<string, unknown> = {}): KObject => ({
  apiVersion: 'events.svc.io/v1',
  kind: 'Event',
  metadata: { name: 'demo.17b', namespace: 'default' },
  eventTime: '2026-01-02T03:04:00.123456Z',
  reportingController: 'example.com/ctl',
  reportingInstance: 'ctl-1',
  action: 'Reconcile',
  reason: 'Synced',
  regarding: { kind: 'ConfigMap', name: 'demo', namespace: 'default' },
  note: 'done',
  type: 'Normal',
  ...fields,
});

describe('Event conversion', () => {
  test('core -> events.svc.io -> core is lossless, with upstream\'s field names', () => {
    const full = core({ eventTime: '2026-01-02T03:04:00.000001Z', series: { count: 2, lastObservedTime: '2026-01-02T03:04:01.000000Z' }, action: 'A', related: { kind: 'Pod', name: 'p' }, reportingComponent: 'c', reportingInstance: 'i' });
    const v1 = coreToEvents(full);
    expect(v1).toMatchObject({
      apiVersion: 'events.svc.io/v1',
      regarding: full.involvedObject,
      note: 'all good',
      deprecatedSource: { component: 'my-controller' },
      deprecatedFirstTimestamp: '2026-01-02T03:00:05Z',
      deprecatedLastTimestamp: '2026-01-02T03:04:00Z',
      deprecatedCount: 3,
      reportingController: 'c',
      reportingInstance: 'i',
      series: full.series,
    });
    expect(v1).not.toHaveProperty('message');
    expect(v1).not.toHaveProperty('involvedObject');
    expect(eventsToCore(v1)).toEqual(full);
  });

  test('each side takes its own Go shape: core writes reportingComponent and eventTime when empty, events.svc.io does not', () => {
    const legacy = core();
    const v1 = coreToEvents(legacy);
    expect(v1).toMatchObject({ eventTime: null, deprecatedSource: { component: 'my-controller' } });
    expect(v1).not.toHaveProperty('reportingController');
    const back = eventsToCore({ ...modern(), metadata: { name: 'x', namespace: 'default', creationTimestamp: '2026-01-01T00:00:00Z' } });
    expect(back).toMatchObject({ source: {}, firstTimestamp: null, lastTimestamp: null, reportingComponent: 'example.com/ctl', message: 'done' });
    expect(back).not.toHaveProperty('count');
  });
});

describe('Event validation through core v1 (legacy only)', () => {
  const v = (o: KObject) => coreEventDefinition.strategy.validate(o, ctx) as ReturnType<typeof Array.prototype.slice>;
  test('an old-style event must be in its object\'s namespace, or default for cluster-scoped objects', () => {
    expect(v(core())).toEqual([]);
    expect(v(core({ involvedObject: { kind: 'Node', name: 'n1' } }))).toEqual([]);
    const wrong = v(core({ involvedObject: { kind: 'ConfigMap', name: 'x', namespace: 'other' } }));
    expect(wrong.map((e: any) => [e.field, e.badValue, e.detail])).toEqual([['involvedObject.namespace', 'other', 'does not match event.namespace']]);
    const clusterElsewhere = v(core({ involvedObject: { kind: 'Node', name: 'n1' } }, 'team'));
    expect(clusterElsewhere.map((e: any) => e.field)).toEqual(['involvedObject.namespace']);
  });

  test('a new-style event (eventTime) needs controller, instance, action and reason, within limits', () => {
    const errs = v(core({ eventTime: '2026-01-02T03:04:00.000000Z', reason: '', message: 'x'.repeat(1025) }));
    expect(errs.map((e: any) => [e.field, e.type])).toEqual([
      // An empty qualified name fails both of upstream's checks (empty, and the pattern).
      ['reportingController', 'FieldValueRequired'],
      ['reportingController', 'FieldValueInvalid'],
      ['reportingController', 'FieldValueInvalid'],
      ['reportingInstance', 'FieldValueRequired'],
      ['action', 'FieldValueRequired'],
      ['reason', 'FieldValueRequired'],
      ['message', 'FieldValueInvalid'],
    ]);
    expect(errs[6].detail).toBe('can have at most 1024 characters');
  });

  test('updates through core v1 may change anything legacy validation allows', () => {
    expect(coreEventDefinition.strategy.validateUpdate(core({ message: 'changed', count: 4 }), core(), ctx)).toEqual([]);
  });
});

describe('Event validation through events.svc.io/v1 (strict)', () => {
  const s = eventsEventDefinition.strategy;
  test('a complete event is valid; eventTime, type and the deprecated fields are checked', async () => {
    expect(await s.validate(modern(), ctx)).toEqual([]);
    const errs = await s.validate(modern({ eventTime: undefined, type: 'Odd', deprecatedCount: 2, deprecatedSource: { component: 'x' }, series: { count: 1 } }), ctx);
    // Without eventTime the event is old-style: of the legacy checks only the namespace ones apply.
    expect(errs.map((e) => [e.field, e.type, e.detail])).toEqual([
      ['series.count', 'FieldValueInvalid', 'should be at least 2'],
      ['series.lastObservedTime', 'FieldValueRequired', ''],
      ['eventTime', 'FieldValueRequired', ''],
      ['type', 'FieldValueInvalid', 'has invalid value: Odd'],
      ['count', 'FieldValueInvalid', 'needs to be unset'],
      ['source', 'FieldValueInvalid', 'needs to be unset'],
    ]);
  });

  test('an update may only change the series (and metadata); the rest is immutable under core names', async () => {
    const old = modern();
    expect(await s.validateUpdate(modern({ series: { count: 2, lastObservedTime: '2026-01-02T03:05:00.000000Z' } }), old, ctx)).toEqual([]);
    const errs = await s.validateUpdate(modern({ note: 'other', reportingController: 'example.com/other' }), old, ctx);
    expect(errs.map((e) => [e.field, e.detail])).toEqual([
      ['message', 'field is immutable'],
      ['reportingController', 'field is immutable'],
    ]);
  });
});

describe('Event decoding', () => {
  test('nulls are dropped and times canonicalized (Time to seconds, MicroTime to microseconds)', () => {
    const obj = core({ eventTime: '2026-01-02T03:04:05.1Z', firstTimestamp: '2026-01-02T04:04:05.987+01:00', lastTimestamp: null, related: null, series: null });
    coreEventDefinition.strategy.applyDefaults!(obj, ctx);
    expect(obj).toMatchObject({ eventTime: '2026-01-02T03:04:05.100000Z', firstTimestamp: '2026-01-02T03:04:05Z' });
    for (const k of ['lastTimestamp', 'related', 'series']) expect(obj).not.toHaveProperty(k);
  });

  test('a value that is not a time is a 400 decoding error', () => {
    let caught: unknown;
    try {
      eventsEventDefinition.strategy.applyDefaults!(modern({ eventTime: 'yesterday' }), ctx);
    } catch (e) {
      caught = e;
    }
    expect((caught as ApiError).status).toMatchObject({ code: 400, reason: 'BadRequest' });
    expect((caught as ApiError).status.message).toMatch(/^Event in version "v1" cannot be handled as a Event: parsing time "yesterday"/);
  });
});

describe('Event field selectors and table', () => {
  test('core selectors as kubectl uses them; source falls back to the reporting controller', () => {
    const f = coreEventDefinition.fieldSelectors;
    const e = core();
    expect([f['involvedObject.name'](e), f['involvedObject.kind'](e), f['involvedObject.namespace'](e), f['involvedObject.uid'](e), f.reason(e), f.type(e), f.source(e)]).toEqual([
      'demo', 'ConfigMap', 'default', 'u-1', 'Synced', 'Normal', 'my-controller',
    ]);
    expect(f.source(core({ source: undefined, reportingComponent: 'rc' }))).toBe('rc');
    expect(coreEventDefinition.unknownFieldSelectorMessage!('note')).toBe('field label not supported: note');
  });

  test('events.svc.io selectors use its field names', () => {
    const f = eventsEventDefinition.fieldSelectors;
    expect([f['regarding.name'](modern()), f.reportingController(modern()), f.source(modern())]).toEqual(['demo', 'example.com/ctl', 'example.com/ctl']);
    expect(f['involvedObject.name']).toBeUndefined();
  });

  test('table: Last Seen, Type, Reason, Object, Message, and the wide columns', () => {
    const t = coreEventDefinition.table!;
    expect(t.columns.map((c) => `${c.name}${c.priority ? '*' : ''}`)).toEqual(['Last Seen', 'Type', 'Reason', 'Object', 'Subobject*', 'Source*', 'Message', 'First Seen*', 'Count*', 'Name*']);
    expect(t.cells(core(), fixedNow)).toEqual(['5s', 'Normal', 'Synced', 'configmap/demo', '', 'my-controller', 'all good', '4m', 3, 'demo.17a']);
    expect(eventsEventDefinition.table!.cells(modern(), fixedNow)).toEqual(['4s', 'Normal', 'Synced', 'configmap/demo', '', 'example.com/ctl, ctl-1', 'done', '4s', 1, 'demo.17b']);
  });

  test('both APIs share one storage; only core names are valid for legacy names', () => {
    expect(eventsEventDefinition.storedAs).toMatchObject({ group: '', plural: 'events' });
    expect(coreEventDefinition.validateName('Weird:Name', false)).toEqual([]);
    expect(eventsEventDefinition.validateName('Weird:Name', false)).not.toEqual([]);
    expect([coreEventDefinition.allowCreateOnUpdate, coreEventDefinition.shortNames]).toEqual([true, ['ev']]);
  });
});
