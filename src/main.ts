#!/usr/bin/env node
/**
 * The program: a subcommand (migrate, snapshot), or the server. For the
 * server, in this order: flags; the files and directories they name (read
 * only); the ports (bound); storage (etcd is waited for, not required);
 * then what is written (the store, the PKI), assembly, serving, and the
 * admin kubeconfig. A start failure up to the ports leaves nothing behind.
 */
import 'reflect-metadata';
import { mkdirSync } from 'node:fs';
import { resolve as resolvePath, join } from 'node:path';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { parseFlags, FlagError, ServerConfig } from './config/flags';
import { fatal, firstLine } from './config/startup';
import { parsedOrExit } from './config/parsed-or-exit';
import { commandNames } from './config/commands';
import type { StoragePort } from './ports/storage.port';
import type { LeaderElectionConfig } from './controllers';
import type { EtcdTls } from './adapters/etcd';
import { pkiDirOf, readSecurityFiles, type SecurityFiles } from './composition/security-files';
import { checkWritableDir, readEtcdTls } from './composition/preflight';
import type { Assembled } from './composition/assemble';
import { logger, type Log } from './composition/log';
import { release, reserve, serveOn, type Reserved } from './composition/listeners';

// Only what parsing and the file checks need is loaded up front: a start that fails there ends in a tenth of a
// second. The rest (resources, registry, controllers, adapters) is loaded once the start goes on.
const heavy = async () => ({
  ...(await import('./controllers')),
  ...(await import('./adapters/pki')),
  ...(await import('./composition/security')),
  ...(await import('./composition/assemble')),
  ...(await import('./composition/storage')),
  ...(await import('./composition/wait-for-storage')),
  ...(await import('./composition/controller-selection')),
});

