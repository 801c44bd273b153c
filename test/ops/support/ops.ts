/**
 * What the ops suite shares: temporary directories, the built server started as a user starts it
 * (`node dist/main.js`, output kept), bounded waits, and timed plain-HTTP requests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { distMain } from '../../support/server-process';

export const repo = resolve(__dirname, '../../..');

const made: string[] = [];
export function tempDir(name: string): string {
  const d = mkdtempSync(join(tmpdir(), `svc-ops-${name}-`));
  made.push(d);
  return d;
}
export function removeTempDirs(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}

export interface Proc {
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code once the process is gone (SIGKILL after 15 s). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const procs = new Set<Proc>();

export function startProc(program: string, args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Proc {
  const child = spawn(program, args, { cwd: opts.cwd, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out = (out + d).slice(-200_000)));
  child.stderr!.on('data', (d) => (out = (out + d).slice(-200_000)));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const proc: Proc = {
    child,
    output: () => out,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill(signal);
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
      procs.delete(proc);
      return child.exitCode;
    },
  };
  procs.add(proc);
  return proc;
}

/** `node dist/main.js ARGS`, as a user starts the built server. */
export const startServer = (args: string[], opts: { cwd?: string } = {}) => startProc(process.execPath, [distMain, ...args], opts);

export async function stopAll(): Promise<void> {
  await Promise.all([...procs].map((p) => p.stop()));
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `pred` every 100 ms for at most `timeoutMs`; fails with what it waited for (and the process's output). */
export async function until(what: string, pred: () => Promise<boolean> | boolean, opts: { timeoutMs?: number; proc?: Proc } = {}): Promise<void> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  while (!(await pred())) {
    if (opts.proc && opts.proc.child.exitCode !== null) throw new Error(`${what}: the process exited with ${opts.proc.child.exitCode}:\n${opts.proc.output()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${opts.proc ? `:\n${opts.proc.output().slice(-5000)}` : ''}`);
    await sleep(100);
  }
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  ms: number;
}

/** A request to the plain-HTTP port (system:admin), timed; status 0 when nothing answered within 30 s. */
export async function call(url: string, init: { method?: string; body?: unknown } = {}): Promise<Answer> {
  const started = performance.now();
  try {
    const res = await fetch(url, {
      method: init.method ?? 'GET',
      headers: init.body === undefined ? {} : { 'Content-Type': init.method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, ms: performance.now() - started };
  } catch {
    return { status: 0, headers: new Headers(), text: '', ms: performance.now() - started };
  }
}

export async function readyz(base: string): Promise<Answer> {
  return call(`${base}/readyz?verbose`);
}
