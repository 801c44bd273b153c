/** The store the flags choose: etcd with --etcd-servers, else the embedded store in --data-dir. */
import type { ServerConfig } from '../config/flags';
import type { StoragePort } from '../ports/storage.port';
import { EtcdStorage, type EtcdTls } from '../adapters/etcd';
import { DataDirError, openLmdbStorage } from '../adapters/lmdb';
import { firstLine } from '../config/startup';

type StorageFlags = Pick<ServerConfig, 'etcdServers' | 'etcdPrefix' | 'dataDir'> & { requestTimeoutMs?: number };

export function openStorageFor(config: StorageFlags, etcdTls?: EtcdTls): StoragePort {
  return config.etcdServers.length
    ? new EtcdStorage({ endpoints: config.etcdServers, prefix: config.etcdPrefix, requestTimeoutMs: config.requestTimeoutMs, tls: etcdTls })
    : openLmdbStorage(config.dataDir);
}

/** What the server stores into, for log lines and messages. */
export function storageName(config: StorageFlags): string {
  return config.etcdServers.length ? `etcd prefix ${config.etcdPrefix} at ${config.etcdServers.join(',')}` : `the embedded store in ${config.dataDir}`;
}

/** A store that cannot be opened, as one sentence naming the flag. */
export function storageStartError(config: ServerConfig, e: unknown): string {
  if (e instanceof DataDirError) return `cannot use --data-dir ${e.message}`;
  if (config.etcdServers.length) return `cannot use --etcd-servers ${config.etcdServers.join(',')}: ${firstLine(e)}`;
  return `cannot open the embedded store in --data-dir ${config.dataDir}: ${firstLine(e)}`;
}