/** Where kubectl should connect: the bind address, or loopback when bound to every interface. */
function serverUrl(config: ServerConfig, port: number): string {
  const host = ['0.0.0.0', '::', ''].includes(config.bindAddress) ? '127.0.0.1' : config.bindAddress;
  return `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Every file and directory the flags name: read and checked, nothing written. */
function checkedOrExit(config: ServerConfig): { files: SecurityFiles; etcdTls?: EtcdTls } {
  try {
    checkWritableDir('data-dir', config.dataDir);
    if (config.certDir) checkWritableDir('cert-dir', config.certDir);
    return { files: readSecurityFiles(config), etcdTls: readEtcdTls(config) };
  } catch (e) {
    if (e instanceof FlagError) fatal(e.message);
    throw e;
  }
}

function leaderElectionOf(config: ServerConfig): LeaderElectionConfig | undefined {
  const cm = config.controllerManager;
  if (!cm.leaderElect) return undefined;
  const { leaseNamespace: namespace, leaseName: name, leaseDurationMs, renewDeadlineMs, retryPeriodMs } = cm;
  return { namespace, name, identity: `${hostname()}_${randomUUID()}`, leaseDurationMs, renewDeadlineMs, retryPeriodMs };
}

async function main(): Promise<void> {
  if (commandNames.includes(process.argv[2])) return (await import('./composition/commands')).runCommand(process.argv.slice(2));
  const config: ServerConfig = parsedOrExit(() => parseFlags(process.argv.slice(2)));
  const { files, etcdTls } = checkedOrExit(config);
  const { validateLeaderElection, unknownController, ensurePki, ensureAdminKubeconfig, loadSecurity, loadSigning, checkSharedCa, assemble, ...more } = await heavy();
  const { openStorageFor, storageName, storageStartError, untilStorageAnswers } = more;
  const cm = config.controllerManager;
  const electionError = cm.leaderElect ? validateLeaderElection(cm) : undefined;
  if (electionError) fatal(`invalid leader election flags: ${electionError}`, 2);
  const unknown = unknownController(cm.controllers);
  if (unknown) fatal(`invalid --controllers: "${unknown}" is not in the list of known controllers`, 2);
  // Signing CAs named by flags are read now; the default (the cluster CA) once the PKI exists.
  const flagSigning = cm.signerFiles.size ? await loadSigning(cm).catch((e) => fatal(firstLine(e))) : undefined;
  const ports: Reserved[] = [];
  try {
    ports.push(await reserve({ addressFlag: '--bind-address', address: config.bindAddress, portFlag: '--secure-port', port: config.securePort }));
    if (config.port > 0) ports.push(await reserve({ addressFlag: '--insecure-bind-address', address: config.insecureBindAddress, portFlag: '--port', port: config.port }));
  } catch (e) {
    release(ports);
    fatal((e as Error).message);
  }
  const log = logger(config.logLevel);
  const onEtcd = config.etcdServers.length > 0;
  let storage: StoragePort;
  try {
    storage = openStorageFor(config, etcdTls); // the embedded store creates --data-dir
    if (onEtcd) mkdirSync(config.dataDir, { recursive: true, mode: 0o700 }); // for pki/ and the kubeconfig
  } catch (e) {
    fatal(storageStartError(config, e));
  }
  const where = storageName(config);
  if (onEtcd && !(await storage.ping(2000))) {
    log('warn', 'etcd does not answer: serving, not ready, until it does', { etcd: config.etcdServers.join(','), reason: storage.lastPingFailure?.() });
  }
  const pki = await ensurePki(pkiDirOf(config), config.bindAddress, new Date());
  if (pki.created.length) log('info', 'generated cluster PKI', { dir: pki.paths.dir, files: pki.created });
  const { security, tls } = loadSecurity(config, files, pki);
  const signing = flagSigning ?? (await loadSigning(cm, { certFile: pki.paths.caCert, keyFile: pki.paths.caKey }));
  let caChecked = false;
  const assembled: Assembled = assemble({
    storage,
    gates: config.featureGates,
    log,
    compactionIntervalSeconds: config.etcdCompactionIntervalSeconds,
    watchStream: { minRequestTimeoutSeconds: config.minRequestTimeoutSeconds },
    watchCache: { historyMaxBytes: config.watchCacheHistoryBytes },
    requestTimeoutMs: config.requestTimeoutMs,
    healthcheckTimeoutMs: config.etcdHealthcheckTimeoutMs,
    readycheckTimeoutMs: config.etcdReadycheckTimeoutMs,
    readyzChecks: [{ name: 'poststarthook/shared-cluster-ca', check: () => caChecked }],
    security,
    tls,
    eventTtlSeconds: config.eventTtlSeconds,
    admissionPlugins: config.admissionPlugins,
    controllers: { selection: cm.controllers, leaderElection: leaderElectionOf(config), signing, rootCaBundle: pki.ca.certPem },
  });
  let stopping = false;
  // A failure once background work runs stops that work first: exiting in the middle of an embedded-store write
  // can leave the process hanging in its exit hooks.
  const failAfterStart = async (sentence: string): Promise<never> => {
    stopping = true;
    process.stderr.write(`svc-apiserver: ${sentence}\n`);
    await Promise.race([assembled.shutdown().catch(() => undefined), new Promise((r) => setTimeout(r, 5000).unref())]);
    process.exit(1);
  };
  const securePort = await serveOn(assembled.secureServer!, ports[0]).catch((e) => failAfterStart(firstLine(e)));
  const url = serverUrl(config, securePort);
  const kubeconfig = join(resolvePath(config.dataDir), 'admin.kubeconfig');
  await ensureAdminKubeconfig(kubeconfig, url, pki.ca, new Date());
  log('info', 'serving', { address: url, storage: onEtcd ? `etcd ${config.etcdServers.join(',')} prefix ${config.etcdPrefix}` : `embedded ${config.dataDir}`, pki: pki.paths.dir, authorization: config.authorizationMode });
  if (ports[1]) {
    const port = await serveOn(assembled.server, ports[1]).catch((e) => failAfterStart(firstLine(e)));
    log('warn', 'serving plain HTTP as system:admin without authentication: for a developer machine only', { address: `http://${config.insecureBindAddress}:${port}` });
  }
  log('info', `export KUBECONFIG=${kubeconfig}`);
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
  void compareClusterCa(storage, log, where, () => stopping).then(
    () => (caChecked = true),
    (e) => (stopping ? undefined : failAfterStart(e instanceof FlagError ? e.message : `could not compare the cluster CA with ${where}: ${firstLine(e)}`)),
  );

  async function compareClusterCa(store: StoragePort, logTo: Log, describe: string, stopped: () => boolean): Promise<void> {
    // Replicas on one prefix must share one CA; once storage answers (etcd may come later), compare.
    for (;;) {
      if (!(await untilStorageAnswers(store, logTo, describe, stopped))) return;
      try {
        return await checkSharedCa(store, pki, describe);
      } catch (e) {
        if (e instanceof FlagError || stopped()) throw e;
        logTo('warn', 'could not compare the cluster CA yet, retrying', { error: firstLine(e) });
      }
    }
  }
}

if (require.main === module) {
  main().catch((e) => {
    if (e instanceof FlagError) fatal(e.message, 2);
    fatal(`could not start: ${firstLine(e)}`);
  });
}
