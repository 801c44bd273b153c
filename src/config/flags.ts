/**
 * Command-line flags, named as kube-apiserver names them where one exists.
 * `npm start -- --secure-port 7443 --etcd-servers=http://127.0.0.1:2379`.
 */
import { isIP } from 'node:net';
import { totalmem } from 'node:os';
import { FeatureGates } from '../machinery/feature-gates';
import { defaultSeats } from '../flowcontrol/fair-queues';
import { AdmissionConfigError, selectAdmissionPlugins, type AdmissionPluginName } from '../admission/plugin-names';
import { ControllerFlagError, controllerBoolFlags, controllerValueFlags, parseControllerFlags, type ControllerConfig } from './controller-flags';
import { FlagError, HelpRequested } from './flag-error';
import { etcdTlsFlagNames, parseEtcdFlags, type EtcdFlags } from './etcd-flags';
import { serverUsage, versionLine } from './usage';

export interface ServerConfig extends EtcdFlags {
  bindAddress: string;
  securePort: number;
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  certDir: string;
  /** Plain-HTTP port served as system:admin; 0 = off. */
  port: number;
  insecureBindAddress: string;
  dataDir: string;
  etcdPrefix: string;
  etcdCompactionIntervalSeconds: number;
  /** Watches without timeoutSeconds end after a random time in [this, 2x this). */
  minRequestTimeoutSeconds: number;
  featureGates: FeatureGates;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  clientCaFile?: string;
  tokenAuthFile?: string;
  serviceAccountSigningKeyFile?: string;
  serviceAccountKeyFiles: string[];
  serviceAccountIssuers: string[];
  apiAudiences: string[];
  serviceAccountMaxTokenExpirationSeconds: number;
  anonymousAuth: boolean;
  authorizationMode: 'RBAC' | 'AlwaysAllow';
  auditLogPath?: string;
  auditPolicyFile?: string;
  auditLogMaxSizeMB: number;
  auditLogMaxBackup: number;
  /** blocking: requests wait for room in a full audit buffer; batch: events that find it full are dropped (counted). */
  auditLogMode: 'blocking' | 'batch';
  auditLogBatchBufferSize: number;
  maxRequestsInflight: number;
  maxMutatingRequestsInflight: number;
  flowControlSeats: number;
  /** Events expire this long after their last write. */
  eventTtlSeconds: number;
  /** Admission plugins in running order (--enable-admission-plugins / --disable-admission-plugins). */
  admissionPlugins: AdmissionPluginName[];
  /** Bytes the watch-cache history of all kinds may hold together. */
  watchCacheHistoryBytes: number;
  /** Deadline of every storage call (ms); past it the request answers 504. */
  requestTimeoutMs: number;
  /** Bounds of the storage check of /livez, and of /readyz and /healthz (ms). */
  etcdHealthcheckTimeoutMs: number;
  etcdReadycheckTimeoutMs: number;
  /** In-process controllers: selection, leader election, signing CAs. */
  controllerManager: ControllerConfig;
}

export { FlagError, HelpRequested };

const valueFlags = [
  'bind-address', 'secure-port', 'tls-cert-file', 'tls-private-key-file', 'cert-dir', 'port', 'insecure-bind-address', 'data-dir',
  'etcd-servers', 'etcd-prefix', 'etcd-compaction-interval', 'min-request-timeout', 'feature-gates', 'log-level', 'client-ca-file',
  'token-auth-file', 'service-account-signing-key-file', 'service-account-key-file', 'service-account-issuer', 'api-audiences',
  'service-account-max-token-expiration', 'authorization-mode', 'audit-log-path', 'audit-policy-file', 'audit-log-maxsize',
  'audit-log-maxbackup', 'audit-log-mode', 'audit-log-batch-buffer-size', 'max-requests-inflight', 'max-mutating-requests-inflight', 'flow-control-seats', 'event-ttl', 'enable-admission-plugins',
  'disable-admission-plugins', 'watch-cache-history-bytes', 'request-timeout', 'etcd-healthcheck-timeout', 'etcd-readycheck-timeout',
  ...etcdTlsFlagNames,
  ...controllerValueFlags,
];
/** Flags that may stand alone (`--anonymous-auth` = true) or take `=false`. */
const boolFlags = ['anonymous-auth', ...controllerBoolFlags];

/** Seconds (`300`) or a Go duration of hours, minutes and seconds (`5m`, `1h0m0s`, `1h30m`). */
export function durationSeconds(raw: string, flag = 'duration'): number {
  const text = raw.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text);
  if (!m || text === '') throw new FlagError(`invalid --${flag} "${raw}": want seconds or a duration like 30s, 5m, 1h`);
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
}

