/**
 * Readers waiting for the cache to reach a revision. While anyone waits,
 * storage is asked for progress reports (where the adapter can give them),
 * so an idle kind's revision catches up with writes to other kinds.
 */
interface Waiter {
  rev: number;
  done(ok: boolean): void;
}

export class Freshness {
  private readonly waiters = new Set<Waiter>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    /** The revision reached, or undefined while there is nothing to read yet. */
    private readonly reached: () => number | undefined,
    private readonly requestProgress: () => void,
    private readonly intervalMs: number,
  ) {}

  /** Resolves true once reached() >= rev, false after timeoutMs. */
  waitFor(rev: number, timeoutMs: number): Promise<boolean> {
    const now = this.reached();
    if (now !== undefined && now >= rev) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => waiter.done(false), timeoutMs);
      const waiter: Waiter = {
        rev,
        done: (ok) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          if (this.waiters.size === 0) this.stopAsking();
          resolve(ok);
        },
      };
      this.waiters.add(waiter);
      this.startAsking();
    });
  }

  /** Call after the revision moved. */
  check(): void {
    const now = this.reached();
    if (now === undefined) return;
    for (const w of [...this.waiters]) if (now >= w.rev) w.done(true);
  }

  cancelAll(): void {
    for (const w of [...this.waiters]) w.done(false);
  }

  private startAsking(): void {
    if (this.timer) return;
    this.requestProgress();
    this.timer = setInterval(() => this.requestProgress(), this.intervalMs);
    this.timer.unref?.();
  }

  private stopAsking(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
