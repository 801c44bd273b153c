// Loads @kubernetes/client-node (ESM-only) on Node 20 and builds a KubeConfig for a test server.
// client-node 2.x fetches with undici 8, which expects three Node >= 22 helpers; stand in for them
// (no zstd responses and no structured cloning happen in these tests).
import zlib from 'node:zlib';
import workerThreads from 'node:worker_threads';

if (!zlib.createZstdDecompress) zlib.createZstdDecompress = () => { throw new Error('zstd needs Node >= 22.15'); };
if (!workerThreads.markAsUncloneable) workerThreads.markAsUncloneable = () => {};
if (!Promise.withResolvers) {
  Promise.withResolvers = function withResolvers() {
    let resolve;
    let reject;
    const promise = new this((res, rej) => ((resolve = res), (reject = rej)));
    return { promise, resolve, reject };
  };
}
export const k8s = await import('@kubernetes/client-node');

/** A KubeConfig for `server`: anonymous over plain HTTP, or with a kubeconfig file's credentials and CA. */
export function kubeConfigFor(server, kubeconfigFile) {
  const kc = new k8s.KubeConfig();
  if (kubeconfigFile) {
    kc.loadFromFile(kubeconfigFile);
    const cluster = kc.getCurrentCluster();
    kc.clusters = kc.clusters.map((c) => (c === cluster ? { ...c, server } : c));
    return kc;
  }
  kc.loadFromOptions({
    clusters: [{ name: 'local', server, skipTLSVerify: true }],
    users: [{ name: 'admin' }],
    contexts: [{ name: 'local', cluster: 'local', user: 'admin' }],
    currentContext: 'local',
  });
  return kc;
}
