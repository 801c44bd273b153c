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

  /** Summary used in assertions: type, key (without prefix), value, prevValue. */
  summary(prefix: string): string[] {
    return this.events.map(
      (e) => `${e.type} ${e.key.slice(prefix.length)} ${e.value?.toString() ?? '-'} ${e.prevValue?.toString() ?? '-'}`,
    );
  }
}
