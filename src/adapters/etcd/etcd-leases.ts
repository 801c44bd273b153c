/**
 * Leases for keys written with a TTL, shared between writes as upstream's
 * lease manager does: one etcd lease per few seconds of expiry times, so
 * that a stream of events does not cost one LeaseGrant each. A lease is
 * granted a little longer than asked (5% of the TTL, at most 60 s) and
 * reused while it still covers the whole TTL of a new write, for at most
 * 1,000 keys; a key therefore expires about TTL to TTL + 5% after its write
 * (etcd counts from the grant, a round trip before the write).
 */
import type { Etcd3 } from 'etcd3';

export interface LeaseManagerOptions {
  /** Upper bound of the extra lifetime a lease gets for reuse (s, default 60). */
  reuseMaxSeconds?: number;
  /** Extra lifetime as a share of the TTL (default 0.05). */
  reuseShare?: number;
  /** Keys attached to one lease at most (default 1000). */
  maxKeysPerLease?: number;
  now?: () => number;
}

interface Current {
  id: string;
  /** When etcd will revoke it (ms since the epoch, at the latest). */
  expiresAt: number;
  keys: number;
}

export class LeaseManager {
  private current: Current | undefined;
  private granting: Promise<Current> | undefined;

  constructor(
    private readonly client: Etcd3,
    private readonly deadline: () => { deadline: number },
    private readonly options: LeaseManagerOptions = {},
  ) {}

  /** A lease id that keeps a key at least ttlSeconds from now. */
  async leaseFor(ttlSeconds: number): Promise<string> {
    const ttl = Math.max(1, Math.ceil(ttlSeconds));
    const now = this.now();
    const extra = this.extraSeconds(ttl);
    const reusable = (c: Current | undefined) =>
      !!c &&
      c.expiresAt > now + ttl * 1000 &&
      c.expiresAt <= now + (ttl + extra) * 1000 &&
      c.keys < (this.options.maxKeysPerLease ?? 1000);
    if (reusable(this.current)) {
      this.current!.keys++;
      return this.current!.id;
    }
    // Writes racing for a new lease share one grant.
    this.granting ??= this.grant(ttl + extra, now).finally(() => (this.granting = undefined));
    const granted = await this.granting;
    granted.keys++;
    return granted.id;
  }

  private async grant(seconds: number, now: number): Promise<Current> {
    const res = await this.client.leaseClient.leaseGrant({ TTL: seconds, ID: 0 }, this.deadline());
    // etcd may raise the TTL to its minimum; the key then lives longer, which is allowed.
    const granted = Math.max(seconds, Number(res.TTL) || seconds);
    const lease: Current = { id: String(res.ID), expiresAt: now + granted * 1000, keys: 0 };
    this.current = lease;
    return lease;
  }

  private extraSeconds(ttl: number): number {
    return Math.min(this.options.reuseMaxSeconds ?? 60, Math.floor(ttl * (this.options.reuseShare ?? 0.05)));
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}