function integer(values: Map<string, string[]>, name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = values.get(name)?.at(-1);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isInteger(n) || n < min || n > max) throw new FlagError(`invalid --${name} "${raw}": want an integer from ${min} to ${max}`);
  return n;
}

function bool(values: Map<string, string[]>, name: string, fallback: boolean): boolean {
  const raw = values.get(name)?.at(-1);
  if (raw === undefined) return fallback;
  if (['true', '1', 't', 'T', 'TRUE', 'True'].includes(raw)) return true;
  if (['false', '0', 'f', 'F', 'FALSE', 'False'].includes(raw)) return false;
  throw new FlagError(`invalid --${name} "${raw}": want true or false`);
}

function isLoopback(address: string): boolean {
  return address === 'localhost' || address === '::1' || /^127\.\d+\.\d+\.\d+$/.test(address);
}

export function parseFlags(argv: string[]): ServerConfig {
  const values = new Map<string, string[]>();
  const put = (k: string, v: string) => values.set(k, [...(values.get(k) ?? []), v]);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') throw new HelpRequested(serverUsage);
    if (arg === '--version') throw new HelpRequested(versionLine());
    if (!arg.startsWith('--')) throw new FlagError(`unexpected argument "${arg}" (flags start with --; --help lists them)`);
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    if (!valueFlags.includes(name) && !boolFlags.includes(name)) throw new FlagError(`unknown flag --${name} (--help lists the flags)`);
    if (eq > 0) put(name, arg.slice(eq + 1));
    else if (boolFlags.includes(name)) {
      const next = argv[i + 1];
      if (next !== undefined && /^(true|false)$/i.test(next)) {
        put(name, next);
        i++;
      } else put(name, 'true');
    } else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new FlagError(`flag --${name} needs a value`);
      put(name, next);
      i++;
    }
  }
  const last = (k: string) => values.get(k)?.at(-1);
  const list = (k: string) => (values.get(k) ?? []).flatMap((v) => v.split(',')).map((s) => s.trim()).filter(Boolean);
  let featureGates: FeatureGates;
  try {
    featureGates = FeatureGates.parse(last('feature-gates') ?? '');
  } catch (e) {
    throw new FlagError(`invalid --feature-gates: ${(e as Error).message}`);
  }
  const logLevel = (last('log-level') ?? 'info') as ServerConfig['logLevel'];
  if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) throw new FlagError(`invalid --log-level "${logLevel}": want debug, info, warn or error`);
  const bindAddress = last('bind-address') ?? '127.0.0.1';
  if (!isIP(bindAddress)) throw new FlagError(`invalid --bind-address "${bindAddress}": want an IPv4 or IPv6 address`);
  const etcd = parseEtcdFlags(list('etcd-servers'), last);
  const insecureBindAddress = last('insecure-bind-address') ?? '127.0.0.1';
  if (!isLoopback(insecureBindAddress)) {
    throw new FlagError(`invalid --insecure-bind-address "${insecureBindAddress}": the plain-HTTP port serves everyone as system:admin, so it binds to a loopback address only`);
  }
  const auditLogMode = last('audit-log-mode') ?? 'blocking';
  if (auditLogMode !== 'blocking' && auditLogMode !== 'batch') throw new FlagError(`invalid --audit-log-mode "${auditLogMode}": want blocking or batch`);
  const authorizationMode = last('authorization-mode') ?? 'RBAC';
  if (authorizationMode !== 'RBAC' && authorizationMode !== 'AlwaysAllow') throw new FlagError(`invalid --authorization-mode "${authorizationMode}": want RBAC or AlwaysAllow`);
  const tlsCertFile = last('tls-cert-file');
  const tlsPrivateKeyFile = last('tls-private-key-file');
  if (!!tlsCertFile !== !!tlsPrivateKeyFile) throw new FlagError('--tls-cert-file and --tls-private-key-file go together');
  let admissionPlugins: AdmissionPluginName[];
  try {
    admissionPlugins = selectAdmissionPlugins(list('enable-admission-plugins'), list('disable-admission-plugins'));
  } catch (e) {
    if (e instanceof AdmissionConfigError) throw new FlagError(`invalid admission plugins: ${e.message}`);
    throw e;
  }
  const eventTtlSeconds = durationSeconds(last('event-ttl') ?? '1h', 'event-ttl');
  if (eventTtlSeconds < 1) throw new FlagError(`invalid --event-ttl "${last('event-ttl')}": must be at least 1s`);
  let controllerManager: ControllerConfig;
  try {
    controllerManager = parseControllerFlags(last, list, (k, fallback) => bool(values, k, fallback));
  } catch (e) {
    if (e instanceof ControllerFlagError) throw new FlagError(e.message);
    throw e;
  }
  const issuers = values.get('service-account-issuer') ?? ['https://kubernetes.default.svc.cluster.local'];
  const maxExp = last('service-account-max-token-expiration');
  return {
    bindAddress,
    securePort: integer(values, 'secure-port', 6443, 0, 65535),
    tlsCertFile,
    tlsPrivateKeyFile,
    certDir: last('cert-dir') ?? '',
    port: integer(values, 'port', 0, 0, 65535),
    insecureBindAddress,
    dataDir: last('data-dir') ?? './data',
    ...etcd,
    etcdPrefix: last('etcd-prefix') ?? '/registry',
    etcdCompactionIntervalSeconds: durationSeconds(last('etcd-compaction-interval') ?? '300', 'etcd-compaction-interval'),
    minRequestTimeoutSeconds: Math.max(1, durationSeconds(last('min-request-timeout') ?? '1800', 'min-request-timeout')),
    featureGates,
    logLevel,
    clientCaFile: last('client-ca-file'),
    tokenAuthFile: last('token-auth-file'),
    serviceAccountSigningKeyFile: last('service-account-signing-key-file'),
    serviceAccountKeyFiles: values.get('service-account-key-file') ?? [],
    serviceAccountIssuers: issuers,
    apiAudiences: list('api-audiences').length ? list('api-audiences') : issuers,
    serviceAccountMaxTokenExpirationSeconds: maxExp ? durationSeconds(maxExp, 'service-account-max-token-expiration') : 0,
    anonymousAuth: bool(values, 'anonymous-auth', true),
    authorizationMode,
    auditLogPath: last('audit-log-path'),
    auditPolicyFile: last('audit-policy-file'),
    auditLogMaxSizeMB: integer(values, 'audit-log-maxsize', 100),
    auditLogMaxBackup: integer(values, 'audit-log-maxbackup', 10),
    auditLogMode,
    auditLogBatchBufferSize: Math.max(1, integer(values, 'audit-log-batch-buffer-size', 10_000)),
    maxRequestsInflight: integer(values, 'max-requests-inflight', 400, 1),
    maxMutatingRequestsInflight: integer(values, 'max-mutating-requests-inflight', 200, 1),
    flowControlSeats: integer(values, 'flow-control-seats', defaultSeats, 1),
    eventTtlSeconds,
    admissionPlugins,
    watchCacheHistoryBytes: values.has('watch-cache-history-bytes')
      ? byteSize('watch-cache-history-bytes', last('watch-cache-history-bytes')!)
      : defaultHistoryBytes(),
    requestTimeoutMs: positiveMs('request-timeout', last('request-timeout') ?? '10s'),
    etcdHealthcheckTimeoutMs: positiveMs('etcd-healthcheck-timeout', last('etcd-healthcheck-timeout') ?? '2s'),
    etcdReadycheckTimeoutMs: positiveMs('etcd-readycheck-timeout', last('etcd-readycheck-timeout') ?? '2s'),
    controllerManager,
  };
}

