/**
 * The composition of one server over a given store: registry, watch cache,
 * access filters, controllers and the HTTP servers (not yet listening).
 * `assemble` is what production runs and what tests run.
 */
import { createServer, Server } from 'node:http';
import { createServer as createTlsServer, Server as TlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { allDefinitions } from '../resources';
import { Registry } from '../registry/registry';
import { startCompactor } from '../registry/compactor';
import type { StoragePort } from '../ports/storage.port';
import type { FeatureGates } from '../machinery/feature-gates';
import { podCertificateVerifier, WebCryptoAdapter } from '../adapters/crypto';
import { systemClock } from '../adapters/clock/system.clock';
import { systemRandom } from '../adapters/random/system.random';
import { createApp, requestInfoOf, withAppPrototypes } from '../adapters/http';
import { openApiRouter } from '../adapters/http/openapi';
import { WatchStreamServer, type WatchStreamOptions } from '../adapters/http/watch-stream';
import { CachedReadPath, WatchCache, type WatchCacheOptions } from '../registry/watch-cache';
import { version } from '../version';
import { createMetrics, instrumentStorage, metricsMiddleware, metricsRouter } from '../adapters/metrics';
import { resourcePrefix } from '../registry/keys';
import { withDeadlines } from '../registry/storage-deadline';
import { DefinitionSet } from '../registry/definition-set';
import { alwaysAllow, type AuthorizerPort } from '../ports/authorizer.port';
import { RbacAuthorizer } from '../auth/authz/rbac-authorizer';
import { cachedTokenVerifier } from '../auth/authn/token-cache';
import { AuthenticatorChain } from '../auth/authn/chain';
import { podCertificateAuthenticator, x509Authenticator } from '../auth/authn/x509';
import { tokenFileAuthenticator } from '../auth/authn/token-file';
import { audienceAgnostic } from '../auth/authn/audiences';
import { serviceAccountAuthenticator } from '../auth/authn/service-account';
import { AuditTrail } from '../auth/audit/trail';
import { BufferedAuditBackend, defaultBufferedAudit } from '../auth/audit/buffered';
import { startRbacBootstrap } from '../controllers/rbac-bootstrap';
import { startSystemNamespaces } from '../controllers/system-namespaces';
import { auditedClient } from '../controllers/audited-client';
import { startCrdControllers } from '../controllers/crd';
import { admissionChain, DEFAULT_ADMISSION_PLUGINS, type AdmissionPluginName } from '../admission';
import { typeCheck, type PolicyObject } from '../admission/policy';
import { eventDefinitions } from '../resources/event';
import { ControllerManager, LeaderElector, controllerDescriptors, type LeaderElectionConfig, type SigningSetup } from '../controllers';
import { accessFilter } from '../adapters/http/access-filter';
import { HttpsWebhookClient } from '../adapters/webhook';
import { authRouter, reviewDiscovery } from '../adapters/http/auth-routes';
import { defaultSecurity, type SecurityOptions, type TlsMaterial } from './security';
import type { Log } from './log';
import { bindableUid, rbacSources, uidLookup } from './cache-views';
import { cacheChanges, cachedNamespaces, scanCache } from './controller-views';
import { HeapTrimmer, type HeapTrimOptions } from '../adapters/runtime/heap-trim';

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
  /** When a burst of request bodies is followed by a full collection (tests set a fake collection). */
  heapTrim?: HeapTrimOptions;
  /** Deadline of every storage call (--request-timeout, default 10 s). */
  requestTimeoutMs?: number;
  /** Bounds of the storage check in /livez, and in /readyz and /healthz (default 2 s each). */
  healthcheckTimeoutMs?: number;
  readycheckTimeoutMs?: number;
  /** More /readyz checks, for what the program does after assembling (e.g. comparing the cluster CA). */
  readyzChecks?: { name: string; check(): boolean }[];
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

function unreachable(storage: StoragePort): never {
  throw new Error(storage.lastPingFailure?.() ?? 'storage does not answer');
}

/** Builds the registry and HTTP server over the given storage (not yet listening). */
export function assemble(opts: AssembleOptions): Assembled {
  const { gates, log } = opts;
  // The built-in kinds; kinds defined at run time join this set while the server runs.
  const served = new DefinitionSet(allDefinitions.filter((d) => !d.featureGate || gates.enabled(d.featureGate)));
  const definitions = served.all;
  const metrics = createMetrics(() =>
    Promise.all(served.all.map(async (d) => ({ resource: d.group ? `${d.plural}.${d.group}` : d.plural, count: (await opts.storage.range(resourcePrefix(d), { limit: 1 })).count }))),
  );
  const storage = withDeadlines(instrumentStorage(opts.storage, metrics), opts.requestTimeoutMs ?? 10_000);
  // Reads and watches are served from the watch cache, fed by one storage watch per kind.
  const cache = new WatchCache(storage, definitions, gates, { now: () => systemClock.now().getTime(), ...opts.watchCache }, log).start();
  served.onChange((change) => ('added' in change ? cache.add(change.added) : cache.remove(change.removed)));
  // Watches go through the registry like every other verb (it hands them to its read path, the watch cache).
  const watch = new WatchStreamServer({ watch: (def, o) => registry.watch(def, o) }, opts.watchStream);
  const security = { ...defaultSecurity, ...opts.security };
  const webhooks = new HttpsWebhookClient();
  const authorizer = security.authorizationMode === 'AlwaysAllow' ? alwaysAllow : new RbacAuthorizer(rbacSources(cache, definitions));
  const eventTtl = opts.eventTtlSeconds ?? 3600;
  const crypto = new WebCryptoAdapter();
  const registry: Registry = new Registry(
    served,
    {
      storage,
      clock: systemClock,
      random: systemRandom,
      crypto,
      gates,
      authorizer,
      ttlSeconds: (def) => (eventDefinitions.includes(def) ? eventTtl : undefined),
      admission: admissionChain(opts.admissionPlugins ?? DEFAULT_ADMISSION_PLUGINS, { registry: () => registry, clock: systemClock, random: systemRandom, authorizer, webhooks, changes: (def, changed) => cache.onChange(def, changed) }),
    },
    new CachedReadPath(cache, storage),
  );
  const lookup = uidLookup(cache, definitions);
  const tokenAuthenticators = [
    ...(security.staticTokens ? [audienceAgnostic(tokenFileAuthenticator(security.staticTokens), security.audiences)] : []),
    ...(security.tokens ? [serviceAccountAuthenticator(cachedTokenVerifier(security.tokens, (s) => crypto.sha256Hex(s)), lookup, systemClock, { issuers: security.issuers, audiences: security.audiences })] : []),
  ];
  const authenticator = new AuthenticatorChain([podCertificateAuthenticator(lookup), x509Authenticator], tokenAuthenticators, security.anonymous);
  const podCertificates = opts.tls ? podCertificateVerifier(opts.tls.clientCa) : undefined;
  const audit = security.audit
    ? new AuditTrail(security.audit.policy, new BufferedAuditBackend(security.audit.sink, security.audit.buffer ?? defaultBufferedAudit, metrics.audit), systemClock)
    : undefined;
  // In-process clients, audited as upstream audits its loopback and controller-manager requests over HTTP.
  const build = `${version.gitVersion} (${version.platform}) kubernetes/${version.gitCommit.slice(0, 7)}`;
  const apiserverClient = auditedClient(registry, audit, { userAgent: () => `kube-apiserver/${build}`, newId: () => systemRandom.uuid() });
  const controllerClient = auditedClient(registry, audit, { userAgent: (u) => `kube-controller-manager/${build}/${u.username}`, newId: () => systemRandom.uuid() });
  const { watch: watchChanges, watchAll } = cacheChanges(cache, served);
  const bootstrap = startRbacBootstrap(apiserverClient, log, { watch: watchChanges, cacheReady: () => cache.ready() });
  let bootstrapDone = false;
  void bootstrap.done.then(() => (bootstrapDone = true));
  const compactor = startCompactor(storage, (opts.compactionIntervalSeconds ?? 0) * 1000, (msg, extra) => log('info', msg, extra));
  const systemNamespaces = startSystemNamespaces(apiserverClient, log, { watch: watchChanges, namespacesInUse: cachedNamespaces(cache) });
  // Every replica serves custom resources, leader or not, as every kube-apiserver does.
  const crds = startCrdControllers(apiserverClient, registry.served, log, { watch: watchChanges, clock: systemClock, webhooks });
  // No kube-controller-manager here: its controllers run in this process, as registry clients.
  const controllerOpts = opts.controllers ?? {};
  const election = controllerOpts.leaderElection;
  const controllers = new ControllerManager(
    controllerDescriptors({
      registry: controllerClient,
      log,
      authorizer,
      clock: systemClock,
      crypto,
      watch: watchChanges,
      watchAll,
      scan: scanCache(cache),
      signing: controllerOpts.signing,
      rootCaBundle: controllerOpts.rootCaBundle,
      typeCheckPolicy: (policy, kinds) => typeCheck(policy as PolicyObject, kinds),
    }),
    controllerOpts.selection ?? ['*'],
    log,
    election ? (callbacks) => new LeaderElector(controllerClient, systemClock, systemRandom, election, callbacks, log) : undefined,
  );
  let controllersStopped = false;
  void bootstrap.done.then(() => {
    if (!controllersStopped) controllers.start();
  });
  let shuttingDown = false;
  const livezTimeout = opts.healthcheckTimeoutMs ?? 2000;
  const readyzTimeout = opts.readycheckTimeoutMs ?? 2000;
  const storageCheck = { name: 'etcd', check: () => storage.ping(livezTimeout), timeoutMs: livezTimeout };
  // Readiness says why storage fails (which endpoint, refused or unanswered, a certificate etcd refused).
  // (The ping bounds itself; the check's own bound, a little later, only catches a ping that overstays.)
  const storageReady = { name: 'etcd', check: () => storage.ping(readyzTimeout).then((ok) => ok || unreachable(opts.storage)), timeoutMs: readyzTimeout + 100 };
  let server: Server | undefined;
  let secureServer: TlsServer | undefined;
  // A full collection in the first quiet second after many body bytes: the memory of a burst of large writes goes back soon.
  const heapTrim = new HeapTrimmer({ onTrim: (seconds) => metrics.heapTrim(seconds), ...opts.heapTrim });
  const app = createApp({
    registry,
    health: {
      livez: [{ name: 'ping', check: () => true }, storageCheck],
      readyz: [
        { name: 'ping', check: () => true },
        storageReady,
        { name: 'watch-cache', check: () => cache.ready() },
        { name: 'poststarthook/start-system-namespaces-controller', check: () => systemNamespaces.ready() },
        // As upstream: not ready until the bootstrap RBAC policy is in storage.
        { name: 'poststarthook/rbac/bootstrap-roles', check: () => bootstrapDone },
        { name: 'poststarthook/crd-informer-synced', check: () => crds.synced() },
        ...(opts.readyzChecks ?? []),
        { name: 'shutdown', check: () => !shuttingDown },
      ],
    },
    watch,
    version,
    extraRouters: [openApiRouter(served), metricsRouter(metrics)],
    discoveryOnly: reviewDiscovery,
    apiRouters: [
      authRouter({
        authorizer,
        registry,
        serviceAccounts: definitions.find((d) => d.group === '' && d.plural === 'serviceaccounts'),
        tokenReview: { authenticator, apiAudiences: security.audiences },
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
      metricsMiddleware(metrics, log, requestInfoOf),
      accessFilter({ authenticator, authorizer, audit, limits: security.limits, podCertificates: podCertificates && ((der) => podCertificates(der, systemClock.now())) }),
    ],
    address: () => {
      const a = (secureServer?.listening ? secureServer : server)?.address() as AddressInfo | null | undefined;
      return a ? `${a.address}:${a.port}` : '127.0.0.1:8080';
    },
    onRequest: (bodyBytes) => heapTrim.noteRequest(bodyBytes),
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
      await systemNamespaces.stop();
      await crds.stop();
      await bootstrap.stop();
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
      await audit?.close(); // every buffered event written before the sink closes
      webhooks.close();
      await storage.close();
    },
  };
}

