/**
 * Leader election on a Lease through a real registry (embedded store): one
 * leader at a time, a clean hand-over on stop, and a leader that cannot renew
 * giving up exactly when its renew deadline passes (a controllable clock
 * decides, real timers drive the loop) and before anyone else may take over.
 */
import { startTestServer, type TestServer } from '../../support/test-server';
import { until } from '../../support/until';
import { LeaderElector, type LeaderElectionConfig } from '../../../src/controllers/leader-election';
import { leaseDefinition } from '../../../src/resources/lease';
import { systemRandom } from '../../../src/adapters/random/system.random';
import type { Registry } from '../../../src/registry/registry';

const timing = { leaseDurationMs: 2000, renewDeadlineMs: 1000, retryPeriodMs: 100 };


/** Time that moves only when the test says so (from now); `real` follows the wall clock. */
class TestClock {
  private readonly base = Date.now();
  offset = 0;
  constructor(private readonly real = false) {}
  now = () => new Date((this.real ? Date.now() : this.base) + this.offset);
}

/** The registry, or one whose every call fails while `broken` (storage unreachable); `failures` counts them. */
function flaky(registry: Registry) {
  const state = { broken: false, failures: 0 };
  const proxy = new Proxy(registry, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (typeof v !== 'function' || !['get', 'create', 'update'].includes(String(prop))) return v;
      return (...args: unknown[]) => (state.broken ? (state.failures++, Promise.reject(new Error('storage unreachable'))) : v.apply(target, args));
    },
  });
  return { registry: proxy, state };
}

describe('LeaderElector', () => {
  let server: TestServer;
  const events: string[] = [];
  const electors: LeaderElector[] = [];
  let n = 0;
  const elector = (identity: string, lease: string, registry?: Registry, clock = new TestClock(true)) => {
    const config: LeaderElectionConfig = { namespace: 'default', name: lease, identity, ...timing };
    const e = new LeaderElector(registry ?? server.registry, clock, systemRandom, config, { onStartedLeading: () => events.push(`${identity} start`), onStoppedLeading: () => events.push(`${identity} stop`) }, () => undefined);
    electors.push(e);
    return e;
  };
  const lease = async (name: string) => (await server.registry.get(leaseDefinition, 'default', name)).object.spec as Record<string, unknown>;

  beforeAll(async () => {
    server = await startTestServer('lmdb');
  });
  afterAll(async () => {
    for (const e of electors) await e.stop();
    await server.close();
  });
  beforeEach(() => {
    events.length = 0;
    n++;
  });

  it('one leader at a time; a stopped leader hands the lease over at once', async () => {
    const name = `lease-${n}`;
    const a = elector('a', name);
    a.start();
    await until('a leads', () => a.isLeader());
    expect(await lease(name)).toMatchObject({ holderIdentity: 'a', leaseDurationSeconds: 2, leaseTransitions: 0 });
    const b = elector('b', name);
    b.start();
    await until('b sees a', () => b.observedHolder() === 'a');
    // a renews while b keeps trying: several renewals later b still does not lead.
    const renewed = (await lease(name)).renewTime;
    await until('a renews', async () => (await lease(name)).renewTime !== renewed);
    await until('a renews again', async () => (await lease(name)).renewTime !== renewed);
    expect(b.isLeader()).toBe(false);
    await a.stop();
    expect(a.isLeader()).toBe(false);
    await until('b leads', () => b.isLeader());
    expect(await lease(name)).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
    expect(events).toEqual(['a start', 'a stop', 'b start']);
  });

  it('a leader that cannot renew stops when its renew deadline passes, before another may take over', async () => {
    const name = `lease-${n}`;
    const clock = new TestClock();
    const storage = flaky(server.registry);
    const a = elector('a', name, storage.registry, clock);
    a.start();
    await until('a leads', () => a.isLeader());
    storage.state.broken = true;
    const c = elector('c', name);
    c.start();
    await until('c sees a', () => c.observedHolder() === 'a');
    // Up to the deadline (on a's clock, which stood still since its last renewal) a keeps leading, renewals failing.
    clock.offset = timing.renewDeadlineMs - 200;
    // Barrier: three more failed renewals. They are a retry period apart, and the deadline watchdog ticks more often,
    // so it has looked at this clock reading meanwhile.
    const failed = storage.state.failures;
    await until('three failed renewals on this clock', () => storage.state.failures >= failed + 3);
    expect(a.isLeader()).toBe(true);
    clock.offset = timing.renewDeadlineMs + 200;
    await until('a gives up', () => !a.isLeader());
    expect(events).toEqual(['a start', 'a stop']);
    await until('c takes over', () => c.isLeader());
    expect(events).toEqual(['a start', 'a stop', 'c start']);
    expect(await lease(name)).toMatchObject({ holderIdentity: 'c', leaseTransitions: 1 });
    // a, reachable again, stays a candidate and does not lead while c renews.
    storage.state.broken = false;
    await until('a sees c', () => a.observedHolder() === 'c');
    expect(a.isLeader()).toBe(false);
  });

  it('a leader that sees another holder stops at once', async () => {
    const name = `lease-${n}`;
    const a = elector('a', name);
    a.start();
    await until('a leads', () => a.isLeader());
    const current = (await server.registry.get(leaseDefinition, 'default', name)).object;
    await server.registry.update(leaseDefinition, 'default', name, { ...current, spec: { ...(current.spec as object), holderIdentity: 'intruder' } }, {
      user: { username: 'system:admin', groups: ['system:masters'] },
      dryRun: false,
      fieldValidation: 'Strict',
      warnings: [],
    });
    await until('a gives up', () => !a.isLeader());
    expect(events).toEqual(['a start', 'a stop']);
  });
});
