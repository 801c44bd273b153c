/**
 * The local cluster of scripts/cluster-up (three etcd members, two replicas, the balancer) driven the way an
 * operator would: the scripts start and stop it, cluster.json says where everything is, and processes are
 * killed by their recorded pids. Clients speak HTTPS with the admin kubeconfig's client certificate.
 */
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as https from 'node:https';
import { join, resolve } from 'node:path';
import { load } from 'js-yaml';
import { until as sharedUntil, type UntilOptions } from '../../support/until';

const scripts = resolve(__dirname, '../../../scripts');

export interface ClusterState {
  dir: string;
  etcdPrefix: string;
  kubeconfig: string;
  members: Array<{ name: string; clientUrl: string; pid: number }>;
  /** etcd serves TLS and asks for client certificates: the CA and the API server's client pair. */
  etcdTls: { caFile: string; certFile: string; keyFile: string };
  replicas: Array<{ name: string; securePort: number; certDir: string; pid: number }>;
  balancer: { port: number; pid: number };
}

export const readState = (dir: string): ClusterState => JSON.parse(readFileSync(join(dir, 'cluster.json'), 'utf8'));

function run(script: string, args: string[]): Promise<string> {
  return new Promise((res, rej) =>
    execFile(process.execPath, [join(scripts, script), ...args], { timeout: 120_000 }, (err, stdout, stderr) =>
      err ? rej(new Error(`${script} ${args.join(' ')}: ${err.message}\n${stdout}\n${stderr}`)) : res(stdout),
    ),
  );
}

/** scripts/cluster-up: starts what is not running and waits until it is ready. */
// These tests count ConfigMaps exactly; kube-root-ca.crt in each namespace has its own test.
const defaultServerArgs = ['--controllers=*,-root-ca-certificate-publisher-controller'];

export async function clusterUp(dir: string, serverArgs: string[] = defaultServerArgs): Promise<ClusterState> {
  await run('cluster-up', ['--dir', dir, '--port', '0', ...(serverArgs.length ? ['--', ...serverArgs] : [])]);
  return readState(dir);
}

