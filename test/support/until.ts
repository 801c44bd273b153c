/**
 * The one polling wait for tests: calls `probe` until it gives a value, then answers that value; fails with
 * a message naming what it waited for once `timeoutMs` has passed. A probe "gives a value" when it returns
 * anything but `undefined`, `null` or `false`, so both `() => events.length >= 3` and
 * `async () => (await get(name)).status?.certificate` work; the second answers the certificate.
 * A probe that throws ends the wait with its error (catch inside the probe to retry on errors).
 */
export interface UntilOptions {
  /** How long to keep probing, in all (default 10 s: generous on two shared cores). */
  timeoutMs?: number;
  /** The pause between two probes (default 25 ms). */
  intervalMs?: number;
  /** More to say when the wait times out: a process's output, what was seen instead. */
  onTimeout?: () => string;
}

export type Found<T> = Exclude<T, undefined | null | false>;

const given = <T>(v: T): v is Found<T> => v !== undefined && v !== null && v !== false;

export async function until<T>(what: string, probe: () => T | Promise<T>, options: UntilOptions = {}): Promise<Found<T>> {
  const { timeoutMs = 10_000, intervalMs = 25, onTimeout } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (given(v)) return v;
    if (Date.now() >= deadline) {
      const detail = onTimeout?.();
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${detail ? `: ${detail}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, Math.min(intervalMs, Math.max(0, deadline - Date.now()))));
  }
}
