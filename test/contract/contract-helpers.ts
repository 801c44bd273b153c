/** Small helpers shared by the storage contract suites. */
import { randomBytes } from 'node:crypto';
import type { StorageEvent, WatchCallbacks } from '../../src/ports/storage.port';
import { until } from '../support/until';

export const buf = (s: string): Buffer => Buffer.from(s);

/** A key prefix no other test uses. */
export const freshPrefix = (): string => `/contract-${randomBytes(6).toString('hex')}/`;

export { until };

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Records everything a watch delivers. */
export class WatchRecorder {
  readonly events: StorageEvent[] = [];
  readonly progress: number[] = [];
  readonly errors: Error[] = [];

  readonly callbacks: WatchCallbacks = {
    onEvents: (events) => this.events.push(...events),
    onProgress: (rev) => this.progress.push(rev),
    onError: (err) => this.errors.push(err),
  };

  waitForEvents(n: number, timeoutMs = 5000): Promise<void> {
    return until(`${n} watch events`, () => this.events.length >= n || this.errors.length > 0, { timeoutMs, onTimeout: () => `have ${this.events.length}` }).then(
      () => {
        if (this.errors.length) throw this.errors[0];
      },
    );
  }

  waitForError(timeoutMs = 5000): Promise<Error> {
    return until('a watch error', () => this.errors.length > 0, { timeoutMs }).then(() => this.errors[0]);
  }

  /**
   * The events up to and including the first at or past revision `rev`, once it has come: the barrier for "nothing
   * more came". Write a key this watch must deliver after the action under test and pass its revision; events come in
   * revision order, so anything else the action made it deliver is in the answer before it.
   */
  async through(rev: number, timeoutMs = 5000): Promise<StorageEvent[]> {
    const at = () => this.events.findIndex((e) => e.modRevision >= rev);
    await until(`the event at revision ${rev}`, () => at() >= 0 || this.errors.length > 0, { timeoutMs, onTimeout: () => `have ${this.events.length}` });
    if (this.errors.length) throw this.errors[0];
    return this.events.slice(0, at() + 1);
  }

  /** Summary used in assertions: type, key (without prefix), value. */
  summary(prefix: string): string[] {
    return this.events.map(
      (e) => `${e.type} ${e.key.slice(prefix.length)} ${e.value?.toString() ?? '-'}`,
    );
  }
}
