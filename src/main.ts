#!/usr/bin/env node
/**
 * Composition root: parse flags, build the adapters, start serving. The only
 * file that names concrete adapters. `assemble` is exported so that tests
 * run exactly the wiring production runs.
 */
import 'reflect-metadata';
import { createServer, Server } from 'node:http';
import { createServer as createTlsServer, Server as TlsServer } from 'node:https';
import { resolve as resolvePath, join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { parseFlags, FlagError, HelpRequested, ServerConfig } from './config/flags';
import { fatal, firstLine, listenError } from './config/startup';
import { allDefinitions } from './resources';
import { Registry } from './registry/registry';
import { startCompactor } from './registry/compactor';
import type { StoragePort } from './ports/storage.port';
import type { FeatureGates } from './machinery/feature-gates';
import { apiVersionOf, type ResourceDefinition } from './machinery/resource-definition';
import { DataDirError, openLmdbStorage, restoreSnapshot, saveSnapshot, SnapshotError } from './adapters/lmdb';
import { commandNames, parseCommand, type Command } from './config/commands';
import { migrateStore, MigrateError } from './tools/migrate';
import { storageErrorStatus } from './registry/storage-errors';
import { existsSync } from 'node:fs';
import { EtcdStorage } from './adapters/etcd';
import { podCertificateVerifier, WebCryptoAdapter } from './adapters/crypto';
import { systemClock } from './adapters/clock/system.clock';
import { systemRandom } from './adapters/random/system.random';
import { createApp, withAppPrototypes } from './adapters/http';
import { openApiRouter } from './adapters/http/openapi';
import { WatchStreamServer, type WatchStreamOptions } from './adapters/http/watch-stream';
import { CachedReadPath, WatchCache, type WatchCacheOptions } from './registry/watch-cache';
import { version } from './version';
import { createMetrics, instrumentStorage, metricsMiddleware, metricsRouter } from './adapters/metrics';
import { objectKey, resourcePrefix } from './registry/keys';
import { withDeadlines } from './registry/storage-deadline';
import { alwaysAllow, type AuthorizerPort } from './ports/authorizer.port';
import { RbacAuthorizer, type KindSnapshotSource } from './auth/authz/rbac-authorizer';
import { AuthenticatorChain } from './auth/authn/chain';
import { podCertificateAuthenticator, x509Authenticator } from './auth/authn/x509';
import { tokenFileAuthenticator } from './auth/authn/token-file';
import { serviceAccountAuthenticator, type UidLookup } from './auth/authn/service-account';
import { AuditTrail } from './auth/audit/trail';
import { reconcileBootstrapPolicy } from './auth/bootstrap';
import { startSystemNamespaces } from './controllers/system-namespaces';
import { admissionChain, DEFAULT_ADMISSION_PLUGINS, type AdmissionPluginName } from './admission';
import { eventDefinitions } from './resources/event';
import {
  ControllerManager,
  ControllerSelectionError,
  LeaderElector,
  controllerDescriptors,
  validateLeaderElection,
  type LeaderElectionConfig,
  type SigningSetup,
} from './controllers';
import { errors } from './machinery/status';
import { accessFilter } from './adapters/http/access-filter';
import { authRouter, reviewDiscovery } from './adapters/http/auth-routes';
import { ensureAdminKubeconfig } from './adapters/pki';
import { checkSharedCa, defaultSecurity, loadSecurity, loadSigning, type SecurityOptions, type TlsMaterial } from './security';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';

export type Log = ((level: string, msg: string, extra?: object) => void) & { enabled?(level: string): boolean };

export function logger(level: ServerConfig['logLevel']): Log {
  const order = ['debug', 'info', 'warn', 'error'];
  const enabled = (lvl: string) => order.indexOf(lvl) >= order.indexOf(level);
  const log: Log = (lvl, msg, extra = {}) => {
    if (enabled(lvl)) console.log(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...extra }));
  };
  log.enabled = enabled;
  return log;
}

export function openStorageFor(config: Pick<ServerConfig, 'etcdServers' | 'etcdPrefix' | 'dataDir'> & { requestTimeoutMs?: number }): StoragePort {
  return config.etcdServers.length
    ? new EtcdStorage({ endpoints: config.etcdServers, prefix: config.etcdPrefix, requestTimeoutMs: config.requestTimeoutMs })
    : openLmdbStorage(config.dataDir);
}

