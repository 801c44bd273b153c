/**
 * Fair dispatch of requests over a fixed number of execution seats, in the
 * spirit of upstream's API Priority and Fairness: each flow (a user) waits in
 * its own queue, and a freed seat goes to the next flow in turn, so one
 * client's storm delays the others by at most its share of the seats.
 * Pure bookkeeping: the caller owns timers and sockets.
 */

/**
 * Seats per pool unless configured: enough to keep storage busy from one
 * event loop, few enough that a turn-taking queue decides who runs next.
 */
export const defaultSeats = 16;

export interface FairQueueLimits {
  /** Requests that execute at once. */
  seats: number;
  /** Requests of one flow waiting for a seat; past it the flow is refused. */
  queueLength: number;
  /** Requests executing and waiting together; past it every flow is refused. */
  admitted: number;
}

/** A request that got in: it has started or waits for a seat. */
export interface Ticket {
  /** Takes a waiting request out of its queue; false when it has already started. */
  withdraw(): boolean;
}

interface Waiter {
  start: () => void;
  queued: boolean;
}

export class FairQueues {
  private executing = 0;
  private waiting = 0;
  /** Flows with waiters, in the order they are served next (Map keeps insertion order). */
  private readonly queues = new Map<string, Waiter[]>();

  constructor(private readonly limits: FairQueueLimits) {}

  get executingCount(): number {
    return this.executing;
  }

  get waitingCount(): number {
    return this.waiting;
  }

  /**
   * Starts the request now when a seat is free and nobody waits, or queues it
   * behind its own flow. Undefined when refused (the caller answers 429).
   */
  enter(flow: string, start: () => void): Ticket | undefined {
    if (this.executing + this.waiting >= this.limits.admitted) return undefined;
    if (this.executing < this.limits.seats && this.waiting === 0) {
      this.executing++;
      start();
      return { withdraw: () => false };
    }
    const queue = this.queues.get(flow) ?? [];
    if (queue.length >= this.limits.queueLength) return undefined;
    const waiter: Waiter = { start, queued: true };
    queue.push(waiter);
    if (queue.length === 1) this.queues.set(flow, queue);
    this.waiting++;
    return {
      withdraw: () => {
        if (!waiter.queued) return false;
        waiter.queued = false;
        queue.splice(queue.indexOf(waiter), 1);
        if (!queue.length) this.queues.delete(flow);
        this.waiting--;
        return true;
      },
    };
  }

  /** A started request finished: its seat goes to the next flow in turn. */
  leave(): void {
    this.executing--;
    this.dispatch();
  }

  private dispatch(): void {
    while (this.executing < this.limits.seats && this.waiting > 0) {
      const [flow, queue] = this.queues.entries().next().value as [string, Waiter[]];
      const waiter = queue.shift()!;
      // The flow goes to the back of the line (or leaves it when served out).
      this.queues.delete(flow);
      if (queue.length) this.queues.set(flow, queue);
      waiter.queued = false;
      this.waiting--;
      this.executing++;
      waiter.start();
    }
  }
}
