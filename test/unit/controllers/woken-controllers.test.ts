/**
 * The controllers that ran their own polling loops (ClusterRole aggregation,
 * root CA publisher, system namespaces, the RBAC bootstrap) are woken by
 * changes of the kinds they read: after a pass they hold no timer but a
 * resync (fake timers count them), the changes they subscribe to are those
 * upstream's handlers take, and a change makes them act.
 */
import type { KObject } from '../../../src/machinery/object';
import { ListResult, ObjectResult } from '../../../src/registry/results';
import type { ResourceDefinition } from '../../../src/machinery/resource-definition';
import type { ChangedObject, WatchChanges } from '../../../src/controllers/changes';
import type { RegistryClient } from '../../../src/controllers/registry-client';
import { startClusterRoleAggregation } from '../../../src/controllers/clusterrole-aggregation/controller';
import { startRootCaPublisher } from '../../../src/controllers/root-ca-publisher';
import { startSystemNamespaces } from '../../../src/controllers/system-namespaces';
import { startRbacBootstrap } from '../../../src/controllers/rbac-bootstrap';
import { allDefinitions } from '../../../src/resources';
import { configMapDefinition } from '../../../src/resources/config-map';
import { namespaceDefinition, SYSTEM_NAMESPACES } from '../../../src/resources/namespace';

const clusterRoles = allDefinitions.find((d) => d.group === 'rbac.authorization.svc.io' && d.plural === 'clusterroles')!;
const notFound = () => Object.assign(new Error('not found'), { status: { code: 404, reason: 'NotFound' } });

/** An in-memory registry client: objects by kind and namespace/name; every write is recorded and announced. */
function memoryClient(definitions: ResourceDefinition[] = allDefinitions) {
  const objects = new Map<ResourceDefinition, Map<string, KObject>>();
  const writes: string[] = [];
  let waiters: Array<{ what: string; resolve: () => void }> = [];
  const at = (def: ResourceDefinition) => objects.get(def) ?? objects.set(def, new Map()).get(def)!;
  const key = (ns: string | undefined, name: string) => `${ns ?? ''}/${name}`;
  const wrote = (what: string) => {
    writes.push(what);
    waiters = waiters.filter((w) => (w.what === what ? (w.resolve(), false) : true));
  };
  const client = {
    definitions,
    async get(def: ResourceDefinition, ns: string | undefined, name: string) {
      const o = at(def).get(key(ns, name));
      if (!o) throw notFound();
      return ObjectResult.of(structuredClone(o));
    },
    async list(def: ResourceDefinition) {
      return new ListResult({ apiVersion: 'v1', kind: 'List', metadata: {} }, { decoded: [...at(def).values()].map((o) => structuredClone(o)) });
    },
    async create(def: ResourceDefinition, ns: string | undefined, obj: KObject) {
      const o = { ...structuredClone(obj), metadata: { ...obj.metadata, namespace: ns } };
      at(def).set(key(ns, obj.metadata.name!), o);
      wrote(`create ${def.plural} ${key(ns, obj.metadata.name!)}`);
      return ObjectResult.of(o, true);
    },
    async update(def: ResourceDefinition, ns: string | undefined, name: string, obj: KObject) {
      at(def).set(key(ns, name), structuredClone(obj));
      wrote(`update ${def.plural} ${key(ns, name)}`);
      return ObjectResult.of(obj);
    },
  } as unknown as RegistryClient;
  return {
    client,
    writes,
    put: (def: ResourceDefinition, o: KObject) => at(def).set(key(o.metadata.namespace, o.metadata.name!), o),
    remove: (def: ResourceDefinition, ns: string | undefined, name: string) => at(def).delete(key(ns, name)),
    /** Resolves at the write named `what` (e.g. `create namespaces /kube-public`). */
    written: (what: string) => new Promise<void>((resolve) => waiters.push({ what, resolve })),
  };
}

/** WatchChanges the test drives: `change` is what the watch cache would report. */
function manualChanges() {
  const subscriptions = new Set<{ def: ResourceDefinition; wake: () => void; filter?: (o: ChangedObject) => boolean }>();
  const watch: WatchChanges = (def, wake, filter) => {
    const s = { def, wake, filter };
    subscriptions.add(s);
    return () => void subscriptions.delete(s);
  };
  const subscribed = (def: ResourceDefinition) => [...subscriptions].filter((s) => s.def === def);
  return {
    watch,
    /** Whether a change of this object would wake anyone. */
    wakes: (def: ResourceDefinition, o: ChangedObject) => subscribed(def).some((s) => !s.filter || s.filter(o)),
    change(def: ResourceDefinition, o: ChangedObject) {
      for (const s of subscribed(def)) if (!s.filter || s.filter(o)) s.wake();
    },
    count: () => subscriptions.size,
  };
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};
const log = () => undefined;

