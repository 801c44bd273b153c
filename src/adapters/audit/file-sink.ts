/**
 * Audit lines appended to `--audit-log-path` by a background writer: the
 * request only queues its line. Rotation at `--audit-log-maxsize` MB keeps
 * `--audit-log-maxbackup` old files (path.1 is the newest; 0 keeps all). "-" writes to stdout.
 */
import { createWriteStream, existsSync, renameSync, rmSync, statSync, WriteStream } from 'node:fs';
import type { AuditSinkPort } from '../../ports/audit.port';

export interface FileSinkOptions {
  path: string;
  maxSizeMB: number;
  maxBackups: number;
  /** Lines queued beyond this are dropped (and counted) rather than growing memory. */
  maxQueuedLines?: number;
}

export class FileAuditSink implements AuditSinkPort {
  private queue: string[] = [];
  private stream: WriteStream | NodeJS.WriteStream;
  private size = 0;
  private writing = false;
  private closed = false;
  dropped = 0;

  constructor(private readonly opts: FileSinkOptions) {
    this.stream = this.open();
  }

  private open(): WriteStream | NodeJS.WriteStream {
    if (this.opts.path === '-') return process.stdout;
    this.size = existsSync(this.opts.path) ? statSync(this.opts.path).size : 0;
    return createWriteStream(this.opts.path, { flags: 'a', mode: 0o600 });
  }

  write(line: string): void {
    if (this.closed) return;
    if (this.queue.length >= (this.opts.maxQueuedLines ?? 100_000)) {
      this.dropped++;
      return;
    }
    this.queue.push(line);
    if (!this.writing) {
      this.writing = true;
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    // Writes go out in batches of about 256 KiB so that rotation happens near maxsize.
    let bytes = 0;
    let n = 0;
    while (n < this.queue.length && bytes < 256 * 1024) bytes += this.queue[n++].length + 1;
    const lines = this.queue.splice(0, n);
    if (lines.length === 0) {
      this.writing = false;
      return;
    }
    const text = lines.join('\n') + '\n';
    this.size += Buffer.byteLength(text);
    this.stream.write(text, () => {
      if (this.opts.path !== '-' && this.opts.maxSizeMB > 0 && this.size >= this.opts.maxSizeMB * 1024 * 1024) this.rotate();
      this.flush();
    });
  }

  private rotate(): void {
    const { path, maxBackups } = this.opts;
    (this.stream as WriteStream).end();
    // 0 backups means no limit (as upstream): keep every rotated file under a timestamped name.
    if (maxBackups <= 0) renameSync(path, `${path}.${new Date().toISOString().replace(/[:.]/g, '-')}`);
    else {
      rmSync(`${path}.${maxBackups}`, { force: true });
      for (let i = maxBackups - 1; i >= 1; i--) if (existsSync(`${path}.${i}`)) renameSync(`${path}.${i}`, `${path}.${i + 1}`);
      renameSync(path, `${path}.1`);
    }
    this.stream = this.open();
  }

  async close(): Promise<void> {
    this.closed = true;
    while (this.writing) await new Promise((r) => setTimeout(r, 5));
    if (this.opts.path !== '-') await new Promise<void>((r) => (this.stream as WriteStream).end(() => r()));
  }
}
