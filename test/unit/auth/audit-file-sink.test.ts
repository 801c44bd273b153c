import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileAuditSink } from '../../../src/adapters/audit';

describe('audit log file', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'audit-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('appends batches in order, and rotates at maxsize keeping maxbackup files', async () => {
    const path = join(dir, 'audit.log');
    const sink = new FileAuditSink({ path, maxSizeMB: 1, maxBackups: 2 });
    const line = 'x'.repeat(1000);
    for (let b = 0; b < 40; b++) await sink.write(Array.from({ length: 100 }, (_, i) => `${b * 100 + i} ${line}`));
    await sink.close();
    const files = readdirSync(dir).sort();
    expect(files).toEqual(['audit.log', 'audit.log.1', 'audit.log.2']);
    const newest = readFileSync(path, 'utf8').trim().split('\n');
    expect(newest.at(-1)).toBe(`3999 ${line}`);
    const numbers = [...readFileSync(`${path}.1`, 'utf8').trim().split('\n'), ...newest].map((l) => Number(l.split(' ')[0]));
    expect(numbers).toEqual(numbers.map((_, i) => numbers[0] + i));
  });
});
