/** jest globalTeardown: stops the etcd that globalSetup started (same process). */
export default async function globalTeardown(): Promise<void> {
  const etcd = globalThis.__TEST_ETCD__;
  globalThis.__TEST_ETCD__ = undefined;
  await etcd?.cleanup();
}
