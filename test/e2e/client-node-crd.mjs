// A CustomResourceDefinition driven by @kubernetes/client-node: created with ApiextensionsV1Api, waited for until
// Established, its custom resources created, read, listed, patched (also through the status subresource), replaced
// and deleted with CustomObjectsApi, and an informer on the kind that must see add, update and delete.
// Prints one JSON summary line. Usage: node client-node-crd.mjs <server URL>
import { k8s, kubeConfigFor } from './support/client-node.mjs';

const [server] = process.argv.slice(2);
const kc = kubeConfigFor(server);
const extensions = kc.makeApiClient(k8s.ApiextensionsV1Api);
const core = kc.makeApiClient(k8s.CoreV1Api);
const custom = kc.makeApiClient(k8s.CustomObjectsApi);
const namespace = 'client-node-crd';
const gvr = { group: 'example.com', version: 'v1', plural: 'widgets' };
const result = {};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls `fn` until it returns a truthy value, for at most `ms`. */
async function until(what, fn, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

await core.createNamespace({ body: { metadata: { name: namespace } } });
const crd = await extensions.createCustomResourceDefinition({
  body: {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                // client-node's V1JSONSchemaProps names `default` _default (its serializer writes it as default).
                spec: { type: 'object', properties: { color: { type: 'string' }, size: { type: 'integer', _default: 3 } } },
                status: { type: 'object', properties: { ready: { type: 'boolean' } } },
              },
            },
          },
        },
      ],
    },
  },
});
result.crd = { apiVersion: crd.apiVersion, name: crd.metadata.name };
const established = await until('the CRD to be Established', async () => {
  const got = await extensions.readCustomResourceDefinition({ name: 'widgets.example.com' });
  return got.status?.conditions?.find((c) => c.type === 'Established' && c.status === 'True') && got;
});
result.acceptedNames = established.status.acceptedNames;
// The kind is served once every part of the server has seen the CRD.
await until('widgets to be served', () => custom.listNamespacedCustomObject({ ...gvr, namespace }));

const widget = (name, spec, labels) => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name, ...(labels ? { labels } : {}) }, spec });
const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
const created = await custom.createNamespacedCustomObject({ ...gvr, namespace, body: widget('cn-1', { color: 'red' }, { via: 'client-node' }) });
await custom.createNamespacedCustomObject({ ...gvr, namespace, body: widget('cn-2', { color: 'blue' }) });
const got = await custom.getNamespacedCustomObject({ ...gvr, namespace, name: 'cn-1' });
const listed = await custom.listNamespacedCustomObject({ ...gvr, namespace });
const selected = await custom.listNamespacedCustomObject({ ...gvr, namespace, labelSelector: 'via=client-node' });
const all = await custom.listClusterCustomObject(gvr);
const patched = await custom.patchNamespacedCustomObject({ ...gvr, namespace, name: 'cn-1', body: { spec: { size: 7 } } }, merge);
const status = await custom.patchNamespacedCustomObjectStatus({ ...gvr, namespace, name: 'cn-1', body: { status: { ready: true } } }, merge);
const replaced = await custom.replaceNamespacedCustomObject({ ...gvr, namespace, name: 'cn-1', body: { ...status, spec: { color: 'blue', size: 1 } } });
await custom.deleteNamespacedCustomObject({ ...gvr, namespace, name: 'cn-1' });
let gone;
try {
  await custom.getNamespacedCustomObject({ ...gvr, namespace, name: 'cn-1' });
  gone = 'still there';
} catch (e) {
  gone = e.code;
}
result.custom = {
  created: { kind: created.kind, name: created.metadata.name, spec: created.spec, generation: created.metadata.generation },
  got: got.metadata.uid === created.metadata.uid,
  listed: { kind: listed.kind, names: listed.items.map((i) => i.metadata.name) },
  selected: selected.items.map((i) => i.metadata.name),
  all: all.items.map((i) => `${i.metadata.namespace}/${i.metadata.name}`),
  patched: patched.spec,
  status: { status: status.status, spec: status.spec },
  replaced: { spec: replaced.spec, status: replaced.status, generation: replaced.metadata.generation },
  deleted: gone,
};

// An informer on the kind: the existing object is added by its list, then a create, an update and a delete arrive by watch.
const collection = `/apis/example.com/v1/namespaces/${namespace}/widgets`;
const informer = k8s.makeInformer(kc, collection, () => custom.listNamespacedCustomObject({ ...gvr, namespace }));
const events = [];
for (const type of ['add', 'update', 'delete']) informer.on(type, (o) => events.push(`${type} ${o.metadata?.name}${type === 'update' ? ` ${o.spec?.color}` : ''}`));
let stopping = false;
informer.on('error', (e) => stopping || events.push(`error ${e?.message ?? e}`));
await informer.start();
await until('the initial add', () => events.includes('add cn-2'), 10_000);
await custom.createNamespacedCustomObject({ ...gvr, namespace, body: widget('cn-3', { color: 'red' }) });
await until('add cn-3', () => events.includes('add cn-3'), 10_000);
await custom.patchNamespacedCustomObject({ ...gvr, namespace, name: 'cn-3', body: { spec: { color: 'blue' } } }, merge);
await until('update cn-3', () => events.includes('update cn-3 blue'), 10_000);
await custom.deleteNamespacedCustomObject({ ...gvr, namespace, name: 'cn-3' });
await until('delete cn-3', () => events.includes('delete cn-3'), 10_000);
stopping = true;
await informer.stop();
result.informer = events;
result.cache = informer.list().map((o) => o.metadata.name);

await extensions.deleteCustomResourceDefinition({ name: 'widgets.example.com' });
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
