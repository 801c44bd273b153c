/**
 * Periodic compaction, as kube-apiserver does it: every interval, compact to
 * the revision observed one interval earlier, so history always covers at
 * least one full interval.
 */
import type { StoragePort } from '../ports/storage.port';

export interface Compactor {
  stop(): void;
}

export function startCompactor(storage: StoragePort, intervalMs: number, log: (msg: string, extra?: object) => void): Compactor {
  if (intervalMs <= 0) return { stop() {} };
  let previous = 0;
  const tick = async () => {
    try {
      const current = await storage.currentRevision();
      if (previous > 0 && previous > (await storage.compactedRevision())) {
        await storage.compact(previous);
        log('compacted storage history', { revision: previous });
      }
      previous = current;
    } catch (e) {
      log('compaction failed', { error: (e as Error).message });
    }
  };
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  void tick();
  return { stop: () => clearInterval(timer) };
}
