/**
 * One byte budget for the watch-cache history of every kind together. When
 * the histories hold more, the oldest events go first, whichever kind they
 * belong to (each kind keeps at least its newest event).
 */
/** What the budget needs from a kind's history (BudgetedLog). */
export interface BudgetedLog {
  /** Time of the oldest event that may go, undefined when none may. */
  readonly oldestEvictable: number | undefined;
  /** Drops the oldest event; returns how many events went. */
  evictOldest(): number;
}

export class HistoryBudget {
  private readonly logs = new Set<BudgetedLog>();
  private used = 0;
  private pending: NodeJS.Immediate | undefined;

  constructor(readonly maxBytes: number) {}

  get bytes(): number {
    return this.used;
  }

  add(log: BudgetedLog): void {
    this.logs.add(log);
  }

  remove(log: BudgetedLog): void {
    this.logs.delete(log);
  }

  /** Adds bytes; when that goes over budget, evicts soon (not inside the caller, who may be reading an event). */
  charge(bytes: number): void {
    this.used += bytes;
    if (this.used > this.maxBytes && !this.pending) {
      this.pending = setImmediate(() => {
        this.pending = undefined;
        this.enforce();
      });
      this.pending.unref?.();
    }
  }

  release(bytes: number): void {
    this.used -= bytes;
  }

  /** Evicts oldest-first across kinds until within budget (or nothing more may go). */
  enforce(): void {
    while (this.used > this.maxBytes) {
      let oldest: BudgetedLog | undefined;
      let oldestTime = Infinity;
      for (const log of this.logs) {
        const t = log.oldestEvictable;
        if (t !== undefined && t < oldestTime) {
          oldest = log;
          oldestTime = t;
        }
      }
      if (!oldest || oldest.evictOldest() === 0) return;
    }
  }
}
