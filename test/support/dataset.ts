/**
 * A data set with an object of every served kind (the conformance fixtures,
 * with their status where the kind has one), and a reader of everything a
 * server holds, for round trips through migrate and snapshot/restore.
 */
import { resourcePaths } from '../../src/adapters/http/routes';
import { until } from './until';
import { allDefinitions } from '../../src/resources';
import { loadFixtures } from '../conformance/load-fixtures';

export const datasetNamespace = 'dataset';

/** The feature gates every fixture's kind needs, as one --feature-gates value. */
export function datasetGates(): string {
  const gates = Object.assign({}, ...loadFixtures().map((f) => f.gates ?? {})) as Record<string, boolean>;
  return Object.entries(gates).map(([k, v]) => `${k}=${v}`).join(',');
}

async function call(url: string, method: string, path: string, body?: unknown) {
  const res = await fetch(url + path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

/** Creates one object of every kind (and sets its status); returns how many. */
export async function createDataset(url: string): Promise<number> {
  let created = 0;
  for (const f of loadFixtures()) {
    const p = resourcePaths(f.definition);
    const collection = p.collection.replace(':namespace', datasetNamespace);
    const obj = await f.valid();
    const res = await call(url, 'POST', collection, obj);
    if (res.status !== 201) throw new Error(`creating a ${f.definition.kind}: ${res.status} ${JSON.stringify(res.json)}`);
    created++;
    let current = res.json;
    // A kind a controller writes right after create is written over only once that write is in.
    const settled = f.settled;
    if (settled) {
      current = await until(`a ${f.definition.kind} to settle`, async () => {
        const r = await call(url, 'GET', `${collection}/${res.json.metadata.name}`);
        return settled(r.json) ? r.json : undefined;
      });
    }
    if (f.status) {
      const withStatus = { ...current, ...(await f.status(current)) };
      const put = await call(url, 'PUT', `${collection}/${res.json.metadata.name}/status`, withStatus);
      if (put.status !== 200) throw new Error(`status of a ${f.definition.kind}: ${put.status} ${JSON.stringify(put.json)}`);
    }
  }
  return created;
}

/** Every object of every served kind, keyed `plural.group/namespace/name`. */
export async function readEverything(url: string): Promise<Map<string, any>> {
  const all = new Map<string, any>();
  for (const def of allDefinitions) {
    const p = resourcePaths(def);
    const res = await call(url, 'GET', p.allNamespaces ?? p.collection);
    if (res.status === 404) continue; // a kind behind a gate this server does not enable
    if (res.status !== 200) throw new Error(`listing ${def.plural}: ${res.status} ${JSON.stringify(res.json)}`);
    for (const item of res.json.items) all.set(`${def.plural}.${def.group}/${item.metadata.namespace ?? ''}/${item.metadata.name}`, item);
  }
  return all;
}

/**
 * Everything, once the server's own controllers (RBAC aggregation, namespaces)
 * have stopped changing it: two reads a little apart that agree (bounded).
 */
export async function readSettled(url: string): Promise<Map<string, any>> {
  let last = await readEverything(url);
  for (let i = 0; i < 30; i++) {
    await new Promise((r) => setTimeout(r, 300));
    const now = await readEverything(url);
    if (JSON.stringify([...now]) === JSON.stringify([...last])) return now;
    last = now;
  }
  throw new Error('the server kept changing its objects');
}

/** The object without its resourceVersion (which a migration changes). */
export function withoutVersion(obj: any): any {
  const { resourceVersion: _rv, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}