describe('controllers woken by the watch cache', () => {
  const stops: Array<() => unknown> = [];
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] }));
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
    jest.useRealTimers();
  });

  test('ClusterRole aggregation: a pass at start, no timer after it, another when a ClusterRole changes', async () => {
    const m = memoryClient();
    const changes = manualChanges();
    m.put(clusterRoles, { metadata: { name: 'agg' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'true' } }] }, rules: [] });
    m.put(clusterRoles, { metadata: { name: 'part', labels: { x: 'true' } }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] });
    const first = m.written('update clusterroles /agg');
    const loop = startClusterRoleAggregation(m.client, log, changes.watch)!;
    stops.push(() => loop.stop());
    await first;
    await settle();
    expect(jest.getTimerCount()).toBe(0);
    expect(changes.wakes(clusterRoles, { name: 'anything' })).toBe(true);
    m.put(clusterRoles, { metadata: { name: 'part', labels: { x: 'true' } }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['list'] }] });
    const second = m.written('update clusterroles /agg');
    changes.change(clusterRoles, { name: 'part' });
    await second;
    expect(((await m.client.get(clusterRoles, undefined, 'agg')).object.rules as Array<{ verbs: string[] }>)[0].verbs).toEqual(['list']);
  });

  test('root CA publisher: woken by namespaces and by kube-root-ca.crt ConfigMaps only; puts a deleted one back', async () => {
    const m = memoryClient();
    const changes = manualChanges();
    m.put(namespaceDefinition, { metadata: { name: 'team' } });
    const first = m.written('create configmaps team/kube-root-ca.crt');
    const loop = startRootCaPublisher(m.client, 'CA', log, changes.watch);
    stops.push(() => loop.stop());
    await first;
    await settle();
    expect(jest.getTimerCount()).toBe(0);
    expect(changes.wakes(namespaceDefinition, { name: 'new' })).toBe(true);
    expect(changes.wakes(configMapDefinition, { name: 'kube-root-ca.crt', namespace: 'team' })).toBe(true);
    expect(changes.wakes(configMapDefinition, { name: 'app-settings', namespace: 'team' })).toBe(false);
    m.remove(configMapDefinition, 'team', 'kube-root-ca.crt');
    const again = m.written('create configmaps team/kube-root-ca.crt');
    changes.change(configMapDefinition, { name: 'kube-root-ca.crt', namespace: 'team' });
    await again;
  });

  test('system namespaces: ready after the first pass, only the resync timer after it; a deleted one comes back on the change', async () => {
    const m = memoryClient();
    const changes = manualChanges();
    const created = Promise.all(SYSTEM_NAMESPACES.map((n) => m.written(`create namespaces /${n}`)));
    const adopted = m.written('create namespaces /legacy');
    const sn = startSystemNamespaces(m.client, log, { watch: changes.watch, namespacesInUse: async (def) => new Set(def === configMapDefinition ? ['legacy'] : []) });
    stops.push(() => sn.stop());
    await created;
    await adopted;
    await settle();
    expect(sn.ready()).toBe(true);
    expect(jest.getTimerCount()).toBe(1);
    m.remove(namespaceDefinition, undefined, 'kube-node-lease');
    const back = m.written('create namespaces /kube-node-lease');
    changes.change(namespaceDefinition, { name: 'kube-node-lease' });
    await back;
  });

  test('RBAC bootstrap: waits for the cache without a timer, runs when a kind\'s load wakes it, then unsubscribes', async () => {
    const m = memoryClient();
    const changes = manualChanges();
    let ready = false;
    const bootstrap = startRbacBootstrap(m.client, log, { watch: changes.watch, cacheReady: () => ready });
    stops.push(() => bootstrap.stop());
    await settle();
    expect(m.writes).toEqual([]);
    expect(jest.getTimerCount()).toBe(0);
    ready = true;
    changes.change(configMapDefinition, { name: 'loaded' });
    await bootstrap.done;
    expect(m.writes).toContain('create clusterroles /system:auth-delegator');
    expect(m.writes).toContain('create clusterrolebindings /cluster-admin');
    await settle();
    expect(changes.count()).toBe(0);
  });
});
