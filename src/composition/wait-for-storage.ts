/**
 * Storage that does not answer at start is waited for, as kube-apiserver waits for etcd: the server serves (and
 * /readyz says why it is not ready) while this retries with backoff, logging each failure until storage answers.
 */
import type { StoragePort } from '../ports/storage.port';
import type { Log } from './log';

const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 30_000;

export async function untilStorageAnswers(storage: StoragePort, log: Log, describe: string, stopped: () => boolean): Promise<boolean> {
  let delay = FIRST_DELAY_MS;
  for (;;) {
    if (stopped()) return false;
    if (await storage.ping(2000)) return true;
    const reason = storage.lastPingFailure?.() ?? 'no answer';
    log('warn', `waiting for ${describe}`, { reason, retryInSeconds: delay / 1000 });
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(MAX_DELAY_MS, delay * 2);
  }
}
