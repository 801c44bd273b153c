/**
 * The production wiring (src/composition/assemble.ts `assemble`) in-process on 127.0.0.1:0,
 * on either backend: lmdb in a temporary directory, or the suite's etcd
 * under a fresh key prefix so tests never see each other's objects.
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { assemble, type AssembleOptions } from '../../src/composition/assemble';
import { until } from './until';
import { openLmdbStorage } from '../../src/adapters/lmdb';
import { EtcdStorage } from '../../src/adapters/etcd';
import { FeatureGates } from '../../src/machinery/feature-gates';
import type { StoragePort } from '../../src/ports/storage.port';
import type { Registry } from '../../src/registry/registry';

export type Backend = 'lmdb' | 'etcd';
export const backends: Backend[] = ['lmdb', 'etcd'];

export function etcdEndpoints(): string[] {
  const e = process.env.TEST_ETCD_ENDPOINTS;
  if (!e) throw new Error('TEST_ETCD_ENDPOINTS is not set: the jest globalSetup must start etcd (no etcd-backed test is skipped)');
  return e.split(',');
}

export function openStorage(backend: Backend): { storage: StoragePort; cleanup: () => void } {
  if (backend === 'lmdb') {
    const dir = mkdtempSync(join(tmpdir(), 'svc-lmdb-'));
    return { storage: openLmdbStorage(dir), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
  }
  return { storage: new EtcdStorage({ endpoints: etcdEndpoints(), prefix: `/test-${randomBytes(6).toString('hex')}` }), cleanup: () => undefined };
}

export interface TestServer {
  url: string;
  registry: Registry;
  storage: StoragePort;
  close(): Promise<void>;
}

/** Production options a test may set (event TTL, admission plugins), and data to store before the server starts. */
export type TestServerOptions = Partial<Pick<AssembleOptions, 'eventTtlSeconds' | 'admissionPlugins' | 'controllers' | 'heapTrim'>> & {
  seed?: (storage: StoragePort) => Promise<void>;
};

export async function startTestServer(backend: Backend, gates: Record<string, boolean> = {}, options: TestServerOptions = {}): Promise<TestServer> {
  const { storage, cleanup } = openStorage(backend);
  const { seed, ...production } = options;
  await seed?.(storage);
  const assembled = assemble({ storage, gates: new FeatureGates(gates), log: () => undefined, ...production });
  await new Promise<void>((resolve) => assembled.server.listen(0, '127.0.0.1', resolve));
  const port = (assembled.server.address() as AddressInfo).port;
  // Ready as a client would see it: the cache loaded and the system namespaces created.
  await until('the test server to be ready', async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200, { intervalMs: 50 });
  return {
    url: `http://127.0.0.1:${port}`,
    registry: assembled.registry,
    storage,
    async close() {
      assembled.server.closeAllConnections();
      await assembled.shutdown();
      cleanup();
    },
  };
}
