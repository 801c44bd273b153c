/** The store the flags choose: etcd with --etcd-servers, else the embedded store in --data-dir. */
import type { ServerConfig } from '../config/flags';
import type { StoragePort } from '../ports/storage.port';
import { EtcdStorage } from '../adapters/etcd';
import { DataDirError, openLmdbStorage } from '../adapters/lmdb';
import { firstLine } from '../config/startup';

export function openStorageFor(config: Pick<ServerConfig, 'etcdServers' | 'etcdPrefix' | 'dataDir'> & { requestTimeoutMs?: number }): StoragePort {
  return config.etcdServers.length
    ? new EtcdStorage({ endpoints: config.etcdServers, prefix: config.etcdPrefix, requestTimeoutMs: config.requestTimeoutMs })
    : openLmdbStorage(config.dataDir);
}


/** A store that cannot be opened, as one sentence naming the flag. */
export function storageStartError(config: ServerConfig, e: unknown): string {
  if (e instanceof DataDirError) return `cannot use --data-dir ${e.message}`;
  if (config.etcdServers.length) return `cannot use --etcd-servers ${config.etcdServers.join(',')}: ${firstLine(e)}`;
  return `cannot open the embedded store in --data-dir ${config.dataDir}: ${firstLine(e)}`;
}

