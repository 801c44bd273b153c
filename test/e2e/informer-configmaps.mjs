// Runs a @kubernetes/client-node informer for ConfigMaps of one namespace and
// prints what it sees as JSON lines: list calls, (re)connects, add/update/delete.
// client-node is ESM-only, hence a plain .mjs spawned by the jest test.
// Usage: node informer-configmaps.mjs <server URL> <namespace> [kubeconfig with the credentials to use]
import { k8s, kubeConfigFor } from './support/client-node.mjs';

const [server, namespace, kubeconfig] = process.argv.slice(2);
const print = (o) => process.stdout.write(`${JSON.stringify(o)}\n`);

const kc = kubeConfigFor(server, kubeconfig);
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