export interface AssembleOptions {
  storage: StoragePort;
  gates: FeatureGates;
  log: Log;
  compactionIntervalSeconds?: number;
  /** Watch cache and watch stream tunables (tests shorten windows and intervals). */
  watchCache?: Partial<WatchCacheOptions>;
  watchStream?: Partial<WatchStreamOptions>;
  /** Authentication, authorization, audit and limits (defaults: RBAC, anonymous allowed, no tokens). */
  security?: Partial<SecurityOptions>;
  /** Serving certificate and client CA; without it there is no HTTPS server. */
  tls?: TlsMaterial;
  /** --event-ttl in seconds (default one hour). */
  eventTtlSeconds?: number;
  /** Admission plugins in running order (default: NamespaceAutoProvision, NamespaceLifecycle). */
  admissionPlugins?: readonly AdmissionPluginName[];
  /** Deadline of every storage call (--request-timeout, default 10 s). */
  requestTimeoutMs?: number;
  /** Bounds of the storage check in /livez, and in /readyz and /healthz (default 2 s each). */
  healthcheckTimeoutMs?: number;
  readycheckTimeoutMs?: number;
  /** In-process controllers (default: all, without leader election, no signing CA). */
  controllers?: {
    /** --controllers, default ['*']. */
    selection?: string[];
    /** Run controllers only while holding this lease. */
    leaderElection?: LeaderElectionConfig;
    /** CAs of the built-in signers; without them no certificates are issued. */
    signing?: SigningSetup;
    /** The cluster CA bundle the root CA publisher puts in every namespace's kube-root-ca.crt. */
    rootCaBundle?: string;
    intervalMs?: number;
  };
}

export interface Assembled {
  /** Plain HTTP: every request runs as system:admin (the opt-in `--port`). */
  server: Server;
  /** HTTPS with authentication and authorization (when `tls` was given). */
  secureServer?: TlsServer;
  authorizer: AuthorizerPort;
  /** Resolves once the bootstrap RBAC policy is in storage. */
  bootstrapped: Promise<void>;
  /** The in-process controllers (started once the bootstrap policy is in place). */
  controllers: ControllerManager;
  registry: Registry;
  cache: WatchCache;
  watch: WatchStreamServer;
  /** Fails readiness first, then stops background work and closes storage. */
  shutdown(): Promise<void>;
}

/** The RBAC kinds as the watch cache holds them; a kind that is not served reads as empty. */
function rbacSources(cache: WatchCache, definitions: ResourceDefinition[]) {
  const source = (plural: string): KindSnapshotSource => {
    const def = definitions.find((d) => d.group === 'rbac.authorization.svc.io' && d.plural === plural);
    if (!def) return { changes: () => 0, objects: () => [] };
    return { changes: () => cache.kind(def).changes, objects: () => cache.snapshot(def).objects };
  };
  return { roles: source('roles'), roleBindings: source('rolebindings'), clusterRoles: source('clusterroles'), clusterRoleBindings: source('clusterrolebindings') };
}

/** Object uids from the watch cache, for service-account token checks (no storage reads). */
function uidLookup(cache: WatchCache, definitions: ResourceDefinition[]): UidLookup {
  return {
    uidOf(apiVersion, kind, namespace, name) {
      const def = definitions.find((d) => apiVersionOf(d) === apiVersion && d.kind === kind);
      if (!def) return undefined;
      return cache.kind(def).get(objectKey(def, def.namespaced ? namespace : undefined, name))?.uid;
    },
  };
}

/** A TokenRequest may bind to any served kind; others are a 400 as upstream's unsupported kinds. */
function bindableUid(lookup: UidLookup, definitions: ResourceDefinition[], apiVersion: string, kind: string, ns: string, name: string): string | undefined {
  if (!definitions.some((d) => apiVersionOf(d) === apiVersion && d.kind === kind)) {
    throw errors.badRequest(`cannot bind token for object of type ${apiVersion}, Kind=${kind}: it is not served here`);
  }
  return lookup.uidOf(apiVersion, kind, ns, name);
}

