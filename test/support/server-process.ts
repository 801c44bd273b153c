/**
 * The real server process (`node dist/main.js`, built by `npm test` before
 * jest runs) on a free loopback port, stopped by the test that started it.
 */
import { spawn, ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const distMain = resolve(__dirname, '../../dist/main.js');

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

export interface ServerProcess {
  url: string;
  port: number;
  dataDir: string;
  logs(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startServerProcess(args: string[] = [], opts: { dataDir?: string } = {}): Promise<ServerProcess> {
  if (!existsSync(distMain)) throw new Error(`${distMain} is missing: run \`npm run build\` (npm test does it first)`);
  const port = await freePort();
  const ownDir = !opts.dataDir;
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'svc-e2e-'));
  const child: ChildProcess = spawn(process.execPath, [distMain, '--port', String(port), '--data-dir', dataDir, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${output}`);
    try {
      const r = await fetch(`${url}/readyz`);
      if (r.status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become ready: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    port,
    dataDir,
    logs: () => output,
    stop: (signal: NodeJS.Signals = 'SIGTERM') =>
      new Promise((res) => {
        if (child.exitCode !== null) return res(child.exitCode);
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', (code) => {
          clearTimeout(timer);
          if (ownDir && signal !== 'SIGKILL') rmSync(dataDir, { recursive: true, force: true });
          res(code);
        });
        child.kill(signal);
      }),
  };
}