export function clusterDown(dir: string): void {
  spawnSync(process.execPath, [join(scripts, 'cluster-down'), '--dir', dir, '--purge'], { stdio: 'ignore', timeout: 60_000 });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The shared until, with the half minute a cluster of processes gets here unless told otherwise. */
export const until = <T>(what: string, probe: () => T | Promise<T>, options: UntilOptions = {}) => sharedUntil(what, probe, { timeoutMs: 30_000, ...options });

/** Waits until the process is gone (after a signal). */
export async function exited(pid: number): Promise<void> {
  await until(`pid ${pid} to exit`, () => {
    try {
      process.kill(pid, 0);
      return /\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    } catch {
      return true;
    }
  });
}

export interface Response {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  text: string;
}

/** A POST to an etcd member's JSON gateway with the cluster's etcd client certificate; the answer's body. */
export function etcdPost(state: ClusterState, member: ClusterState['members'][number], path: string, body: unknown): Promise<string> {
  const t = state.etcdTls;
  return new Promise((res, rej) => {
    const req = https.request(`${member.clientUrl}${path}`, { method: 'POST', ca: readFileSync(t.caFile), cert: readFileSync(t.certFile), key: readFileSync(t.keyFile), timeout: 10_000 }, (r) => {
      let text = '';
      r.on('data', (d) => (text += d));
      r.on('end', () => res(text));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${member.clientUrl}`)));
    req.on('error', rej);
    req.end(JSON.stringify(body));
  });
}

/** HTTPS as system:admin (the cluster's admin kubeconfig), to a replica or the balancer by port. */
export class AdminClient {
  readonly tls: { ca: Buffer; cert: Buffer; key: Buffer };
  private readonly agent: https.Agent;

  constructor(kubeconfig: string) {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const kc = load(readFileSync(kubeconfig, 'utf8')) as any;
    const b64 = (s: string) => Buffer.from(s, 'base64');
    this.tls = {
      ca: b64(kc.clusters[0].cluster['certificate-authority-data']),
      cert: b64(kc.users[0].user['client-certificate-data']),
      key: b64(kc.users[0].user['client-key-data']),
    };
    this.agent = new https.Agent({ keepAlive: true, maxSockets: 8, ...this.tls });
  }

  request(port: number, method: string, path: string, body?: unknown): Promise<Response> {
    return new Promise((res, rej) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = https.request(
        { host: '127.0.0.1', port, method, path, agent: this.agent, timeout: 30_000, headers: { accept: 'application/json', ...(payload ? { 'content-type': 'application/json' } : {}) } },
        (r) => {
          let text = '';
          r.setEncoding('utf8');
          r.on('data', (d) => (text += d));
          r.on('end', () => {
            let json;
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
            res({ status: r.statusCode ?? 0, json, text });
          });
          r.on('error', rej);
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', rej);
      req.end(payload);
    });
  }

  /** Sum of a metric's samples on one replica whose labels include every given label. */
  async metric(port: number, name: string, labels: Record<string, string>): Promise<number> {
    const r = await this.request(port, 'GET', '/metrics');
    let sum = 0;
    for (const line of r.text.split('\n')) {
      const m = /^([a-z_]+)\{([^}]*)\} (\S+)$/.exec(line);
      if (!m || m[1] !== name) continue;
      const has = Object.entries(labels).every(([k, v]) => m[2].includes(`${k}="${v}"`));
      if (has) sum += Number(m[3]);
    }
    return sum;
  }

  close(): void {
    this.agent.destroy();
  }
}

export interface WatchEvent {
  type: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  object: any;
}

/** One watch request over its own TLS connection, read line by line. */
export class Watch {
  readonly events: WatchEvent[] = [];
  ended = false;
  private req?: ReturnType<typeof https.get>;

  private constructor() {}

  static open(client: AdminClient, port: number, path: string): Promise<Watch> {
    const w = new Watch();
    return new Promise((res, rej) => {
      w.req = https.get({ host: '127.0.0.1', port, path, agent: false, ...client.tls, headers: { accept: 'application/json' } }, (r) => {
        if (r.statusCode !== 200) {
          rej(new Error(`watch ${path}: ${r.statusCode}`));
          r.resume();
          return;
        }
        let buffered = '';
        r.setEncoding('utf8');
        r.on('data', (d: string) => {
          buffered += d;
          const lines = buffered.split('\n');
          buffered = lines.pop()!;
          for (const l of lines) if (l.trim()) w.events.push(JSON.parse(l));
        });
        const end = () => (w.ended = true);
        r.on('end', end);
        r.on('close', end);
        r.on('error', end);
        res(w);
      });
      w.req.on('error', (e) => {
        w.ended = true;
        rej(e);
      });
    });
  }

  close(): void {
    this.req?.destroy();
  }
}

/**
 * What a controller does with a watch: follows a collection from a resourceVersion and, whenever the
 * connection ends, opens a new one (through the balancer) from the last resourceVersion it saw.
 */
export class ResumingWatch {
  readonly events: WatchEvent[] = [];
  connections = 0;
  /** An ERROR event (e.g. 410 Gone): the watch could not resume and stopped. */
  error?: unknown;
  private current?: Watch;
  private stopped = false;
  private readonly loop: Promise<void>;

  constructor(
    private readonly client: AdminClient,
    private readonly port: number,
    private readonly path: string,
    private resourceVersion: string,
  ) {
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    for (let attempt = 0; !this.stopped && attempt < 200; attempt++) {
      try {
        const w = await Watch.open(this.client, this.port, `${this.path}?watch=1&allowWatchBookmarks=true&resourceVersion=${this.resourceVersion}`);
        this.current = w;
        this.connections++;
        let seen = 0;
        while (!w.ended || seen < w.events.length) {
          for (; seen < w.events.length; seen++) {
            const e = w.events[seen];
            if (e.type === 'ERROR') {
              this.error = e.object;
              return;
            }
            this.resourceVersion = e.object.metadata.resourceVersion;
            if (e.type !== 'BOOKMARK') this.events.push(e);
          }
          if (this.stopped) return;
          await sleep(10);
        }
      } catch {
        await sleep(100); // connection refused or reset: try again
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.current?.close();
    await this.loop;
  }
}

export interface Acked {
  name: string;
  type: 'ADDED' | 'MODIFIED';
  resourceVersion: string;
  data: Record<string, string>;
}

const retriable = (status: number) => status === 0 || status === 429 || status >= 500;

/**
 * Writes ConfigMaps as a careful client does while servers and etcd members come and go: a request that
 * fails on the network or with 429/5xx is retried, and when an earlier attempt may have been applied the
 * object is read back to learn whether it was. Only writes the server acknowledged (or that are
 * provably applied) are recorded.
 */
export class Writer {
  readonly acked: Acked[] = [];
  retries = 0;

  constructor(
    private readonly client: AdminClient,
    private readonly base: string,
  ) {}

  private async send(port: number, method: string, path: string, body?: unknown): Promise<Response> {
    try {
      return await this.client.request(port, method, path, body);
    } catch {
      return { status: 0, json: undefined, text: '' };
    }
  }

  async create(port: number, name: string, data: Record<string, string>): Promise<void> {
    let r: Response = { status: 0, json: undefined, text: '' };
    for (let attempt = 1; attempt <= 40; attempt++) {
      r = await this.send(port, 'POST', this.base, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });
      if (r.status === 201) return this.record(name, 'ADDED', r.json);
      if (r.status === 409 && attempt > 1) {
        const got = await this.send(port, 'GET', `${this.base}/${name}`);
        if (got.status === 200 && JSON.stringify(got.json.data) === JSON.stringify(data)) return this.record(name, 'ADDED', got.json);
      }
      if (!retriable(r.status) && r.status !== 409) throw new Error(`create ${name}: ${r.status} ${r.text}`);
      this.retries++;
      await sleep(100);
    }
    throw new Error(`create ${name}: no answer after 40 attempts; the last: ${r.status} ${r.text}`);
  }

  async update(port: number, name: string, data: Record<string, string>): Promise<void> {
    let last = '';
    for (let attempt = 1; attempt <= 40; attempt++) {
      const got = await this.send(port, 'GET', `${this.base}/${name}`);
      last = `GET ${got.status} ${got.json?.metadata?.resourceVersion ?? got.text}`;
      if (got.status === 200 && JSON.stringify(got.json.data) === JSON.stringify(data)) return this.record(name, 'MODIFIED', got.json);
      if (got.status === 200) {
        const r = await this.send(port, 'PUT', `${this.base}/${name}`, { ...got.json, data });
        last += `; PUT ${r.status} ${r.text}`;
        if (r.status === 200) return this.record(name, 'MODIFIED', r.json);
        if (!retriable(r.status) && r.status !== 409) throw new Error(`update ${name}: ${r.status} ${r.text}`);
      } else if (!retriable(got.status)) throw new Error(`get ${name}: ${got.status} ${got.text}`);
      this.retries++;
      await sleep(100);
    }
    throw new Error(`update ${name}: no answer after 40 attempts; the last: ${last}`);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private record(name: string, type: Acked['type'], obj: any): void {
    this.acked.push({ name, type, resourceVersion: obj.metadata.resourceVersion, data: obj.data });
  }
}

/** `[type, name, resourceVersion]` of watch events, for comparison with what was acknowledged. */
export const summary = (events: WatchEvent[]) => events.map((e) => [e.type, e.object.metadata.name, e.object.metadata.resourceVersion]);
export const byRevision = (acked: Acked[]) => [...acked].sort((x, y) => Number(x.resourceVersion) - Number(y.resourceVersion)).map((a) => [a.type, a.name, a.resourceVersion]);
