/**
 * The subcommands next to serving: `migrate` (embedded store → etcd) and
 * `snapshot save|restore` (the embedded store). Flags keep the server's names.
 */
import { durationSeconds } from './flags';
import { FlagError, HelpRequested } from './flag-error';
import { etcdTlsFlagNames, parseEtcdFlags, type EtcdFlags } from './etcd-flags';

export interface MigrateCommand extends EtcdFlags {
  command: 'migrate';
  dataDir: string;
  etcdPrefix: string;
  force: boolean;
  eventTtlSeconds: number;
}

export interface SnapshotCommand {
  command: 'snapshot';
  action: 'save' | 'restore';
  file: string;
  dataDir: string;
  force: boolean;
}

export type Command = MigrateCommand | SnapshotCommand;

export const commandNames = ['migrate', 'snapshot'];

const usage = `Usage:
  svc-apiserver migrate --data-dir DIR --etcd-servers URL[,URL] [--etcd-prefix P] [--event-ttl 1h] [--force]
                        [--etcd-cafile FILE --etcd-certfile FILE --etcd-keyfile FILE]
      copies every object of the embedded store in DIR into etcd under P (default /registry), keeping names,
      uids, creation timestamps and managedFields; refuses a prefix that holds keys unless --force; the
      TLS flags are the server's, for https:// etcd
  svc-apiserver snapshot save FILE [--data-dir DIR]
      writes a consistent copy of the embedded store to FILE, also while the server runs
  svc-apiserver snapshot restore FILE [--data-dir DIR] [--force]
      makes FILE the store of DIR (an empty directory; --force replaces a store, its server stopped)`;

export function parseCommand(argv: string[]): Command {
  const [command, ...rest] = argv;
  const positional: string[] = [];
  const values = new Map<string, string>();
  let force = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === '--help' || arg === '-h') throw new HelpRequested(usage);
    if (arg === '--force' || arg === '--force=true') {
      force = true;
      continue;
    }
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    const value = eq > 0 ? arg.slice(eq + 1) : rest[++i];
    if (value === undefined || value.startsWith('--')) throw new FlagError(`flag --${name} needs a value`);
    values.set(name, value);
  }
  const allowed = command === 'migrate' ? ['data-dir', 'etcd-servers', 'etcd-prefix', 'event-ttl', ...etcdTlsFlagNames] : ['data-dir'];
  for (const k of values.keys()) if (!allowed.includes(k)) throw new FlagError(`unknown flag --${k} for ${command} (--help lists the flags)`);
  const dataDir = values.get('data-dir') ?? './data';
  if (command === 'migrate') {
    if (positional.length) throw new FlagError(`unexpected argument "${positional[0]}" for migrate`);
    const servers = (values.get('etcd-servers') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    if (!servers.length) throw new FlagError('migrate needs --etcd-servers, the etcd to copy into');
    const etcd = parseEtcdFlags(servers, (k) => values.get(k));
    const eventTtlSeconds = durationSeconds(values.get('event-ttl') ?? '1h', 'event-ttl');
    return { command, dataDir, ...etcd, etcdPrefix: values.get('etcd-prefix') ?? '/registry', force, eventTtlSeconds };
  }
  const [action, file, ...extra] = positional;
  if (action !== 'save' && action !== 'restore') throw new FlagError(`snapshot needs "save FILE" or "restore FILE" (--help shows both)`);
  if (!file) throw new FlagError(`snapshot ${action} needs the snapshot FILE`);
  if (extra.length) throw new FlagError(`unexpected argument "${extra[0]}" for snapshot ${action}`);
  if (action === 'save' && force) throw new FlagError('snapshot save takes no --force (it never overwrites a file)');
  return { command: 'snapshot', action, file, dataDir, force };
}
