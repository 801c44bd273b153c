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

export function kubeConfigFor(server) {
  const kc = new k8s.KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'local', server, skipTLSVerify: true }],
    users: [{ name: 'admin' }],
    contexts: [{ name: 'local', cluster: 'local', user: 'admin' }],
    currentContext: 'local',
  });
  return kc;
}
