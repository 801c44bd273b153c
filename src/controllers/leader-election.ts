/**
 * Leader election on a Lease, as client-go's leaderelection package does it
 * for kube-controller-manager: a candidate takes the lease when it is free,
 * released, or not renewed for leaseDuration (measured on the candidate's own
 * clock from when it last saw the lease change); the leader renews it every
 * retryPeriod and gives up leadership when it has not renewed for
 * renewDeadline, or as soon as it sees another holder. The lease is read from
 * storage (never a stale cache) and written with its resourceVersion, so two
 * candidates cannot both win one round. Leadership lost is not the end: the
 * replica becomes a candidate again (kube-controller-manager would exit).
 */
import { apiVersionOf, type UserInfo } from '../machinery/resource-definition';
import type { KObject } from '../machinery/object';
import type { RegistryClient } from './registry-client';
import type { ClockPort } from '../ports/clock.port';
import type { RandomPort } from '../ports/random.port';
import { leaseDefinition } from '../resources/lease';
import { formatMicroTime } from '../machinery/micro-time';
import { controllerWrite, statusOf, type Log } from './controller-identity';

export interface LeaderElectionConfig {
  namespace: string;
  name: string;
  /** This candidate's holderIdentity (upstream: hostname and a random suffix). */
  identity: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

export interface LeaderCallbacks {
  onStartedLeading(): void;
  onStoppedLeading(why: string): void;
}

/** kube-controller-manager's own user, which upstream's bootstrap policy lets write its lease. */
export const controllerManagerUser: UserInfo = { username: 'system:kube-controller-manager', groups: ['system:authenticated'] };

interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

/** client-go's JitterFactor for the candidate's retry loop. */
const jitterFactor = 1.2;

/** upstream's LeaderElectionConfig checks, with its messages. */
export function validateLeaderElection(c: Pick<LeaderElectionConfig, 'leaseDurationMs' | 'renewDeadlineMs' | 'retryPeriodMs'>): string | undefined {
  if (c.leaseDurationMs <= c.renewDeadlineMs) return 'leaseDuration must be greater than renewDeadline';
  if (c.renewDeadlineMs <= jitterFactor * c.retryPeriodMs) return 'renewDeadline must be greater than retryPeriod*JitterFactor';
  if (c.leaseDurationMs < 1000) return 'leaseDuration must be at least one second (the lease stores whole seconds)';
  if (c.retryPeriodMs < 1) return 'retryPeriod must be greater than zero';
  return undefined;
}

export class LeaderElector {
  private leading = false;
  private stopped = true;
  private timer?: NodeJS.Timeout;
  private watchdog?: NodeJS.Timeout;
  /** The lease record as last read, and when this candidate saw it change. */
  private observed?: { spec: string; at: number; holder: string };
  private lastRenew = 0;
  /** Our last write made us the holder (even when it landed after stop). */
  private holding = false;
  private attempt?: Promise<void>;

  constructor(
    private readonly registry: RegistryClient,
    private readonly clock: ClockPort,
    private readonly random: RandomPort,
    private readonly config: LeaderElectionConfig,
    private readonly callbacks: LeaderCallbacks,
    private readonly log: Log,
  ) {}

  isLeader(): boolean {
    return this.leading;
  }

  /** The holder this candidate last saw ('' when none). */
  observedHolder(): string {
    return this.observed?.holder ?? '';
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
    // Leadership ends at the renew deadline even when a renewal hangs (storage unreachable).
    this.watchdog = setInterval(() => this.checkDeadline(), Math.max(50, Math.floor(this.config.retryPeriodMs / 4)));
    this.watchdog.unref?.();
  }

