/**
 * The production wiring (`assemble`) in-process on 127.0.0.1:0 with short
 * cache windows and watch intervals, plus a small streaming watch client.
 */
import 'reflect-metadata';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { assemble, type Assembled } from '../../src/composition/assemble';
import { FeatureGates } from '../../src/machinery/feature-gates';
import type { StoragePort } from '../../src/ports/storage.port';
import type { WatchCacheOptions } from '../../src/registry/watch-cache';
import type { WatchStreamOptions } from '../../src/adapters/http/watch-stream';
import { openStorage, type Backend } from '../support/test-server';
import { until } from '../support/until';

export { backends, type Backend } from '../support/test-server';

export interface CacheServer extends Pick<Assembled, 'registry' | 'cache' | 'watch'> {
  url: string;
  storage: StoragePort;
  close(): Promise<void>;
}

export interface CacheServerOptions {
  gates?: Record<string, boolean>;
  watchCache?: Partial<WatchCacheOptions>;
  watchStream?: Partial<WatchStreamOptions>;
  /** Use this storage (e.g. shared by two replicas, or wrapped) instead of a fresh one. */
  storage?: StoragePort;
  /** --request-timeout and the health check bounds (ms). */
  requestTimeoutMs?: number;
  healthcheckTimeoutMs?: number;
  readycheckTimeoutMs?: number;
}

export async function startCacheServer(backend: Backend, opts: CacheServerOptions = {}): Promise<CacheServer> {
  const own = opts.storage ? undefined : openStorage(backend);
  const storage = opts.storage ?? own!.storage;
  const assembled = assemble({
    storage,
    gates: new FeatureGates(opts.gates ?? {}),
    log: () => undefined,
    watchCache: { retryMinMs: 20, retryMaxMs: 200, ...opts.watchCache },
    watchStream: opts.watchStream,
    requestTimeoutMs: opts.requestTimeoutMs,
    healthcheckTimeoutMs: opts.healthcheckTimeoutMs,
    readycheckTimeoutMs: opts.readycheckTimeoutMs,
  });
  await new Promise<void>((resolve) => assembled.server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(assembled.server.address() as AddressInfo).port}`;
  await until('the watch cache to be ready', () => assembled.cache.ready(), { intervalMs: 10 });
  return {
    url,
    storage,
    registry: assembled.registry,
    cache: assembled.cache,
    watch: assembled.watch,
    async close() {
      assembled.server.closeAllConnections();
      if (own) await assembled.shutdown();
      else {
        // Shared storage stays open for the other replica.
        assembled.watch.closeAll();
        assembled.cache.stop();
        await new Promise<void>((r) => assembled.server.close(() => r()));
      }
      own?.cleanup();
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export { until };

export async function call(url: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url + path, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

export const cm = (name: string, extra: Record<string, unknown> = {}, labels?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...(labels ? { labels } : {}) },
  data: { v: '1' },
  ...extra,
});

export interface WatchEvent {
  type: string;
  object: any;
}

/** A watch request read line by line; resolves once the response headers are in. */
export class WatchClient {
  readonly events: WatchEvent[] = [];
  body = '';
  ended = false;
  private buffered = '';
  private endedPromise!: Promise<void>;

  private constructor(
    readonly req: http.ClientRequest,
    readonly res: http.IncomingMessage,
  ) {}

  static open(url: string, path: string, headers: Record<string, string> = {}): Promise<WatchClient> {
    return new Promise((resolve, reject) => {
      const req = http.get(url + path, { headers: { accept: 'application/json', ...headers } }, (res) => {
        const client = new WatchClient(req, res);
        client.endedPromise = new Promise<void>((done) => {
          const end = () => {
            client.ended = true;
            done();
          };
          res.on('end', end);
          res.on('close', end);
          res.on('error', end);
        });
        res.on('data', (chunk: Buffer) => client.onData(chunk.toString()));
        resolve(client);
      });
      req.on('error', reject);
    });
  }

  get status(): number {
    return this.res.statusCode ?? 0;
  }

  private onData(text: string): void {
    if (this.status !== 200) {
      this.body += text;
      return;
    }
    this.buffered += text;
    const lines = this.buffered.split('\n');
    this.buffered = lines.pop()!;
    for (const line of lines) if (line.trim()) this.events.push(JSON.parse(line));
  }

  async waitFor(n: number, timeoutMs = 5000): Promise<WatchEvent[]> {
    await until(`${n} watch events`, () => this.events.length >= n || this.ended, { timeoutMs, onTimeout: () => `have ${this.events.length}: ${this.summary().join(', ')}` });
    if (this.events.length < n) throw new Error(`watch ended after ${this.events.length} events: ${this.summary().join(', ')}`);
    return this.events.slice(0, n);
  }

  async waitEnd(timeoutMs = 5000): Promise<void> {
    await until('the watch to end', () => this.ended, { timeoutMs });
  }

  /**
   * The events up to and including the first at or past resourceVersion `rv`, once it has come: the barrier for
   * "nothing happened". Make a write that this watch must deliver after the action under test and pass its
   * resourceVersion; events come in revision order, so anything the action wrote is in the answer before it.
   */
  async through(rv: string | number, timeoutMs = 5000): Promise<WatchEvent[]> {
    const at = () => this.events.findIndex((e) => Number(e.object?.metadata?.resourceVersion) >= Number(rv));
    await until(`the event at resourceVersion ${rv}`, () => at() >= 0 || this.ended, { timeoutMs, onTimeout: () => this.summary().join(', ') });
    if (at() < 0) throw new Error(`watch ended before resourceVersion ${rv}: ${this.summary().join(', ')}`);
    return this.events.slice(0, at() + 1);
  }

  done(): Promise<void> {
    return this.endedPromise;
  }

  /** `TYPE name rv` per event, for readable assertions. */
  summary(): string[] {
    return this.events.map((e) => `${e.type} ${e.object?.metadata?.name ?? e.object?.code ?? ''} ${e.object?.metadata?.resourceVersion ?? ''}`.trim());
  }

  close(): void {
    this.req.destroy();
  }
}
