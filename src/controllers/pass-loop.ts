/**
 * The loop most controllers here run: a level-triggered pass over the
 * objects they care about whenever the watch cache reports a change, when a
 * pass asked to be retried (with backoff), and at a resync period. One pass
 * at a time; `stop` ends the loop and tells a running pass to write nothing
 * more.
 */
import { statusOf, type Log } from './controller-identity';
import type { RunningController } from './manager';

export interface PassLoopOptions {
  name: string;
  /** A counter that changes when anything the controller reads changes; -1 while unknown. */
  changes: () => number;
  /** One pass; resolves to a delay in ms after which to run again (undefined: only on change or resync). */
  pass: (stopped: () => boolean) => Promise<number | undefined>;
  log: Log;
  intervalMs?: number;
  resyncMs?: number;
  /** Wall time for the loop's own scheduling (not the policy's clock). */
  now?: () => number;
}

export interface PassLoop extends RunningController {
  /** Runs a pass now (or waits for the one running). */
  sync(): Promise<void>;
}

const maxBackoffMs = 60_000;

export function startPassLoop(opts: PassLoopOptions): PassLoop {
  const now = opts.now ?? Date.now;
  let seen = Number.NaN;
  let due = 0;
  let lastPass = 0;
  let failures = 0;
  let stopped = false;
  let running: Promise<void> | undefined;

  const sync = (): Promise<void> => {
    running ??= (async () => {
      lastPass = now();
      const before = opts.changes();
      try {
        const again = await opts.pass(() => stopped);
        failures = 0;
        seen = before;
        due = again === undefined ? 0 : now() + again;
      } catch (e) {
        failures++;
        due = now() + Math.min(maxBackoffMs, 500 * 2 ** Math.min(failures, 7));
        opts.log('warn', `${opts.name} pass failed`, { error: (e as Error).message });
      }
    })().finally(() => (running = undefined));
    return running;
  };

  const timer = setInterval(() => {
    if (running || stopped) return;
    const changed = opts.changes() !== seen;
    const retry = due > 0 && now() >= due;
    const resync = opts.resyncMs !== undefined && now() - lastPass >= opts.resyncMs;
    if (changed || retry || resync) void sync();
  }, opts.intervalMs ?? 200);
  timer.unref?.();

  return {
    sync,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/**
 * One pass's work over listed objects: each handled in turn. A conflict or an
 * object gone meanwhile waits for the next pass (the cache shows the new
 * state); other failures are reported and the pass asks to run again soon.
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
