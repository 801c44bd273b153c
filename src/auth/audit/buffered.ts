/**
 * Upstream's buffered audit backend: a request hands its event over and goes
 * on; a background loop encodes events in batches and writes them to the
 * sink, one batch at a time. The buffer is bounded, and what happens when it
 * is full is a policy (`--audit-log-mode`):
 *  - block (mode "blocking", the default): no event is ever dropped; new
 *    requests wait for room before they are admitted (events of requests
 *    already admitted are always taken, so the buffer may run over by them);
 *  - drop (mode "batch", as upstream's batch mode): an event that finds the
 *    buffer full is dropped and counted in apiserver_audit_error_total.
 * Closing writes out everything buffered (graceful shutdown loses nothing).
 */
import type { AuditSinkPort } from '../../ports/audit.port';

export type AuditFullPolicy = 'block' | 'drop';

export interface BufferedAuditOptions {
  /** Events held at most before the policy applies (upstream's --audit-log-batch-buffer-size). */
  bufferSize: number;
  /** Events encoded and written per batch. */
  batchMaxSize: number;
  whenFull: AuditFullPolicy;
}

export const defaultBufferedAudit: BufferedAuditOptions = { bufferSize: 10_000, batchMaxSize: 400, whenFull: 'block' };

/** Upstream's counters: apiserver_audit_event_total and apiserver_audit_error_total{plugin}. */
export interface AuditCounters {
  event(): void;
  error(plugin: string, count: number): void;
}

/** An event, encoded only when its batch is written (off the request's path). */
export type PendingEvent = () => string;

export class BufferedAuditBackend {
  private buffer: PendingEvent[] = [];
  private flushing = false;
  private closed = false;
  private idle: Array<() => void> = [];
  private roomWaiters: Array<() => void> = [];

  constructor(
    private readonly sink: AuditSinkPort,
    private readonly opts: BufferedAuditOptions = defaultBufferedAudit,
    private readonly counters?: AuditCounters,
  ) {}

  /** Events waiting to be written. */
  get buffered(): number {
    return this.buffer.length;
  }

  /** Undefined when a new request may start now; else resolves once the buffer has room (policy block only). */
  room(): Promise<void> | undefined {
    if (this.opts.whenFull !== 'block' || this.buffer.length < this.opts.bufferSize) return undefined;
    return new Promise((resolve) => this.roomWaiters.push(resolve));
  }

  process(event: PendingEvent): void {
    if (this.closed) return this.counters?.error('buffered', 1);
    this.counters?.event();
    if (this.opts.whenFull === 'drop' && this.buffer.length >= this.opts.bufferSize) return this.counters?.error('buffered', 1);
    this.buffer.push(event);
    if (!this.flushing) {
      this.flushing = true;
      setImmediate(() => void this.flush());
    }
  }

  private async flush(): Promise<void> {
    while (this.buffer.length) {
      const batch = this.buffer.splice(0, this.opts.batchMaxSize);
      this.wakeRoomWaiters();
      const lines: string[] = [];
      for (const encode of batch) {
        try {
          lines.push(encode());
        } catch {
          this.counters?.error('buffered', 1);
        }
      }
      try {
        await this.sink.write(lines);
      } catch {
        this.counters?.error('log', lines.length);
      }
    }
    this.flushing = false;
    for (const done of this.idle.splice(0)) done();
  }

  private wakeRoomWaiters(): void {
    while (this.roomWaiters.length && this.buffer.length < this.opts.bufferSize) this.roomWaiters.shift()!();
  }

  /** Resolves once every event handed over so far is written. */
  async flushed(): Promise<void> {
    while (this.flushing || this.buffer.length) await new Promise<void>((r) => this.idle.push(r));
  }

  /** Writes out every buffered event, then closes the sink. Events that come later are counted as errors. */
  async close(): Promise<void> {
    await this.flushed();
    this.closed = true;
    for (const w of this.roomWaiters.splice(0)) w();
    await this.sink.close();
  }
}