/** A Go-style duration (`10s`, `1m30s`, `500ms`; a bare number is seconds) in ms, more than zero. */
function positiveMs(flag: string, raw: string): number {
  const text = raw.trim();
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let ms = 0;
  if (/^\d+(\.\d+)?$/.test(text)) ms = Number(text) * 1000;
  else {
    const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
    if (!parts.length || parts.map((p) => p[0]).join('') !== text) {
      throw new FlagError(`invalid --${flag} "${raw}": want a duration such as 10s, 1m or 500ms`);
    }
    for (const p of parts) ms += Number(p[1]) * units[p[2]];
  }
  if (!(ms > 0)) throw new FlagError(`invalid --${flag} "${raw}": must be more than zero`);
  return Math.round(ms);
}

const binaryUnits: Record<string, number> = { '': 1, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, k: 1000, M: 1000 ** 2, G: 1000 ** 3 };

function byteSize(flag: string, raw: string): number {
  const m = /^(\d+)(Ki|Mi|Gi|k|M|G)?$/.exec(raw.trim());
  if (!m) throw new FlagError(`invalid --${flag} "${raw}": want bytes, e.g. 268435456 or 256Mi`);
  return Number(m[1]) * binaryUnits[m[2] ?? ''];
}

/** 1/16 of the memory this process may use (its cgroup limit when lower), between 16 MiB and 256 MiB. */
export function defaultHistoryBytes(): number {
  const limit = process.constrainedMemory?.() ?? 0;
  const memory = limit > 0 ? Math.min(limit, totalmem()) : totalmem();
  return Math.max(16 * 1024 ** 2, Math.min(256 * 1024 ** 2, Math.floor(memory / 16)));
}
