#!/usr/bin/env node
/**
 * The program: a subcommand (migrate, snapshot), or the server. For the
 * server: parse flags, open the store, load the PKI and security files,
 * assemble (src/composition/assemble.ts), listen, and stop on a signal.
 */
import 'reflect-metadata';
import type { Server } from 'node:http';
import type { Server as TlsServer } from 'node:https';
import { resolve as resolvePath, join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { parseFlags, FlagError, ServerConfig } from './config/flags';
import { fatal, firstLine, listenError } from './config/startup';
import { parsedOrExit } from './config/parsed-or-exit';
import { commandNames } from './config/commands';
import type { StoragePort } from './ports/storage.port';
import { ControllerSelectionError, validateLeaderElection, type LeaderElectionConfig } from './controllers';
import { ensureAdminKubeconfig } from './adapters/pki';
import { checkSharedCa, loadSecurity, loadSigning } from './composition/security';
import { assemble, type Assembled } from './composition/assemble';
import { logger } from './composition/log';
import { openStorageFor, storageStartError } from './composition/storage';
import { runCommand } from './composition/commands';

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

if (require.main === module) {
  main().catch((e) => {
    if (e instanceof FlagError) fatal(e.message, 2);
    fatal(`could not start: ${firstLine(e)}`);
  });
}
