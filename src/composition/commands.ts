/** The subcommands `migrate` and `snapshot save|restore`, wired to the concrete stores. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseCommand, type Command } from '../config/commands';
import { fatal, firstLine } from '../config/startup';
import { parsedOrExit } from '../config/parsed-or-exit';
import { FlagError } from '../config/flag-error';
import { readEtcdTls } from './preflight';
import { openLmdbStorage, restoreSnapshot, saveSnapshot, SnapshotError } from '../adapters/lmdb';
import { EtcdStorage } from '../adapters/etcd';
import { migrateStore, MigrateError } from '../tools/migrate';
import { storageErrorStatus } from '../registry/storage-errors';
import { allDefinitions } from '../resources';
import { eventDefinitions } from '../resources/event';
import type { ResourceDefinition } from '../machinery/resource-definition';

export async function runCommand(argv: string[]): Promise<void> {
  const cmd: Command = parsedOrExit(() => parseCommand(argv));
  const out = (line: string) => process.stdout.write(`${line}\n`);
  try {
    if (cmd.command === 'snapshot') {
      const s = cmd.action === 'save' ? await saveSnapshot(cmd.dataDir, cmd.file) : await restoreSnapshot(cmd.file, cmd.dataDir, cmd.force);
      out(`${cmd.action === 'save' ? 'saved' : 'restored'} ${cmd.file}: revision ${s.revision}, ${s.keys} keys, ${s.bytes} bytes`);
      return;
    }
    if (!existsSync(join(cmd.dataDir, 'data.mdb'))) fatal(`there is no embedded store in --data-dir ${cmd.dataDir}`);
    const tls = readEtcdTls(cmd);
    // Migrate only reads the embedded store: no expiry sweeps from this process.
    const source = openLmdbStorage(cmd.dataDir, { expiryIntervalMs: 2 ** 31 - 1 });
    const target = new EtcdStorage({ endpoints: cmd.etcdServers, prefix: cmd.etcdPrefix, requestTimeoutMs: 30_000, tls });
    try {
      const ttlSeconds = (def: ResourceDefinition) => (eventDefinitions.includes(def) ? cmd.eventTtlSeconds : undefined);
      const report = await migrateStore(source, target, allDefinitions, { force: cmd.force, ttlSeconds, log: out });
      for (const c of report.counts.filter((c) => c.source || c.target)) out(`  ${c.resource}: ${c.source} in the embedded store, ${c.target} in etcd`);
      out(`migrated ${report.copied} keys (the embedded store at revision ${report.revision}) to etcd prefix ${cmd.etcdPrefix}; counts agree`);
    } finally {
      await source.close();
      await target.close();
    }
  } catch (e) {
    if (e instanceof MigrateError || e instanceof SnapshotError || e instanceof FlagError) fatal(e.message);
    // "etcd is unavailable" alone does not say why: the transport's cause does (refused, a certificate etcd refused).
    const cause = (e as { cause?: unknown }).cause;
    fatal(`${cmd.command} failed: ${firstLine(storageErrorStatus(e)?.message ?? e)}${cause instanceof Error ? ` (${firstLine(cause)})` : ''}`);
  }
}

