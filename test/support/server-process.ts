/**
 * The real server process (`node dist/main.js`, built by `npm test` before
 * jest runs) on a free loopback port, stopped by the test that started it.
 */
import { spawn, ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync, readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
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
  /** Plain-HTTP URL (system:admin), empty when started with `secureOnly`. */
  url: string;
  port: number;
  /** HTTPS URL with authentication and authorization. */
  secureUrl: string;
  securePort: number;
  /** The admin kubeconfig the server wrote on first start. */
  kubeconfig: string;
  dataDir: string;
  logs(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** GET over HTTPS with the admin kubeconfig's client certificate; the status code, or 0 when unreachable. */
export function adminHttpsStatus(kubeconfig: string, url: string): Promise<number> {
  return new Promise((res) => {
    let creds;
    try {
      const text = readFileSync(kubeconfig, 'utf8');
      const field = (k: string) => Buffer.from(new RegExp(`${k}: (\\S+)`).exec(text)![1], 'base64');
      creds = { ca: field('certificate-authority-data'), cert: field('client-certificate-data'), key: field('client-key-data') };
    } catch {
      return res(0);
    }
    const r = httpsRequest(url, { ...creds, timeout: 2000 }, (resp) => {
      resp.resume();
      res(resp.statusCode ?? 0);
    });
    r.on('error', () => res(0));
    r.on('timeout', () => r.destroy());
    r.end();
  });
}

/** The server exited because a port was taken between freePort() and its listen. */
class PortTaken extends Error {
  constructor(
    readonly port: number,
    message: string,
  ) {
    super(message);
  }
}

export async function startServerProcess(
  args: string[] = [],
  opts: { dataDir?: string; secureOnly?: boolean; /** For tests of this function: how ports are picked. */ pickPort?: () => Promise<number> } = {},
): Promise<ServerProcess> {
  const pick = opts.pickPort ?? freePort;
  if (!existsSync(distMain)) throw new Error(`${distMain} is missing: run \`npm run build\` (npm test does it first)`);
  const given = args.indexOf('--secure-port');
  const ownDir = !opts.dataDir;
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'svc-e2e-'));
  for (let attempt = 1; ; attempt++) {
    const port = opts.secureOnly ? 0 : await pick();
    const securePort = given >= 0 ? Number(args[given + 1]) : await pick();
    try {
      return await startOnce(args, opts, { port, securePort, dataDir, ownDir });
    } catch (e) {
      // A free port can be taken before the server listens on it (another test's server, or the local port of an
      // outgoing connection): pick others, unless the test chose the port that was taken.
      const picked = [...(opts.secureOnly ? [] : [port]), ...(given >= 0 ? [] : [securePort])];
      if (e instanceof PortTaken && picked.includes(e.port) && attempt < 3) continue;
      throw e;
    }
  }
}

async function startOnce(
  args: string[],
  opts: { secureOnly?: boolean },
  { port, securePort, dataDir, ownDir }: { port: number; securePort: number; dataDir: string; ownDir: boolean },
): Promise<ServerProcess> {
  // kube-root-ca.crt in every namespace would show up in the many tests that list ConfigMaps exactly;
  // the publisher has its own test (test/controllers/root-ca-publisher.http.test.ts).
  const controllers = args.some((a) => a.startsWith('--controllers')) ? [] : ['--controllers=*,-root-ca-certificate-publisher-controller'];
  const given = args.indexOf('--secure-port');
  // On either store the kubeconfig is <data-dir>/admin.kubeconfig (--cert-dir moves only the PKI).
  const kubeconfig = join(dataDir, 'admin.kubeconfig');
  const child: ChildProcess = spawn(
    process.execPath,
    [distMain, ...(opts.secureOnly ? [] : ['--port', String(port)]), ...(given >= 0 ? [] : ['--secure-port', String(securePort)]), '--data-dir', dataDir, ...controllers, ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const url = opts.secureOnly ? '' : `http://127.0.0.1:${port}`;
  const secureUrl = `https://127.0.0.1:${securePort}`;
  // A start takes 1.5-2 s of CPU; on a shared 2-core machine under load (average 20) that was over 15 s of wall time.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      const taken = /cannot listen on .* --(?:secure-)?port (\d+): another process already uses that address and port/.exec(output);
      if (taken) throw new PortTaken(Number(taken[1]), `server exited with ${child.exitCode}: ${output}`);
      throw new Error(`server exited with ${child.exitCode}: ${output}`);
    }
    if (opts.secureOnly) {
      if (existsSync(kubeconfig) && (await adminHttpsStatus(kubeconfig, `${secureUrl}/readyz`)) === 200) break;
    } else {
      try {
        // Bounded: a port taken by another process may take the connection and never answer.
        const r = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) });
        // The kubeconfig is written once the HTTPS port listens, just before the plain port opens.
        if (r.status === 200 && existsSync(kubeconfig)) break;
      } catch {
        /* not listening yet */
      }
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
    secureUrl,
    securePort,
    kubeconfig,
    dataDir,
    logs: () => output,
    stop: (signal: NodeJS.Signals = 'SIGTERM') =>
      new Promise((res) => {
        // A process killed by a signal has no exit code, only a signal code.
        if (child.exitCode !== null || child.signalCode !== null) return res(child.exitCode);
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
