// Drives every kind with @kubernetes/client-node: CoreV1Api for ConfigMaps and ServiceAccounts,
// CustomObjectsApi for the other kinds, and one informer per kind that must see add, update and
// delete. Prints one JSON summary line. Usage: node client-node-kinds.mjs <server URL> <kinds.json>
import { readFileSync } from 'node:fs';
import { k8s, kubeConfigFor } from './support/client-node.mjs';

const [server, kindsFile] = process.argv.slice(2);
const kinds = JSON.parse(readFileSync(kindsFile, 'utf8'));
const kc = kubeConfigFor(server);
const core = kc.makeApiClient(k8s.CoreV1Api);
const custom = kc.makeApiClient(k8s.CustomObjectsApi);
const namespace = 'client-node';
const result = { core: {}, custom: {}, informers: {} };

async function coreRoundTrip(label, create, read, replace, remove, body) {
  const created = await create({ namespace, body });
  const read1 = await read({ name: body.metadata.name, namespace });
  read1.metadata.labels = { via: 'client-node' };
  const replaced = await replace({ name: body.metadata.name, namespace, body: read1 });
  await remove({ name: body.metadata.name, namespace });
  result.core[label] = { created: created.metadata.name, replacedLabel: replaced.metadata.labels?.via };
}

await coreRoundTrip('configmaps', (a) => core.createNamespacedConfigMap(a), (a) => core.readNamespacedConfigMap(a),
  (a) => core.replaceNamespacedConfigMap(a), (a) => core.deleteNamespacedConfigMap(a),
  { metadata: { name: 'cn-cm' }, data: { a: 'b' } });
await coreRoundTrip('serviceaccounts', (a) => core.createNamespacedServiceAccount(a), (a) => core.readNamespacedServiceAccount(a),
  (a) => core.replaceNamespacedServiceAccount(a), (a) => core.deleteNamespacedServiceAccount(a),
  { metadata: { name: 'cn-sa' }, automountServiceAccountToken: false });

const patchOptions = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
for (const kind of kinds.filter((k) => k.group !== '')) {
  const args = { group: kind.group, version: kind.version, plural: kind.plural };
  const name = kind.object.metadata.name;
  const ns = kind.namespaced ? { namespace } : {};
  const create = kind.namespaced ? (a) => custom.createNamespacedCustomObject(a) : (a) => custom.createClusterCustomObject(a);
  const get = kind.namespaced ? (a) => custom.getNamespacedCustomObject(a) : (a) => custom.getClusterCustomObject(a);
  const list = kind.namespaced ? (a) => custom.listNamespacedCustomObject(a) : (a) => custom.listClusterCustomObject(a);
  const patch = kind.namespaced ? (a, o) => custom.patchNamespacedCustomObject(a, o) : (a, o) => custom.patchClusterCustomObject(a, o);
  const del = kind.namespaced ? (a) => custom.deleteNamespacedCustomObject(a) : (a) => custom.deleteClusterCustomObject(a);
  await create({ ...args, ...ns, body: kind.object });
  const got = await get({ ...args, ...ns, name });
  // Kinds the server also creates objects of (the bootstrap RBAC policy) list the fixture's only.
  const listed = await list({ ...args, ...ns, ...(kind.selector ? { labelSelector: kind.selector } : {}) });
  const patched = await patch({ ...args, ...ns, name, body: { metadata: { labels: { patched: 'yes' } } } }, patchOptions);
  await del({ ...args, ...ns, name });
  result.custom[`${kind.kind}.${kind.group}`] = { got: got.kind, listed: listed.items.length, patched: patched.metadata.labels?.patched };
}

// One informer per kind: add, update and delete must all arrive (a namespace is updated once more
// when it starts terminating, and deleted once the namespace controller is done).
for (const kind of kinds) {
  const path = kind.group ? `/apis/${kind.group}/${kind.version}` : `/api/${kind.version}`;
  const collection = kind.namespaced ? `${path}/namespaces/${namespace}/${kind.plural}` : `${path}/${kind.plural}`;
  const listFn = async () => (await fetch(`${server}${collection}`)).json();
  const informer = k8s.makeInformer(kc, collection, listFn);
  const events = [];
  const name = kind.object.metadata.name;
  for (const type of ['add', 'update', 'delete']) informer.on(type, (o) => o.metadata?.name === name && !events.includes(type) && events.push(type));
  await informer.start();
  const url = `${server}${collection}`;
  const send = (method, target, body, type = 'application/json') =>
    fetch(target, { method, headers: { 'content-type': type }, body: body && JSON.stringify(body) });
  await send('POST', url, kind.object);
  await send('PATCH', `${url}/${name}`, { metadata: { labels: { informed: 'yes' } } }, 'application/merge-patch+json');
  await send('DELETE', `${url}/${name}`);
  for (let i = 0; i < 200 && events.length < 3; i++) await new Promise((r) => setTimeout(r, 50));
  await informer.stop();
  result.informers[`${kind.kind}.${kind.group}`] = events;
}
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
