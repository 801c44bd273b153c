/**
 * jest globalSetup: provides one etcd for every storage-backed suite.
 * Uses ETCD_SERVERS when it answers, otherwise starts a local etcd. The
 * endpoint goes into TEST_ETCD_ENDPOINTS (workers inherit this process's env).
 * Without etcd, suites that need it fail with TEST_ETCD_ERROR; they are
 * never skipped, and suites that don't need etcd still run.
 */
import { etcdHealthy, startEtcd, type EtcdInstance } from './etcd-harness';

declare global {
  // eslint-disable-next-line no-var
  var __TEST_ETCD__: EtcdInstance | undefined;
}

export default async function globalSetup(): Promise<void> {
  const configured = process.env.ETCD_SERVERS;
  if (configured && (await etcdHealthy(configured.split(',')[0], 2000))) {
    process.env.TEST_ETCD_ENDPOINTS = configured;
    return;
  }
  try {
    const etcd = await startEtcd();
    globalThis.__TEST_ETCD__ = etcd;
    process.env.TEST_ETCD_ENDPOINTS = etcd.endpoint;
  } catch (err) {
    const message = `no etcd for tests: ${(err as Error).message}`;
    process.env.TEST_ETCD_ERROR = message;
    process.stderr.write(`\n*** ${message}\n*** etcd-backed suites will FAIL.\n\n`);
  }
}
