/**
 * Command-line flags, named as kube-apiserver names them where one exists.
 * `npm start -- --port 9000 --etcd-servers=http://127.0.0.1:2379`.
 */
import { FeatureGates } from '../machinery/feature-gates';

export interface ServerConfig {
  bindAddress: string;
  port: number;
  dataDir: string;
  etcdServers: string[];
  etcdPrefix: string;
  etcdCompactionIntervalSeconds: number;
  /** Watches without timeoutSeconds end after a random time in [this, 2x this). */
  minRequestTimeoutSeconds: number;
  featureGates: FeatureGates;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
}

const usage = `Usage: node dist/main.js [flags]
  --bind-address IP                  address to listen on (default 127.0.0.1)
  --port N                           plain HTTP port (default 8080)
  --data-dir DIR                     embedded store directory (default ./data)
  --etcd-servers URL[,URL]           use etcd at these URLs instead of the embedded store
  --etcd-prefix PREFIX               key prefix in etcd (default /registry)
  --etcd-compaction-interval SECONDS compaction period, 0 disables (default 300; also accepts 5m, 30s)
  --min-request-timeout SECONDS      watches without timeoutSeconds end after [this, 2x) (default 1800)
  --feature-gates Name=true,...      feature gates (spec section 9)
  --log-level LEVEL                  debug|info|warn|error (default info)`;

export class FlagError extends Error {}

function durationSeconds(raw: string): number {
  const m = /^(\d+)(s|m|h)?$/.exec(raw.trim());
  if (!m) throw new FlagError(`invalid duration "${raw}"`);
  return Number(m[1]) * (m[2] === 'm' ? 60 : m[2] === 'h' ? 3600 : 1);
}

export function parseFlags(argv: string[]): ServerConfig {
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') throw new FlagError(usage);
    if (!arg.startsWith('--')) throw new FlagError(`unexpected argument "${arg}"\n${usage}`);
    const eq = arg.indexOf('=');
    if (eq > 0) values.set(arg.slice(2, eq), arg.slice(eq + 1));
    else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new FlagError(`flag ${arg} needs a value`);
      values.set(arg.slice(2), next);
      i++;
    }
  }
  const known = ['bind-address', 'port', 'data-dir', 'etcd-servers', 'etcd-prefix', 'etcd-compaction-interval', 'min-request-timeout', 'feature-gates', 'log-level'];
  for (const k of values.keys()) if (!known.includes(k)) throw new FlagError(`unknown flag: --${k}\n${usage}`);
  const port = Number(values.get('port') ?? '8080');
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new FlagError(`invalid --port ${values.get('port')}`);
  let featureGates: FeatureGates;
  try {
    featureGates = FeatureGates.parse(values.get('feature-gates') ?? '');
  } catch (e) {
    throw new FlagError(`invalid --feature-gates: ${(e as Error).message}`);
  }
  const logLevel = (values.get('log-level') ?? 'info') as ServerConfig['logLevel'];
  if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) throw new FlagError(`invalid --log-level ${logLevel}`);
  return {
    bindAddress: values.get('bind-address') ?? '127.0.0.1',
    port,
    dataDir: values.get('data-dir') ?? './data',
    etcdServers: (values.get('etcd-servers') ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    etcdPrefix: values.get('etcd-prefix') ?? '/registry',
    etcdCompactionIntervalSeconds: durationSeconds(values.get('etcd-compaction-interval') ?? '300'),
    minRequestTimeoutSeconds: Math.max(1, durationSeconds(values.get('min-request-timeout') ?? '1800')),
    featureGates,
    logLevel,
  };
}
