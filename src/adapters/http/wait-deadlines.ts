/**
 * Deadlines of requests waiting for a flow-control seat. One timer sweeps
 * them all: a timer per waiting request (armed, then cleared when a seat
 * frees, which is nearly always) cost every queued request a Timeout object
 * and two timer-list operations.
 */

/** How often the sweep runs: a waiter is refused at most this much after its deadline. */
const sweepMs = 100;

interface Waiting {
  deadline: number;
  /**
   * Dropped when the wait ends. The Set leaves old tables behind as waiters come and go; while one is garbage in the
   * old generation a minor collection still reads it, and a callback there (it holds the request and its response)
   * kept the whole request alive and promoted it, until a major collection.
   */
  expire: (() => void) | undefined;
}

export class WaitDeadlines {
  private readonly waiting = new Set<Waiting>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly waitMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Calls `expire` once the wait is over unless the returned cancel is called first. */
  add(expire: () => void): () => void {
    const w: Waiting = { deadline: this.now() + this.waitMs, expire };
    this.waiting.add(w);
    if (!this.timer) {
      this.timer = setInterval(() => this.sweep(), sweepMs);
      this.timer.unref();
    }
    return () => this.remove(w);
  }

  private remove(w: Waiting): void {
    this.waiting.delete(w);
    w.expire = undefined;
    if (this.waiting.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private sweep(): void {
    const now = this.now();
    // Insertion order is deadline order (one wait for all), so the sweep stops at the first that is still in time.
    for (const w of this.waiting) {
      if (w.deadline > now) break;
      const expire = w.expire!;
      this.remove(w);
      expire();
    }
  }
}
