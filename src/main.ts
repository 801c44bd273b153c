/**
 * Composition root: parse flags, build the adapters, start serving. The only
 * file that names concrete adapters.
 */
import 'reflect-metadata';
import { createServer } from 'node:http';
import { parseFlags, FlagError, ServerConfig } from './config/flags';
import { allDefinitions } from './resources';
import { Registry } from './registry/registry';
import { startCompactor } from './registry/compactor';
import type { StoragePort } from './ports/storage.port';
import { openLmdbStorage } from './adapters/lmdb';
import { EtcdStorage } from './adapters/etcd';
import { WebCryptoAdapter } from './adapters/crypto';
import { systemClock } from './adapters/clock/system.clock';
import { createApp } from './adapters/http';
import { version } from './version';

function logger(level: ServerConfig['logLevel']) {
  const order = ['debug', 'info', 'warn', 'error'];
  return (lvl: string, msg: string, extra: object = {}) => {
    if (order.indexOf(lvl) >= order.indexOf(level)) console.log(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...extra }));
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
  const storage: StoragePort = config.etcdServers.length
    ? new EtcdStorage({ endpoints: config.etcdServers, prefix: config.etcdPrefix })
    : openLmdbStorage(config.dataDir);
  const definitions = allDefinitions.filter((d) => !d.featureGate || config.featureGates.enabled(d.featureGate));
  const registry = new Registry(definitions, { storage, clock: systemClock, crypto: new WebCryptoAdapter(), gates: config.featureGates });
  const compactor = startCompactor(storage, config.etcdCompactionIntervalSeconds * 1000, (msg, extra) => log('info', msg, extra));

  let shuttingDown = false;
  const storageCheck = { name: 'etcd', check: () => storage.ping() };
  const app = createApp({
    registry,
    definitions,
    health: {
      livez: [{ name: 'ping', check: () => true }, storageCheck],
      readyz: [{ name: 'ping', check: () => true }, storageCheck, { name: 'shutdown', check: () => !shuttingDown }],
    },
    version,
    patchContentTypes: ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json'],
    address: () => `${config.bindAddress}:${config.port}`,
  });
  const server = createServer(app);
  server.listen(config.port, config.bindAddress, () => {
    log('info', 'serving', {
      address: `http://${config.bindAddress}:${config.port}`,
      storage: config.etcdServers.length ? `etcd ${config.etcdServers.join(',')} prefix ${config.etcdPrefix}` : `embedded ${config.dataDir}`,
    });
  });
  const shutdown = (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    log('info', 'shutting down', { signal });
    compactor.stop();
    server.close(() => {
      void storage.close().finally(() => process.exit(0));
    });
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((e) => {
  console.error(JSON.stringify({ level: 'fatal', msg: (e as Error).message, stack: (e as Error).stack }));
  process.exit(1);
});
