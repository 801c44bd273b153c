/**
 * `svc-apiserver migrate`: copies every key of one store (the embedded one)
 * into another (etcd), value bytes unchanged, so names, uids, creation
 * timestamps and managedFields stay as they were; resourceVersions become
 * the target's revisions. The source is read at one revision, so the copy is
 * a consistent snapshot. A target that already holds keys under its prefix
 * is refused unless forced. At the end, every resource's count is compared.
 */
import { KeyExistsError, type KeyValue, type PutOptions, type StoragePort } from '../ports/storage.port';
import type { ResourceDefinition } from '../machinery/resource-definition';
import { resourcePrefix } from '../registry/keys';

export interface MigrateOptions {
  /** Overwrite keys a non-empty target already has (others there are left alone). */
  force: boolean;
  /** TTL for objects of a kind (Events), as the server gives them. */
  ttlSeconds?: (def: ResourceDefinition) => number | undefined;
  /** Progress lines for a person. */
  log: (line: string) => void;
  pageSize?: number;
  /** Writes in flight at once. */
  concurrency?: number;
}

export interface ResourceCount {
  resource: string;
  source: number;
  target: number;
}

export interface MigrateReport {
  revision: number;
  copied: number;
  counts: ResourceCount[];
}

export class MigrateError extends Error {}

export async function migrateStore(source: StoragePort, target: StoragePort, definitions: ResourceDefinition[], opts: MigrateOptions): Promise<MigrateReport> {
  const existing = await target.range('/', { limit: 1 });
  if (existing.count > 0 && !opts.force) {
    throw new MigrateError(`the target already holds ${existing.count} keys under its prefix; migrate into an empty prefix (--etcd-prefix), or add --force to write over them`);
  }
  const prefixes = definitions.map((def) => ({ def, prefix: resourcePrefix(def) }));
  const putOptions = (key: string): PutOptions | undefined => {
    const owner = prefixes.find((p) => key.startsWith(p.prefix));
    const ttlSeconds = owner && opts.ttlSeconds?.(owner.def);
    return ttlSeconds ? { ttlSeconds } : undefined;
  };

  const revision = await source.currentRevision();
  let copied = 0;
  let startKey: string | undefined;
  for (;;) {
    const page = await source.range('/', { revision, limit: opts.pageSize ?? 500, startKey });
    await inParallel(page.items, opts.concurrency ?? 32, (kv) => put(target, kv, putOptions(kv.key), opts.force));
    copied += page.items.length;
    if (page.items.length) opts.log(`copied ${copied} of ${copied + page.count - page.items.length} keys`);
    if (!page.more || page.items.length === 0) break;
    startKey = `${page.items[page.items.length - 1].key}\u0000`;
  }

  const counts: ResourceCount[] = [];
  for (const { def, prefix } of prefixes) {
    const [from, to] = await Promise.all([source.range(prefix, { revision, limit: 1 }), target.range(prefix, { limit: 1 })]);
    counts.push({ resource: def.group ? `${def.plural}.${def.group}` : def.plural, source: from.count, target: to.count });
  }
  const short = counts.filter((c) => c.target < c.source);
  if (short.length) {
    throw new MigrateError(`counts differ after the copy: ${short.map((c) => `${c.resource} ${c.source} in the source, ${c.target} in the target`).join('; ')}`);
  }
  return { revision, copied, counts };
}

/** Creates the key; when it exists (forced), replaces its value whatever it was. */
async function put(target: StoragePort, kv: KeyValue, options: PutOptions | undefined, force: boolean): Promise<void> {
  try {
    await target.create(kv.key, kv.value, options);
  } catch (e) {
    if (!(e instanceof KeyExistsError) || !force) throw e;
    for (let attempt = 0; ; attempt++) {
      const current = await target.get(kv.key);
      try {
        if (current) await target.update(kv.key, kv.value, current.modRevision, options);
        else await target.create(kv.key, kv.value, options);
        return;
      } catch (err) {
        if (attempt >= 3) throw err; // someone else writes this key at the same time
      }
    }
  }
}

async function inParallel<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
