/**
 * Starts throwaway etcd servers for tests: free 127.0.0.1 ports, a temporary
 * data dir (on tmpfs when available, so fsyncs are cheap), bounded waits.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

export interface EtcdInstance {
  /** Client URL, e.g. http://127.0.0.1:23791 */
  endpoint: string;
  dataDir: string;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s); data stays for restart(). */
  stop(): Promise<void>;
  /** Stops (if running) and starts again on the same ports and data dir. */
  restart(): Promise<void>;
  /** stop(), then removes the data dir if the harness created it. */
  cleanup(): Promise<void>;
  /** Freezes the process (SIGSTOP): connections stay open and nothing answers, as with a hung etcd. */
  pause(): void;
  /** Thaws a paused process (SIGCONT). */
  resume(): void;
}

export interface StartEtcdOptions {
  dataDir?: string;
  clientPort?: number;
  /** etcd's --experimental-watch-progress-notify-interval (default 1s). */
  progressNotifyInterval?: string;
  /** Serve clients over TLS (https:// endpoint) and require client certificates signed by `ca`. */
  tls?: EtcdTlsFiles;
}

/** PEM files for an etcd with --client-cert-auth, and a client certificate for the harness's own health probe. */
export interface EtcdTlsFiles {
  ca: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
}

const INSTALL_HINT = 'etcd is not installed: install it with `apt-get install etcd-server` (or point ETCD_SERVERS at a running etcd)';

function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Path of the etcd binary, installing it with apt-get when running as root. */
export function ensureEtcdBinary(): string {
  return ensureDebianTool('etcd', 'etcd-server');
}

/** Path of a program, installing its Debian package with apt-get when it is missing and this runs as root. */
export function ensureDebianTool(program: string, debianPackage: string): string {
  const hint = `${program} is not installed: install it with \`apt-get install ${debianPackage}\``;
  const found = findOnPath(program);
  if (found) return found;
  if (process.getuid?.() !== 0) throw new Error(program === 'etcd' ? INSTALL_HINT : hint);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () => spawnSync('apt-get', ['install', '-y', debianPackage], { stdio: 'inherit', env }).status === 0;
  if (!install()) {
    spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
    if (!install()) throw new Error(`apt-get install ${debianPackage} failed; ${hint}`);
  }
  const installed = findOnPath(program);
  if (!installed) throw new Error(`${program} still not on PATH after installing ${debianPackage}`);
  return installed;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** True when GET <endpoint>/health answers {"health":"true"} within timeoutMs (over TLS with the client certificate for https). */
export async function etcdHealthy(endpoint: string, timeoutMs = 1000, tls?: EtcdTlsFiles): Promise<boolean> {
  const url = `${endpoint.replace(/\/$/, '')}/health`;
  if (tls) return httpsHealthy(url, timeoutMs, tls);
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    const body = (await res.json()) as { health?: string };
    return res.ok && body.health === 'true';
  } catch {
    return false;
  }
}

function httpsHealthy(url: string, timeoutMs: number, tls: EtcdTlsFiles): Promise<boolean> {
  return new Promise((resolve) => {
    const read = (f: string) => fs.readFileSync(f);
    const req = https.get(url, { ca: read(tls.ca), cert: read(tls.clientCert), key: read(tls.clientKey), timeout: timeoutMs }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve(res.statusCode === 200 && /"health":\s*"true"/.test(body)));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

export async function startEtcd(opts: StartEtcdOptions = {}): Promise<EtcdInstance> {
  const binary = ensureEtcdBinary();
  const tmpBase = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
  const ownsDir = !opts.dataDir;
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(tmpBase, 'etcd-test-'));
  let endpoint = '';
  let args: string[] = [];
  const configure = async (): Promise<void> => {
    const clientPort = opts.clientPort ?? (await freePort());
    const peer = `http://127.0.0.1:${await freePort()}`;
    endpoint = `${opts.tls ? 'https' : 'http'}://127.0.0.1:${clientPort}`;
    args = [
      '--name', 'test',
      '--data-dir', dataDir,
      '--listen-client-urls', endpoint,
      '--advertise-client-urls', endpoint,
      '--listen-peer-urls', peer,
      '--initial-advertise-peer-urls', peer,
      '--initial-cluster', `test=${peer}`,
      // Frequent progress notifications let watch tests observe onProgress quickly.
      '--experimental-watch-progress-notify-interval', opts.progressNotifyInterval ?? '1s',
      '--logger', 'zap',
      '--log-level', 'error',
      ...(opts.tls
        ? ['--cert-file', opts.tls.serverCert, '--key-file', opts.tls.serverKey, '--trusted-ca-file', opts.tls.ca, '--client-cert-auth']
        : []),
    ];
  };

  let proc: ChildProcess | undefined;
  let output = '';
  const killOnExit = () => proc?.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

  const launchOnce = async (): Promise<void> => {
    output = '';
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    proc = child;
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      if (exited(child)) throw new Error(`etcd exited during startup (code ${child.exitCode}): ${output}`);
      if (await etcdHealthy(endpoint, 500, opts.tls)) {
        // A port stolen by another server would answer too; ours must still be alive.
        await new Promise((r) => setTimeout(r, 100));
        if (exited(child)) throw new Error(`etcd exited during startup (code ${child.exitCode}): ${output}`);
        return;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    child.kill('SIGKILL');
    throw new Error(`etcd at ${endpoint} not healthy after 20 s: ${output}`);
  };

  /** Free ports can be taken between probing and binding (parallel suites): retry. */
  const launch = async (newPortsOnRetry: boolean): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      if (attempt > 1 && newPortsOnRetry) await configure();
      try {
        return await launchOnce();
      } catch (err) {
        if (attempt >= 4 || !/address already in use/.test((err as Error).message)) throw err;
        await new Promise((r) => setTimeout(r, 200 * attempt));
      }
    }
  };

  const stop = async (): Promise<void> => {
    const child = proc;
    proc = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };

  await configure();
  await launch(!opts.clientPort);
  return {
    endpoint,
    dataDir,
    stop,
    restart: async () => {
      await stop();
      await launch(false); // same ports: clients reconnect to the same URL
    },
    pause: () => {
      proc?.kill('SIGSTOP');
    },
    resume: () => {
      proc?.kill('SIGCONT');
    },
    cleanup: async () => {
      proc?.kill('SIGCONT');
      await stop();
      process.removeListener('exit', killOnExit);
      if (ownsDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Endpoints of the etcd started by globalSetup; throws (never skips) when there is none. */
export function testEtcdEndpoints(): string[] {
  const endpoints = process.env.TEST_ETCD_ENDPOINTS;
  if (!endpoints) {
    throw new Error(process.env.TEST_ETCD_ERROR ?? 'TEST_ETCD_ENDPOINTS is not set: run through jest (globalSetup starts etcd)');
  }
  return endpoints.split(',');
}
