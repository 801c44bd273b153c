/**
 * Memory back to the system soon after a burst of large writes. Request bodies of a few hundred KiB leave their
 * copies (the body, its text, the parsed object, the stored encoding) as garbage that V8 collects late once the
 * burst ends: its memory reducer starts only when a timer of 8 s finds the process idle, so after 300 replaces of a
 * 900 KB ConfigMap the process held 90-170 MiB more than it needed for 10-15 s. Here, once many body bytes have come
 * in since the last trim, the first quiet second (next to no requests and body bytes arriving) runs one full
 * collection; freed large buffers go back to the system with it (the image maps them on their own:
 * MALLOC_MMAP_THRESHOLD_). The collection stops the event loop for its length (tens of milliseconds with a cache of
 * 100,000 objects), which is why it waits for a quiet second rather than for the bytes alone.
 *
 * That collection cannot shrink the young generation, which the burst grew to its largest (32 MiB): V8 shrinks it
 * only in a collection that finds the allocation rate of the last five seconds low, and a second after the burst
 * it is not. Its memory reducer would, 8 s after the burst when it finds the process idle, and 16 s or more when
 * it does not. So a second collection follows `settleMs` later when the process stayed as quiet.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface HeapTrimOptions {
  /** Body bytes since the last trim after which the next quiet period trims (default 64 MiB). */
  afterBytes?: number;
  /** How long next to nothing must arrive before trimming (default 1 s). */
  quietMs?: number;
  /** After a trim, how long the process must stay quiet (at most quietBytes and quietRequests per quietMs) before
   * the second collection that shrinks the young generation (default 6 s: V8 judges the rate over five). */
  settleMs?: number;
  /** Body bytes a quiet period may still see (default 1 MiB). */
  quietBytes?: number;
  /** Requests a quiet period may still see (default 20). */
  quietRequests?: number;
  /** A full collection (default: V8's, see fullCollection). */
  collect?: () => void;
  /** Runs fn after ms without keeping the process alive (default: an unref'd setTimeout). */
  schedule?: (fn: () => void, ms: number) => void;
  /** Hears of each collection and how long it took (metrics). */
  onTrim?: (seconds: number) => void;
  /** Milliseconds of a monotonic clock (default: performance.now). */
  now?: () => number;
}

export class HeapTrimmer {
  private pending = 0;
  private sinceArmed = 0;
  private requestsSinceArmed = 0;
  private armed = false;
  /** A second collection is scheduled; what came in since the first. */
  private settling = false;
  private bytesSinceTrim = 0;
  private requestsSinceTrim = 0;
  private collectFn: (() => void) | undefined;

  constructor(private readonly opts: HeapTrimOptions = {}) {}

  /** A request has come in, with a body of `bytes` (0 without one). */
  noteRequest(bytes: number): void {
    this.requestsSinceArmed++;
    this.requestsSinceTrim++;
    if (bytes === 0) return;
    this.pending += bytes;
    this.sinceArmed += bytes;
    this.bytesSinceTrim += bytes;
    if (!this.armed && this.pending >= (this.opts.afterBytes ?? 64 * 1024 * 1024)) this.arm();
  }

  private arm(): void {
    this.armed = true;
    this.sinceArmed = 0;
    this.requestsSinceArmed = 0;
    this.schedule(() => this.check(), this.quietMs);
  }

  private get quietMs(): number {
    return this.opts.quietMs ?? 1000;
  }

  private get quietBytes(): number {
    return this.opts.quietBytes ?? 1024 * 1024;
  }

  private get quietRequests(): number {
    return this.opts.quietRequests ?? 20;
  }

  private schedule(fn: () => void, ms: number): void {
    (this.opts.schedule ?? ((f, t) => setTimeout(f, t).unref()))(fn, ms);
  }

  private check(): void {
    this.armed = false;
    // Still busy: wait for a quiet period; the collection would only find the garbage of requests under way.
    if (this.sinceArmed > this.quietBytes || this.requestsSinceArmed > this.quietRequests) return this.arm();
    this.pending = 0;
    this.collect();
    if (this.settling) return;
    this.settling = true;
    this.bytesSinceTrim = 0;
    this.requestsSinceTrim = 0;
    const settleMs = this.opts.settleMs ?? 6000;
    this.schedule(() => this.settle(settleMs), settleMs);
  }

  /** The second collection, unless requests came meanwhile (a new burst arms its own trim). */
  private settle(ms: number): void {
    this.settling = false;
    const periods = ms / this.quietMs;
    if (this.armed || this.bytesSinceTrim > periods * this.quietBytes || this.requestsSinceTrim > periods * this.quietRequests) return;
    this.collect();
  }

  private collect(): void {
    this.collectFn ??= this.opts.collect ?? fullCollection();
    const now = this.opts.now ?? (() => performance.now());
    const started = now();
    this.collectFn();
    this.opts.onTrim?.((now() - started) / 1000);
  }
}

/**
 * V8's full collection, without starting node with --expose-gc: a context created while the flag is set gets the
 * `gc` function. Only this module calls it.
 */
export function fullCollection(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') return exposed;
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as () => void;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}
