/**
 * The watch cache tells controllers that a kind changed (composition's
 * `cacheChanges` over the cache's change listeners), on both backends:
 * after the cache applied the write (it already serves the object), once
 * per burst, only for changes the filter accepts, and never after the
 * unsubscribe. Writes go through the server; the barrier is a later write
 * that the subscription does see.
 */
import { cacheChanges } from '../../src/composition/controller-views';
import { configMapDefinition } from '../../src/resources/config-map';
import { objectKey } from '../../src/registry/keys';
import type { ChangedObject } from '../../src/controllers/changes';
import { backends, call, cm, startCacheServer, type CacheServer } from './harness';

describe.each(backends)('watch cache change listeners on %s', (backend) => {
  let s: CacheServer;
  beforeAll(async () => {
    s = await startCacheServer(backend);
  });
  afterAll(() => s.close());

  const create = async (ns: string, name: string) => expect((await call(s.url, 'POST', `/api/v1/namespaces/${ns}/configmaps`, cm(name))).status).toBe(201);

  test('a wake-up after the cache applied the change, for the changes the filter takes', async () => {
    const seen: ChangedObject[] = [];
    let wakes = 0;
    let onWake: (() => void) | undefined;
    const stop = cacheChanges(s.cache, s.registry.served).watch(
      configMapDefinition,
      () => {
        wakes++;
        onWake?.();
      },
      (o) => {
        seen.push(o);
        return o.name.startsWith('wanted');
      },
    );
    try {
      const woken = new Promise<void>((resolve) => (onWake = resolve));
      await create('listen', 'other');
      await create('listen', 'wanted-1');
      await woken;
      // The cache serves it by the time the listener runs.
      expect(s.cache.kind(configMapDefinition).get(objectKey(configMapDefinition, 'listen', 'wanted-1'))).toBeDefined();
      expect(wakes).toBe(1);
      expect(seen.map((o) => o.name)).toEqual(['other', 'wanted-1']);
      expect(seen[1]).toMatchObject({ namespace: 'listen', name: 'wanted-1' });
      expect(JSON.parse(seen[1].json!.toString()).metadata.name).toBe('wanted-1');
      // A deletion is seen without JSON.
      const deleted = new Promise<void>((resolve) => (onWake = resolve));
      expect((await call(s.url, 'DELETE', '/api/v1/namespaces/listen/configmaps/wanted-1')).status).toBe(200);
      await deleted;
      const last = seen[seen.length - 1];
      expect({ namespace: last.namespace, name: last.name, deleting: last.deleting, json: last.json }).toEqual({ namespace: 'listen', name: 'wanted-1', deleting: false, json: undefined });
    } finally {
      stop();
    }
  });

  test('whether an object is being deleted comes from its metadata, not from its bytes', async () => {
    const seen = new Map<string, boolean | undefined>();
    let onWake: (() => void) | undefined;
    const stop = cacheChanges(s.cache, s.registry.served).watch(configMapDefinition, () => onWake?.(), (o) => {
      seen.set(o.name, o.deleting);
      return o.name === 'held';
    });
    try {
      const mentions = { ...cm('mentions'), data: { note: '"deletionTimestamp": not metadata' } };
      expect((await call(s.url, 'POST', '/api/v1/namespaces/deleting/configmaps', mentions)).status).toBe(201);
      const created = new Promise<void>((resolve) => (onWake = resolve));
      expect((await call(s.url, 'POST', '/api/v1/namespaces/deleting/configmaps', { ...cm('held'), metadata: { name: 'held', finalizers: ['example.com/hold'] } })).status).toBe(201);
      await created;
      expect(seen.get('mentions')).toBe(false);
      expect(seen.get('held')).toBe(false);
      const marked = new Promise<void>((resolve) => (onWake = resolve));
      expect((await call(s.url, 'DELETE', '/api/v1/namespaces/deleting/configmaps/held')).status).toBe(200);
      await marked;
      expect(seen.get('held')).toBe(true);
      const gone = new Promise<void>((resolve) => (onWake = resolve));
      expect((await call(s.url, 'PATCH', '/api/v1/namespaces/deleting/configmaps/held', { metadata: { finalizers: null } }, { 'content-type': 'application/merge-patch+json' })).status).toBe(200);
      await gone;
      expect(seen.get('held')).toBe(false);
    } finally {
      stop();
    }
  });

  test('nothing after the unsubscribe (a second subscription is the barrier)', async () => {
    let first = 0;
    const stopFirst = cacheChanges(s.cache, s.registry.served).watch(configMapDefinition, () => first++);
    let onBarrier!: () => void;
    const barrier = new Promise<void>((resolve) => (onBarrier = resolve));
    const stopBarrier = cacheChanges(s.cache, s.registry.served).watch(configMapDefinition, onBarrier, (o) => o.name === 'barrier');
    stopFirst();
    try {
      await create('quiet', 'after-unsubscribe');
      await create('quiet', 'barrier');
      await barrier;
      expect(first).toBe(0);
    } finally {
      stopBarrier();
    }
  });
});
