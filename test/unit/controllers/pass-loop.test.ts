/**
 * The controllers' pass loop is woken, not polling: while nothing changes
 * and nothing is due it holds no timer but its resync (fake timers count
 * them); a wake-up runs one pass, a burst of them one pass, a wake-up
 * during a pass one more after it; retries and resync are timers.
 */
import { startPassLoop, type PassLoop } from '../../../src/controllers/pass-loop';

/** Passes the test can watch: each resolves `next` as it starts, and ends when the test releases it (or at once). */
function passes() {
  let count = 0;
  let started: Array<() => void> = [];
  let hold: Promise<void> | undefined;
  let result: number | undefined | Error;
  return {
    get count() {
      return count;
    },
    /** Resolves when the next pass starts. */
    next: () => new Promise<void>((resolve) => started.push(resolve)),
    holdNext() {
      let release!: () => void;
      hold = new Promise((r) => (release = r));
      return release;
    },
    answer(r: number | undefined | Error) {
      result = r;
    },
    pass: async () => {
      count++;
      const waiting = started;
      started = [];
      waiting.forEach((r) => r());
      if (hold) await hold;
      hold = undefined;
      if (result instanceof Error) throw result;
      return result;
    },
  };
}

/** Lets pending setImmediate callbacks and promise reactions run (no time passes). */
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

describe('pass loop', () => {
  let loop: PassLoop | undefined;
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] }));
  afterEach(async () => {
    await loop?.stop();
    loop = undefined;
    jest.useRealTimers();
  });

  const start = (p: ReturnType<typeof passes>, resyncMs?: number) => {
    let wake!: () => void;
    let subscribed = 0;
    loop = startPassLoop({
      name: 'test',
      subscribe: (w) => {
        wake = w;
        subscribed++;
        return () => subscribed--;
      },
      pass: p.pass,
      log: () => undefined,
      resyncMs,
    });
    return { wake: () => wake(), subscribed: () => subscribed };
  };

  test('a first pass at start, then no timer at all until woken; a burst of wake-ups is one pass', async () => {
    const p = passes();
    const first = p.next();
    const { wake } = start(p);
    await first;
    await settle();
    expect(p.count).toBe(1);
    expect(jest.getTimerCount()).toBe(0);
    const second = p.next();
    wake();
    wake();
    wake();
    await second;
    await settle();
    expect(p.count).toBe(2);
    expect(jest.getTimerCount()).toBe(0);
  });

  test('a wake-up during a pass runs exactly one more pass after it', async () => {
    const p = passes();
    const release = p.holdNext();
    const first = p.next();
    const { wake } = start(p);
    await first;
    wake();
    wake();
    const second = p.next();
    release();
    await second;
    await settle();
    expect(p.count).toBe(2);
  });

  test('a pass that asks to run again, or fails, gets a timer for it; resync is a timer too', async () => {
    const p = passes();
    p.answer(5000);
    const first = p.next();
    start(p, 60_000);
    await first;
    await settle();
    // The retry and the resync.
    expect(jest.getTimerCount()).toBe(2);
    p.answer(new Error('storage unreachable'));
    const retried = p.next();
    jest.advanceTimersByTime(5000);
    await retried;
    await settle();
    expect(p.count).toBe(2);
    // Backoff after a failure: 1 s for the first.
    p.answer(undefined);
    const afterBackoff = p.next();
    jest.advanceTimersByTime(999);
    await settle();
    expect(p.count).toBe(2);
    jest.advanceTimersByTime(1);
    await afterBackoff;
    await settle();
    expect(p.count).toBe(3);
    // Only the resync is left, due a minute after the last pass began.
    expect(jest.getTimerCount()).toBe(1);
    const resynced = p.next();
    jest.advanceTimersByTime(60_000);
    await resynced;
    expect(p.count).toBe(4);
  });

  test('stop unsubscribes, clears its timers and waits for the running pass', async () => {
    const p = passes();
    p.answer(1000);
    const release = p.holdNext();
    const first = p.next();
    const { subscribed } = start(p, 60_000);
    await first;
    expect(subscribed()).toBe(1);
    const stopping = loop!.stop();
    release();
    await stopping;
    loop = undefined;
    expect(subscribed()).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
  });
});
