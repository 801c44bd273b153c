/**
 * Whether this etcd cluster's answers to a watch progress request can be
 * trusted, as upstream decides it: every member's version must be one where
 * the answer cannot overtake an event still queued for the watcher (fixed in
 * 3.4.25 and 3.5.8) nor report progress a watcher has not reached (fixed in
 * 3.4.31 and 3.5.13). Until the members have answered, it is not trusted;
 * a member that does not answer is asked again, with backoff, until it does.
 */

/** `major.minor.patch` with an optional pre-release, as etcd reports its version; a pre-release sorts before its release. */
export function progressRequestsSound(version: string): boolean {
  const m = /^v?(\d+)\.(\d+)\.(\d+)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.exec(version.trim());
  if (!m) return false; // unknown: not trusted
  const [major, minor, patch] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const release = m[4] === undefined;
  const atLeast = (p: number) => patch > p || (patch === p && release);
  if (major !== 3) return major > 3;
  if (minor === 4) return atLeast(31);
  if (minor === 5) return atLeast(13);
  return minor > 5;
}

const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 15_000;

export class ProgressSupport {
  /** undefined until every member answered (or one answered with a version that is not sound). */
  private verdict: boolean | undefined;
  private readonly pending = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;
  private resolve!: (supported: boolean) => void;
  /** Resolves with the verdict once it is known (false if stopped before). */
  readonly settled = new Promise<boolean>((r) => (this.resolve = r));

  constructor(
    endpoints: readonly string[],
    /** The version a member reports (etcd's Maintenance Status). */
    private readonly versionOf: (endpoint: string) => Promise<string>,
  ) {
    for (const ep of new Set(endpoints)) this.pending.add(ep);
    for (const ep of this.pending) void this.ask(ep, FIRST_RETRY_MS);
  }

  get supported(): boolean {
    return this.verdict === true;
  }

  stop(): void {
    this.stopped = true;
    this.resolve(false);
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private async ask(endpoint: string, retryMs: number): Promise<void> {
    if (this.stopped || this.verdict === false) return;
    let version: string;
    try {
      version = await this.versionOf(endpoint);
    } catch {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        void this.ask(endpoint, Math.min(MAX_RETRY_MS, retryMs * 2));
      }, retryMs);
      timer.unref();
      this.timers.add(timer);
      return;
    }
    if (this.stopped) return;
    this.pending.delete(endpoint);
    if (!progressRequestsSound(version)) this.verdict = false;
    else if (this.pending.size === 0 && this.verdict === undefined) this.verdict = true;
    if (this.verdict !== undefined) this.resolve(this.verdict);
  }
}