/**
 * A counter that moves when the watch cache applies a change to an object
 * being deleted, so that the garbage collector looks again only then (its
 * bytes are searched, nothing is decoded).
 */
function deletionActivity(cache: WatchCache, definitions: ResourceDefinition[]): () => number {
  const seen = new Map<ResourceDefinition, number>();
  let activity = 0;
  return () => {
    if (!cache.ready()) return -1;
    for (const def of definitions) {
      const kind = cache.kind(def);
      const from = seen.get(def) ?? 0;
      if (kind.revision === from) continue;
      const log = kind.log;
      // Events older than the window cannot be looked at: assume one of them mattered.
      if (from < log.startRev) activity++;
      else {
        for (let seq = log.seqAfter(from); seq < log.endSeq; seq++) {
          if (log.at(seq)?.object?.bytes.includes('"deletionTimestamp"')) {
            activity++;
            break;
          }
        }
      }
      seen.set(def, kind.revision);
    }
    return activity;
  };
}

/** Reconciles the bootstrap RBAC policy once the cache is loaded, retrying until it succeeds. */
function startBootstrapPolicy(registry: Registry, cache: WatchCache, log: Log): { stop(): void; done: Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const done = new Promise<void>((resolve) => {
    const attempt = async () => {
      if (stopped) return resolve();
      try {
        if (!cache.ready()) throw new Error('watch cache not ready');
        await reconcileBootstrapPolicy(registry, log);
        return resolve();
      } catch (e) {
        if ((e as Error).message !== 'watch cache not ready') log('warn', 'bootstrap RBAC policy not reconciled yet, retrying', { error: (e as Error).message });
        timer = setTimeout(() => void attempt(), 200);
        timer.unref?.();
      }
    };
    void attempt();
  });
  return {
    done,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/** Builds the registry and HTTP server over the given storage (not yet listening). */
export function assemble(opts: AssembleOptions): Assembled {
  const { gates, log } = opts;
  const definitions = allDefinitions.filter((d) => !d.featureGate || gates.enabled(d.featureGate));
  const metrics = createMetrics(() =>
    Promise.all(definitions.map(async (d) => ({ resource: d.group ? `${d.plural}.${d.group}` : d.plural, count: (await opts.storage.range(resourcePrefix(d), { limit: 1 })).count }))),
  );
  const storage = withDeadlines(instrumentStorage(opts.storage, metrics), opts.requestTimeoutMs ?? 10_000);
  // Reads and watches are served from the watch cache, fed by one storage watch per kind.
  const cache = new WatchCache(storage, definitions, gates, { now: () => systemClock.now().getTime(), ...opts.watchCache }, log).start();
  // Watches go through the registry like every other verb (it hands them to its read path, the watch cache).
  const watch = new WatchStreamServer({ watch: (def, o) => registry.watch(def, o) }, opts.watchStream);
  const security = { ...defaultSecurity, ...opts.security };
  const authorizer = security.authorizationMode === 'AlwaysAllow' ? alwaysAllow : new RbacAuthorizer(rbacSources(cache, definitions));
  const eventTtl = opts.eventTtlSeconds ?? 3600;
  const registry: Registry = new Registry(
    definitions,
    {
      storage,
      clock: systemClock,
      random: systemRandom,
      crypto: new WebCryptoAdapter(),
      gates,
      authorizer,
      ttlSeconds: (def) => (eventDefinitions.includes(def) ? eventTtl : undefined),
      admission: admissionChain(opts.admissionPlugins ?? DEFAULT_ADMISSION_PLUGINS, () => registry),
    },
    new CachedReadPath(cache, storage),
  );
  const lookup = uidLookup(cache, definitions);
  const tokenAuthenticators = [
    ...(security.staticTokens ? [tokenFileAuthenticator(security.staticTokens)] : []),
    ...(security.tokens ? [serviceAccountAuthenticator(security.tokens, lookup, systemClock, { issuers: security.issuers, audiences: security.audiences })] : []),
  ];
  const authenticator = new AuthenticatorChain([podCertificateAuthenticator(lookup), x509Authenticator], tokenAuthenticators, security.anonymous);
  const podCertificates = opts.tls ? podCertificateVerifier(opts.tls.clientCa) : undefined;
  const audit = security.audit ? new AuditTrail(security.audit.policy, security.audit.sink, systemClock) : undefined;
  const bootstrap = startBootstrapPolicy(registry, cache, log);
  let bootstrapDone = false;
  void bootstrap.done.then(() => (bootstrapDone = true));
  const compactor = startCompactor(storage, (opts.compactionIntervalSeconds ?? 0) * 1000, (msg, extra) => log('info', msg, extra));
  const systemNamespaces = startSystemNamespaces(registry, log);
  // No kube-controller-manager here: its controllers run in this process, as registry clients.
  const controllerOpts = opts.controllers ?? {};
  const election = controllerOpts.leaderElection;
  const controllers = new ControllerManager(
    controllerDescriptors({
      registry,
      log,
      authorizer,
      changes: (def) => (cache.ready() ? cache.kind(def).changes : -1),
      deletions: deletionActivity(cache, definitions),
      signing: controllerOpts.signing,
      rootCaBundle: controllerOpts.rootCaBundle,
      intervalMs: controllerOpts.intervalMs,
    }),
    controllerOpts.selection ?? ['*'],
    log,
    election ? (callbacks) => new LeaderElector(registry, systemClock, systemRandom, election, callbacks, log) : undefined,
  );
  let controllersStopped = false;
  void bootstrap.done.then(() => {
    if (!controllersStopped) controllers.start();
  });
  const patchContentTypes = [
    'application/json-patch+json',
    'application/merge-patch+json',
    'application/strategic-merge-patch+json',
    'application/apply-patch+yaml',
  ];
  let shuttingDown = false;
  const livezTimeout = opts.healthcheckTimeoutMs ?? 2000;
  const readyzTimeout = opts.readycheckTimeoutMs ?? 2000;
  const storageCheck = { name: 'etcd', check: () => storage.ping(livezTimeout), timeoutMs: livezTimeout };
  const storageReady = { name: 'etcd', check: () => storage.ping(readyzTimeout), timeoutMs: readyzTimeout };
  let server: Server | undefined;
  let secureServer: TlsServer | undefined;
  const app = createApp({
    registry,
    definitions,
    health: {
      livez: [{ name: 'ping', check: () => true }, storageCheck],
      readyz: [
        { name: 'ping', check: () => true },
        storageReady,
        { name: 'watch-cache', check: () => cache.ready() },
        { name: 'poststarthook/start-system-namespaces-controller', check: () => systemNamespaces.ready() },
        // As upstream: not ready until the bootstrap RBAC policy is in storage.
        { name: 'poststarthook/rbac/bootstrap-roles', check: () => bootstrapDone },
        { name: 'shutdown', check: () => !shuttingDown },
      ],
    },
    watch,
    version,
    patchContentTypes,
    extraRouters: [openApiRouter(definitions, patchContentTypes), metricsRouter(metrics)],
    discoveryOnly: reviewDiscovery,
    apiRouters: [
      authRouter({
        authorizer,
        registry,
        serviceAccounts: definitions.find((d) => d.group === '' && d.plural === 'serviceaccounts'),
        tokens: security.tokens
          ? {
              tokens: security.tokens,
              clock: systemClock,
              newId: security.newId,
              objects: { uidOf: (apiVersion, kind, ns, name) => bindableUid(lookup, definitions, apiVersion, kind, ns, name) },
              options: { issuer: security.issuers[0], apiAudiences: security.audiences, maxExpirationSeconds: security.maxTokenExpirationSeconds },
            }
          : undefined,
      }),
    ],
    middleware: [
      // Once shutting down, each response closes its connection: keep-alive clients reconnect (through their
      // load balancer) to another replica instead of holding this one open until the forced exit.
      (_req, res, next) => {
        if (shuttingDown) res.setHeader('Connection', 'close');
        next();
      },
      metricsMiddleware(metrics, log),
      accessFilter({ authenticator, authorizer, audit, limits: security.limits, podCertificates: podCertificates && ((der) => podCertificates(der, systemClock.now())) }),
    ],
    address: () => {
      const a = (secureServer?.listening ? secureServer : server)?.address() as AddressInfo | null | undefined;
      return a ? `${a.address}:${a.port}` : '127.0.0.1:8080';
    },
  });
  const prototypes = withAppPrototypes(app);
  server = createServer(prototypes, app);
  secureServer = opts.tls
    ? createTlsServer({ ...prototypes, cert: opts.tls.cert, key: opts.tls.key, ca: opts.tls.clientCa, requestCert: true, rejectUnauthorized: false }, app)
    : undefined;
  return {
    server,
    secureServer,
    authorizer,
    bootstrapped: bootstrap.done,
    controllers,
    registry,
    cache,
    watch,
    async shutdown() {
      shuttingDown = true;
      controllersStopped = true;
      await controllers.shutdown();
      compactor.stop();
      systemNamespaces.stop();
      bootstrap.stop();
      watch.closeAll();
      cache.stop();
      await Promise.all(
        [server!, secureServer].filter((s): s is Server => !!s).map(
          (s) =>
            new Promise<void>((resolve) => {
              if (!s.listening) return resolve();
              s.close(() => resolve());
              s.closeIdleConnections();
            }),
        ),
      );
      await security.audit?.sink.close();
      await storage.close();
    },
  };
}

/** Where kubectl should connect: the bind address, or loopback when bound to every interface. */
function serverUrl(config: ServerConfig, port: number): string {
  const host = ['0.0.0.0', '::', ''].includes(config.bindAddress) ? '127.0.0.1' : config.bindAddress;
  return `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

function listen(server: Server | TlsServer, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

async function main(): Promise<void> {
  if (commandNames.includes(process.argv[2])) return runCommand(process.argv.slice(2));
  const config: ServerConfig = parsedOrExit(() => parseFlags(process.argv.slice(2)));
  const log = logger(config.logLevel);
  // The store first: it makes --data-dir a directory (or says why it cannot be one) before the PKI goes in it.
  let storage: StoragePort;
  try {
    storage = openStorageFor(config);
  } catch (e) {
    fatal(storageStartError(config, e));
  }
  const { security, tls, pki } = await loadSecurity(config);
  if (pki.created.length) log('info', 'generated cluster PKI', { dir: pki.paths.dir, files: pki.created });
  const where = config.etcdServers.length ? `etcd prefix ${config.etcdPrefix}` : `the embedded store in ${config.dataDir}`;
  await checkSharedCa(storage, pki, where);
  const cm = config.controllerManager;
  const signing = await loadSigning(cm, pki);
  const electionError = cm.leaderElect ? validateLeaderElection(cm) : undefined;
  if (electionError) fatal(`invalid leader election flags: ${electionError}`, 2);
  const leaderElection: LeaderElectionConfig | undefined = cm.leaderElect
    ? {
        namespace: cm.leaseNamespace,
        name: cm.leaseName,
        identity: `${hostname()}_${randomUUID()}`,
        leaseDurationMs: cm.leaseDurationMs,
        renewDeadlineMs: cm.renewDeadlineMs,
        retryPeriodMs: cm.retryPeriodMs,
      }
    : undefined;
  let assembled: Assembled;
  try {
    assembled = assemble({
      storage,
      gates: config.featureGates,
      log,
      compactionIntervalSeconds: config.etcdCompactionIntervalSeconds,
      watchStream: { minRequestTimeoutSeconds: config.minRequestTimeoutSeconds },
      watchCache: { historyMaxBytes: config.watchCacheHistoryBytes },
      requestTimeoutMs: config.requestTimeoutMs,
      healthcheckTimeoutMs: config.etcdHealthcheckTimeoutMs,
      readycheckTimeoutMs: config.etcdReadycheckTimeoutMs,
      security,
      tls,
      eventTtlSeconds: config.eventTtlSeconds,
      admissionPlugins: config.admissionPlugins,
      controllers: { selection: cm.controllers, leaderElection, signing, rootCaBundle: pki.ca.certPem },
    });
  } catch (e) {
    if (e instanceof ControllerSelectionError) fatal(`invalid --controllers: ${e.message}`, 2);
    throw e;
  }
  // A port that cannot be had ends the start, after background work (cache, bootstrap writes) is stopped:
  // exiting in the middle of an embedded-store write can leave the process hanging in its exit hooks.
  const cannotListen = async (sentence: string): Promise<never> => {
    process.stderr.write(`svc-apiserver: ${sentence}\n`);
    await Promise.race([assembled.shutdown().catch(() => undefined), new Promise((r) => setTimeout(r, 5000).unref())]);
    process.exit(1);
  };
  const securePort = await listen(assembled.secureServer!, config.securePort, config.bindAddress).catch((e) =>
    cannotListen(listenError({ addressFlag: '--bind-address', address: config.bindAddress, portFlag: '--secure-port', port: config.securePort }, e)),
  );
  const url = serverUrl(config, securePort);
  const kubeconfigDir = config.etcdServers.length ? pki.paths.dir : resolvePath(config.dataDir);
  const kubeconfig = join(kubeconfigDir, 'admin.kubeconfig');
  await ensureAdminKubeconfig(kubeconfig, url, pki.ca, new Date());
  log('info', 'serving', {
    address: url,
    storage: config.etcdServers.length ? `etcd ${config.etcdServers.join(',')} prefix ${config.etcdPrefix}` : `embedded ${config.dataDir}`,
    authorization: config.authorizationMode,
  });
  if (config.port > 0) {
    const port = await listen(assembled.server, config.port, config.insecureBindAddress).catch((e) =>
      cannotListen(listenError({ addressFlag: '--insecure-bind-address', address: config.insecureBindAddress, portFlag: '--port', port: config.port }, e)),
    );
    log('warn', 'serving plain HTTP as system:admin without authentication: for a developer machine only', { address: `http://${config.insecureBindAddress}:${port}` });
  }
  log('info', `export KUBECONFIG=${kubeconfig}`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log('info', 'shutting down', { signal });
    setTimeout(() => process.exit(0), 10_000).unref();
    assembled.shutdown().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/** Command-line parsing: --help prints and exits 0, a bad flag is one sentence on stderr and exit 2. */
function parsedOrExit<T>(parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    if (e instanceof HelpRequested) {
      process.stdout.write(`${e.message}\n`);
      process.exit(0);
    }
    if (e instanceof FlagError) fatal(e.message, 2);
    throw e;
  }
}

/** `migrate` and `snapshot save|restore`: the tools wired to the concrete stores. */
async function runCommand(argv: string[]): Promise<void> {
  const cmd: Command = parsedOrExit(() => parseCommand(argv));
  const out = (line: string) => process.stdout.write(`${line}\n`);
  try {
    if (cmd.command === 'snapshot') {
      const s = cmd.action === 'save' ? await saveSnapshot(cmd.dataDir, cmd.file) : await restoreSnapshot(cmd.file, cmd.dataDir, cmd.force);
      out(`${cmd.action === 'save' ? 'saved' : 'restored'} ${cmd.file}: revision ${s.revision}, ${s.keys} keys, ${s.bytes} bytes`);
      return;
    }
    if (!existsSync(join(cmd.dataDir, 'data.mdb'))) fatal(`there is no embedded store in --data-dir ${cmd.dataDir}`);
    // Migrate only reads the embedded store: no expiry sweeps from this process.
    const source = openLmdbStorage(cmd.dataDir, { expiryIntervalMs: 2 ** 31 - 1 });
    const target = new EtcdStorage({ endpoints: cmd.etcdServers, prefix: cmd.etcdPrefix, requestTimeoutMs: 30_000 });
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
    if (e instanceof MigrateError || e instanceof SnapshotError) fatal(e.message);
    fatal(`${cmd.command} failed: ${firstLine(storageErrorStatus(e)?.message ?? e)}`);
  }
}

function storageStartError(config: ServerConfig, e: unknown): string {
  if (e instanceof DataDirError) return `cannot use --data-dir ${e.message}`;
  if (config.etcdServers.length) return `cannot use --etcd-servers ${config.etcdServers.join(',')}: ${firstLine(e)}`;
  return `cannot open the embedded store in --data-dir ${config.dataDir}: ${firstLine(e)}`;
}

if (require.main === module) {
  main().catch((e) => {
    if (e instanceof FlagError) fatal(e.message, 2);
    fatal(`could not start: ${firstLine(e)}`);
  });
}
