/**
 * Composition root: parse flags, build the adapters, start serving. The only
 * file that names concrete adapters. `assemble` is exported so that tests
 * run exactly the wiring production runs.
 */
import 'reflect-metadata';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseFlags, FlagError, ServerConfig } from './config/flags';
import { allDefinitions } from './resources';
import { Registry } from './registry/registry';
import { startCompactor } from './registry/compactor';
import { startGcFinalizers } from './registry/gc-finalizers';
import type { StoragePort } from './ports/storage.port';
import type { FeatureGates } from './machinery/feature-gates';
import { openLmdbStorage } from './adapters/lmdb';
import { EtcdStorage } from './adapters/etcd';
import { WebCryptoAdapter } from './adapters/crypto';
import { systemClock } from './adapters/clock/system.clock';
import { createApp } from './adapters/http';
import { openApiRouter } from './adapters/http/openapi';
import { WatchStreamServer, type WatchStreamOptions } from './adapters/http/watch-stream';
import { CachedReadPath, WatchCache, type WatchCacheOptions } from './registry/watch-cache';
import { version } from './version';
import { createMetrics, instrumentStorage, metricsMiddleware, metricsRouter } from './adapters/metrics';
import { resourcePrefix } from './registry/keys';

export type Log = (level: string, msg: string, extra?: object) => void;

export function logger(level: ServerConfig['logLevel']): Log {
  const order = ['debug', 'info', 'warn', 'error'];
  return (lvl, msg, extra = {}) => {
    if (order.indexOf(lvl) >= order.indexOf(level)) console.log(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...extra }));
  };
}

export function openStorageFor(config: Pick<ServerConfig, 'etcdServers' | 'etcdPrefix' | 'dataDir'>): StoragePort {
  return config.etcdServers.length
    ? new EtcdStorage({ endpoints: config.etcdServers, prefix: config.etcdPrefix })
    : openLmdbStorage(config.dataDir);
}

export interface AssembleOptions {
  storage: StoragePort;
  gates: FeatureGates;
  log: Log;
  compactionIntervalSeconds?: number;
  /** Watch cache and watch stream tunables (tests shorten windows and intervals). */
  watchCache?: Partial<WatchCacheOptions>;
  watchStream?: Partial<WatchStreamOptions>;
}

export interface Assembled {
  server: Server;
  registry: Registry;
  cache: WatchCache;
  watch: WatchStreamServer;
  /** Fails readiness first, then stops background work and closes storage. */
  shutdown(): Promise<void>;
}

/** Builds the registry and HTTP server over the given storage (not yet listening). */
export function assemble(opts: AssembleOptions): Assembled {
  const { gates, log } = opts;
  const definitions = allDefinitions.filter((d) => !d.featureGate || gates.enabled(d.featureGate));
  const metrics = createMetrics(() =>
    Promise.all(definitions.map(async (d) => ({ resource: d.group ? `${d.plural}.${d.group}` : d.plural, count: (await opts.storage.range(resourcePrefix(d), { limit: 1 })).count }))),
  );
  const storage = instrumentStorage(opts.storage, metrics);
  // Reads and watches are served from the watch cache, fed by one storage watch per kind.
  const cache = new WatchCache(storage, definitions, gates, opts.watchCache, log).start();
  const watch = new WatchStreamServer(cache, opts.watchStream);
  const registry = new Registry(definitions, { storage, clock: systemClock, crypto: new WebCryptoAdapter(), gates }, new CachedReadPath(cache, storage));
  const compactor = startCompactor(storage, (opts.compactionIntervalSeconds ?? 0) * 1000, (msg, extra) => log('info', msg, extra));
  // No kube-controller-manager here: a built-in controller finishes Orphan/Foreground deletions.
  const gcFinalizers = startGcFinalizers(registry, storage, log);
  const patchContentTypes = [
    'application/json-patch+json',
    'application/merge-patch+json',
    'application/strategic-merge-patch+json',
    'application/apply-patch+yaml',
  ];
  let shuttingDown = false;
  const storageCheck = { name: 'etcd', check: () => storage.ping() };
  let server: Server | undefined;
  const app = createApp({
    registry,
    definitions,
    health: {
      livez: [{ name: 'ping', check: () => true }, storageCheck],
      readyz: [
        { name: 'ping', check: () => true },
        storageCheck,
        { name: 'watch-cache', check: () => cache.ready() },
        { name: 'shutdown', check: () => !shuttingDown },
      ],
    },
    watch,
    version,
    patchContentTypes,
    extraRouters: [openApiRouter(definitions, patchContentTypes), metricsRouter(metrics)],
    middleware: [metricsMiddleware(metrics, log)],
    address: () => {
      const a = server?.address() as AddressInfo | null | undefined;
      return a ? `${a.address}:${a.port}` : '127.0.0.1:8080';
    },
  });
  server = createServer(app);
  return {
    server,
    registry,
    cache,
    watch,
    async shutdown() {
      shuttingDown = true;
      compactor.stop();
      gcFinalizers.stop();
      watch.closeAll();
      cache.stop();
      await new Promise<void>((resolve) => {
        server!.close(() => resolve());
        server!.closeIdleConnections();
      });
      await storage.close();
    },
  };
}

async function main(): Promise<void> {
  let config: ServerConfig;
  try {
    config = parseFlags(process.argv.slice(2));
  } catch (e) {
    if (e instanceof FlagError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
  const log = logger(config.logLevel);
  const storage = openStorageFor(config);
  const assembled = assemble({
    storage,
    gates: config.featureGates,
    log,
    compactionIntervalSeconds: config.etcdCompactionIntervalSeconds,
    watchStream: { minRequestTimeoutSeconds: config.minRequestTimeoutSeconds },
  });
  assembled.server.listen(config.port, config.bindAddress, () => {
    log('info', 'serving', {
      address: `http://${config.bindAddress}:${config.port}`,
      storage: config.etcdServers.length ? `etcd ${config.etcdServers.join(',')} prefix ${config.etcdPrefix}` : `embedded ${config.dataDir}`,
    });
  });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log('info', 'shutting down', { signal });
    setTimeout(() => process.exit(0), 10_000).unref();
    assembled.shutdown().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

if (require.main === module) {
  main().catch((e) => {
    console.error(JSON.stringify({ level: 'fatal', msg: (e as Error).message, stack: (e as Error).stack }));
    process.exit(1);
  });
}