  /** Stops competing; a leader hands the lease back (holder cleared) so that another replica takes over at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.watchdog);
    await this.attempt?.catch(() => undefined);
    this.lose('shutting down');
    if (!this.holding) return;
    await this.release().catch((e) => this.log('warn', 'could not release the controller-manager lease', { error: (e as Error).message }));
  }

  private now(): number {
    return this.clock.now().getTime();
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.attempt = this.tryAcquireOrRenew().finally(() => {
        this.attempt = undefined;
        const period = this.config.retryPeriodMs;
        this.schedule(this.leading ? period : period + (this.random.int(1000) / 1000) * period * (jitterFactor - 1));
      });
    }, ms);
    this.timer.unref?.();
  }

  private checkDeadline(): void {
    if (this.leading && this.now() - this.lastRenew > this.config.renewDeadlineMs) {
      this.lose(`failed to renew lease ${this.config.namespace}/${this.config.name}: timed out waiting for the condition`);
    }
  }

  private gain(): void {
    this.leading = true;
    this.lastRenew = this.now();
    this.log('info', 'successfully acquired lease', { lease: `${this.config.namespace}/${this.config.name}`, identity: this.config.identity });
    this.callbacks.onStartedLeading();
  }

  private lose(why: string): void {
    if (!this.leading) return;
    this.leading = false;
    this.log('warn', 'leader election lost', { lease: `${this.config.namespace}/${this.config.name}`, reason: why });
    this.callbacks.onStoppedLeading(why);
  }

  private writeOptions() {
    return controllerWrite(controllerManagerUser, apiVersionOf(leaseDefinition));
  }

  private async tryAcquireOrRenew(): Promise<void> {
    const { namespace, name, identity } = this.config;
    const startedAt = this.now();
    try {
      let current: KObject | undefined;
      try {
        current = (await this.registry.get(leaseDefinition, namespace, name)).object;
      } catch (e) {
        if (statusOf(e) !== 404) throw e;
      }
      const now = this.now();
      if (!current) {
        await this.registry.create(leaseDefinition, namespace, { metadata: { name, namespace }, spec: this.record(now, undefined) }, this.writeOptions());
        this.holding = true;
        this.observe(this.record(now, undefined), now);
        return this.renewed(startedAt);
      }
      const spec = (current.spec ?? {}) as LeaseSpec;
      this.observe(spec, now);
      const holder = spec.holderIdentity ?? '';
      if (holder && holder !== identity && this.observed!.at + this.durationOf(spec) > now) {
        // Someone else holds a live lease.
        this.holding = false;
        if (this.leading) this.lose(`lease is held by ${holder}`);
        return;
      }
      const next = this.record(now, holder === identity ? spec : { ...spec, acquireTime: undefined, leaseTransitions: (spec.leaseTransitions ?? 0) + 1 });
      const body: KObject = { ...current, spec: next };
      await this.registry.update(leaseDefinition, namespace, name, body, this.writeOptions());
      this.holding = true;
      this.observe(next, now);
      this.renewed(startedAt);
    } catch (e) {
      // A conflict means another candidate wrote first; anything else is retried alike.
      this.log('debug', 'leader election attempt failed', { error: (e as Error).message });
    }
  }

  /** A renewal counts from when it was attempted, so a slow write cannot stretch leadership past the deadline. */
  private renewed(startedAt: number): void {
    if (this.stopped) return;
    if (this.leading) {
      if (startedAt - this.lastRenew <= this.config.renewDeadlineMs) this.lastRenew = startedAt;
      return;
    }
    this.gain();
    this.lastRenew = startedAt;
  }

  private durationOf(spec: LeaseSpec): number {
    return (spec.leaseDurationSeconds ?? Math.ceil(this.config.leaseDurationMs / 1000)) * 1000;
  }

  private observe(spec: LeaseSpec, now: number): void {
    const text = JSON.stringify([spec.holderIdentity ?? '', spec.renewTime ?? '', spec.acquireTime ?? '', spec.leaseTransitions ?? 0, spec.leaseDurationSeconds ?? 0]);
    if (this.observed?.spec !== text) this.observed = { spec: text, at: now, holder: spec.holderIdentity ?? '' };
  }

  /** The record this candidate writes: itself as holder, renewed now (acquired now unless it already held the lease). */
  private record(now: number, prev: LeaseSpec | undefined): LeaseSpec {
    const micro = formatMicroTime({ ms: now, micros: 0 });
    return {
      holderIdentity: this.config.identity,
      leaseDurationSeconds: Math.max(1, Math.floor(this.config.leaseDurationMs / 1000)),
      acquireTime: prev?.acquireTime ?? micro,
      renewTime: micro,
      leaseTransitions: prev?.leaseTransitions ?? 0,
    };
  }

  private async release(): Promise<void> {
    const { namespace, name, identity } = this.config;
    const current = (await this.registry.get(leaseDefinition, namespace, name)).object;
    const spec = (current.spec ?? {}) as LeaseSpec;
    this.holding = false;
    if (spec.holderIdentity !== identity) return;
    const micro = formatMicroTime({ ms: this.now(), micros: 0 });
    // client-go's release: no holder, a one-second duration, the transitions kept.
    const released: LeaseSpec = { holderIdentity: '', leaseDurationSeconds: 1, acquireTime: micro, renewTime: micro, leaseTransitions: spec.leaseTransitions ?? 0 };
    await this.registry.update(leaseDefinition, namespace, name, { ...current, spec: released }, this.writeOptions());
  }
}
