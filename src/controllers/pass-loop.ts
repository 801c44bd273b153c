/**
 * The loop the controllers here run: a level-triggered pass over the
 * objects they care about when the watch cache wakes them (changes of the
 * kinds they read), when a pass asked to run again (retry with backoff, or a
 * wait it knows the length of), and at a resync period. Nothing polls: while
 * nothing changes and nothing is due, a controller holds no timer but its
 * resync. One pass at a time; a wake-up during a pass runs another after it.
 * `stop` ends the loop and tells a running pass to write nothing more.
 */
import { statusOf, type Log } from './controller-identity';
import type { RunningController } from './manager';

export interface PassLoopOptions {
  name: string;
  /** Subscribes the loop's wake-up to changes of what it reads; returns the unsubscribe (see changes.ts). */
  subscribe?: (wake: () => void) => () => void;
  /** One pass; resolves to a delay in ms after which to run again (undefined: only when woken or at resync). */
  pass: (stopped: () => boolean) => Promise<number | undefined>;
  log: Log;
  /** A pass at least this long after the last one began, changes or not (upstream's resync period). */
  resyncMs?: number;
}

export interface PassLoop extends RunningController {
  /** Runs a pass now (or waits for the one running). */
  sync(): Promise<void>;
  stop(): Promise<void>;
}

const maxBackoffMs = 60_000;

export function startPassLoop(opts: PassLoopOptions): PassLoop {
  let stopped = false;
  /** Something happened since the last pass began: the first pass is due at once. */
  let due = true;
  let queued = false;
  let failures = 0;
  let running: Promise<void> | undefined;
  let again: NodeJS.Timeout | undefined;
  let resync: NodeJS.Timeout | undefined;

  const wake = () => {
    due = true;
    if (running || queued || stopped) return;
    // Outside the caller (the cache's event handling, a timer): a burst of wake-ups makes one pass.
    queued = true;
    setImmediate(() => {
      queued = false;
      if (due && !running && !stopped) void sync();
    });
  };
  const after = (ms: number) => {
    const t = setTimeout(wake, ms);
    t.unref?.();
    return t;
  };

  const sync = (): Promise<void> => {
    running ??= (async () => {
      due = false;
      clearTimeout(again);
      clearTimeout(resync);
      if (opts.resyncMs !== undefined) resync = after(opts.resyncMs);
      let delay: number | undefined;
      try {
        delay = await opts.pass(() => stopped);
        failures = 0;
      } catch (e) {
        failures++;
        delay = Math.min(maxBackoffMs, 500 * 2 ** Math.min(failures, 7));
        opts.log('warn', `${opts.name} pass failed`, { error: (e as Error).message });
      }
      if (delay !== undefined && !stopped) again = after(delay);
    })().finally(() => {
      running = undefined;
      if (due) wake();
    });
    return running;
  };

  const unsubscribe = opts.subscribe?.(wake);
  wake();
  return {
    sync,
    async stop() {
      stopped = true;
      unsubscribe?.();
      clearTimeout(again);
      clearTimeout(resync);
      await running;
    },
  };
}

/**
 * One pass's work over listed objects: each handled in turn. A conflict or an
 * object gone meanwhile waits for the next pass (the cache shows the new
 * state, and its change wakes the loop); other failures are reported and the
 * pass asks to run again soon.
 */
export async function handleEach<T>(items: T[], stopped: () => boolean, handle: (item: T) => Promise<void>, failed: (item: T, e: unknown) => void): Promise<number | undefined> {
  let retry = false;
  for (const item of items) {
    if (stopped()) return undefined;
    try {
      await handle(item);
    } catch (e) {
      if (statusOf(e) === 409 || statusOf(e) === 404) continue;
      retry = true;
      failed(item, e);
    }
  }
  return retry ? 2000 : undefined;
}
