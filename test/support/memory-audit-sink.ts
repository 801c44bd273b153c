/** An audit sink that keeps every line, for tests that read the events a server wrote. */
import type { AuditSinkPort } from '../../src/ports/audit.port';

export class MemorySink implements AuditSinkPort {
  lines: string[] = [];
  async write(lines: string[]) {
    this.lines.push(...lines);
  }
  async close() {}
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  events(): any[] {
    return this.lines.map((l) => JSON.parse(l));
  }
}
