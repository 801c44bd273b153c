// Runs a @kubernetes/client-node informer for ConfigMaps of one namespace and
// prints what it sees as JSON lines: list calls, (re)connects, add/update/delete.
// client-node 1.x is ESM-only, hence a plain .mjs spawned by the jest test.
// Usage: node informer-configmaps.mjs <server URL> <namespace>
import zlib from 'node:zlib';
import workerThreads from 'node:worker_threads';

// client-node 2.x fetches with undici 8, which needs Node >= 22 for three
// helpers; this project runs on Node 20, so stand in for them (no zstd
// responses and no structured cloning happen here).
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
const k8s = await import('@kubernetes/client-node');

const [server, namespace] = process.argv.slice(2);
const print = (o) => process.stdout.write(`${JSON.stringify(o)}\n`);

const kc = new k8s.KubeConfig();
kc.loadFromOptions({
  clusters: [{ name: 'local', server, skipTLSVerify: true }],
  users: [{ name: 'admin' }],
  contexts: [{ name: 'local', cluster: 'local', user: 'admin' }],
  currentContext: 'local',
});
const api = kc.makeApiClient(k8s.CoreV1Api);
const list = () => {
  print({ event: 'list' });
  return api.listNamespacedConfigMap({ namespace });
};
const informer = k8s.makeInformer(kc, `/api/v1/namespaces/${namespace}/configmaps`, list);
const seen = (event) => (obj) => print({ event, name: obj.metadata?.name, rv: obj.metadata?.resourceVersion, data: obj.data });
informer.on('add', seen('add'));
informer.on('update', seen('update'));
informer.on('delete', seen('delete'));
informer.on('connect', () => print({ event: 'connect' }));
informer.on('error', (err) => {
  print({ event: 'error', message: String(err?.message ?? err), code: err?.statusCode ?? err?.code });
  // As an application would: restart after a pause.
  setTimeout(() => informer.start().catch(() => undefined), 500);
});
await informer.start();
print({ event: 'started' });
process.on('SIGTERM', async () => {
  await informer.stop();
  process.exit(0);
});
