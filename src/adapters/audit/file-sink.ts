/**
 * Audit lines appended to `--audit-log-path`, a batch at a time as the
 * buffered backend (auth/audit/buffered.ts) hands them over. Rotation at
 * `--audit-log-maxsize` MB keeps `--audit-log-maxbackup` old files (path.1 is
 * the newest; 0 keeps all). "-" writes to stdout.
 */
import { createWriteStream, existsSync, renameSync, rmSync, statSync, WriteStream } from 'node:fs';
import type { AuditSinkPort } from '../../ports/audit.port';

export interface FileSinkOptions {
  path: string;
  maxSizeMB: number;
  maxBackups: number;
}

export class FileAuditSink implements AuditSinkPort {
  private stream: WriteStream | NodeJS.WriteStream;
  private size = 0;

  constructor(private readonly opts: FileSinkOptions) {
    this.stream = this.open();
  }

  private open(): WriteStream | NodeJS.WriteStream {
    if (this.opts.path === '-') return process.stdout;
    this.size = existsSync(this.opts.path) ? statSync(this.opts.path).size : 0;
    return createWriteStream(this.opts.path, { flags: 'a', mode: 0o600 });
  }

  async write(lines: string[]): Promise<void> {
    if (!lines.length) return;
    const text = lines.join('\n') + '\n';
    this.size += Buffer.byteLength(text);
    await new Promise<void>((resolve, reject) => this.stream.write(text, (e) => (e ? reject(e) : resolve())));
    if (this.opts.path !== '-' && this.opts.maxSizeMB > 0 && this.size >= this.opts.maxSizeMB * 1024 * 1024) this.rotate();
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
    if (this.opts.path !== '-') await new Promise<void>((r) => (this.stream as WriteStream).end(() => r()));
  }
}
