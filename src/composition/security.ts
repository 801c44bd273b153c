/**
 * Composition of identity and access: reads the PKI, key and policy files
 * the flags name and builds the authenticators, token issuer and audit
 * trail that `assemble` wires in. Kept beside main.ts, which stays the only
 * other file that names concrete adapters.
 */
import { createPrivateKey, createPublicKey, KeyObject, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { load } from 'js-yaml';
import type { ServerConfig } from '../config/flags';
import { FlagError } from '../config/flags';
import type { UserInfo } from '../machinery/resource-definition';
import type { StoragePort } from '../ports/storage.port';
import type { TokenPort } from '../ports/token.port';
import type { AuditSinkPort } from '../ports/audit.port';
import { parseTokenFile, TokenFileError } from '../auth/authn/token-file';
import { AuditPolicy, AuditPolicyError, defaultPolicy, parsePolicy } from '../auth/audit/policy';
import { ensurePki, fingerprint, type EnsuredPki } from '../adapters/pki';
import { JoseTokenAdapter } from '../adapters/jwt';
import { FileAuditSink } from '../adapters/audit';
import { systemClock } from '../adapters/clock/system.clock';
import { FileCertificateAuthority } from '../adapters/certificate-authority';
import type { CertificateAuthorityPort } from '../ports/certificate-authority.port';
import type { ControllerConfig } from '../config/controller-flags';
import type { SigningSetup } from '../controllers';
import { signers } from '../controllers/certificates/signer-rules';

export interface SecurityOptions {
  anonymous: boolean;
  authorizationMode: 'RBAC' | 'AlwaysAllow';
  staticTokens?: Map<string, UserInfo>;
  tokens?: TokenPort;
  issuers: string[];
  audiences: string[];
  maxTokenExpirationSeconds: number;
  audit?: { policy: AuditPolicy; sink: AuditSinkPort };
  limits: { readOnly: number; mutating: number; seats?: number };
  newId: () => string;
}

export interface TlsMaterial {
  cert: string;
  key: string;
  clientCa: string;
}

export const defaultSecurity: SecurityOptions = {
  anonymous: true,
  authorizationMode: 'RBAC',
  issuers: ['https://kubernetes.default.svc.cluster.local'],
  audiences: ['https://kubernetes.default.svc.cluster.local'],
  maxTokenExpirationSeconds: 0,
  limits: { readOnly: 400, mutating: 200 },
  newId: randomUUID,
};

function readFlagFile(flag: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new FlagError(`cannot read --${flag} ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
}

/** Public keys from PEM files that hold public keys, certificates or private keys (as upstream accepts). */
function publicKeysOf(flag: string, path: string): KeyObject[] {
  const text = readFlagFile(flag, path);
  const blocks = text.match(/-----BEGIN [A-Z ]+-----[\s\S]+?-----END [A-Z ]+-----/g) ?? [];
  if (!blocks.length) throw new FlagError(`--${flag} ${path} holds no PEM block`);
  return blocks.map((b) => {
    try {
      return createPublicKey(b);
    } catch (e) {
      throw new FlagError(`--${flag} ${path}: ${(e as Error).message}`);
    }
  });
}

export function pkiDirOf(config: ServerConfig): string {
  if (config.certDir) return resolve(config.certDir);
  return config.etcdServers.length ? resolve('pki') : resolve(join(config.dataDir, 'pki'));
}

export async function loadSecurity(config: ServerConfig): Promise<{ security: SecurityOptions; tls: TlsMaterial; pki: EnsuredPki }> {
  const pki = await ensurePki(pkiDirOf(config), config.bindAddress, systemClock.now());
  const tls: TlsMaterial = {
    cert: config.tlsCertFile ? readFlagFile('tls-cert-file', config.tlsCertFile) : pki.serving.certPem,
    key: config.tlsPrivateKeyFile ? readFlagFile('tls-private-key-file', config.tlsPrivateKeyFile) : pki.serving.keyPem,
    clientCa: config.clientCaFile ? readFlagFile('client-ca-file', config.clientCaFile) : pki.ca.certPem,
  };
  let staticTokens: Map<string, UserInfo> | undefined;
  if (config.tokenAuthFile) {
    try {
      staticTokens = parseTokenFile(readFlagFile('token-auth-file', config.tokenAuthFile));
    } catch (e) {
      if (e instanceof TokenFileError) throw new FlagError(`invalid --token-auth-file ${config.tokenAuthFile}: ${e.message}`);
      throw e;
    }
  }
  const signingPath = config.serviceAccountSigningKeyFile ?? pki.paths.saKey;
  let signingKey: KeyObject;
  try {
    signingKey = createPrivateKey(readFlagFile('service-account-signing-key-file', signingPath));
  } catch (e) {
    if (e instanceof FlagError) throw e;
    throw new FlagError(`invalid --service-account-signing-key-file ${signingPath}: ${(e as Error).message}`);
  }
  const verifyPaths = config.serviceAccountKeyFiles.length ? config.serviceAccountKeyFiles : existsSync(pki.paths.saPub) ? [pki.paths.saPub] : [];
  const publicKeys = verifyPaths.flatMap((p) => publicKeysOf('service-account-key-file', p));
  let audit: SecurityOptions['audit'];
  if (config.auditLogPath) {
    let policy = defaultPolicy;
    if (config.auditPolicyFile) {
      try {
        policy = parsePolicy(load(readFlagFile('audit-policy-file', config.auditPolicyFile)));
      } catch (e) {
        if (e instanceof FlagError) throw e;
        throw new FlagError(`invalid --audit-policy-file ${config.auditPolicyFile}: ${(e as Error).message}`);
      }
    }
    const sink = new FileAuditSink({ path: config.auditLogPath, maxSizeMB: config.auditLogMaxSizeMB, maxBackups: config.auditLogMaxBackup });
    audit = { policy, sink };
  } else if (config.auditPolicyFile) {
    throw new FlagError('--audit-policy-file needs --audit-log-path');
  }
  const security: SecurityOptions = {
    anonymous: config.anonymousAuth,
    authorizationMode: config.authorizationMode,
    staticTokens,
    tokens: new JoseTokenAdapter(signingKey, publicKeys),
    issuers: config.serviceAccountIssuers,
    audiences: config.apiAudiences,
    maxTokenExpirationSeconds: config.serviceAccountMaxTokenExpirationSeconds,
    audit,
    limits: { readOnly: config.maxRequestsInflight, mutating: config.maxMutatingRequestsInflight, seats: config.flowControlSeats },
    newId: randomUUID,
  };
  return { security, tls, pki };
}

const caKey = '/svc.io/cluster-ca-fingerprint';

/**
 * Replicas on one etcd prefix must share one cluster CA: the first records
 * its fingerprint, the others compare and refuse to start on a mismatch.
 */
export async function checkSharedCa(storage: StoragePort, pki: EnsuredPki, describePrefix: string): Promise<void> {
  const mine = fingerprint(pki.ca.certPem);
  let stored = await storage.get(caKey);
  if (!stored) {
    try {
      await storage.create(caKey, Buffer.from(mine));
      return;
    } catch {
      stored = await storage.get(caKey);
    }
  }
  const theirs = stored?.value.toString('utf8');
  if (theirs && theirs !== mine) {
    throw new FlagError(
      `the cluster CA in ${pki.paths.caCert} (SHA-256 ${mine}) is not the one the other servers on ${describePrefix} use (SHA-256 ${theirs}); ` +
        `copy ca.crt, ca.key, sa.key and sa.pub from the --cert-dir of a running replica into ${pki.paths.dir} and start again`,
    );
  }
}

/**
 * The CA of each built-in signer: the files --cluster-signing-*-file name,
 * else the cluster CA for all of them. Each is read once here so that a bad
 * file stops the start with a message; later the files are read again when
 * they change.
 */
export async function loadSigning(config: ControllerConfig, pki: EnsuredPki): Promise<SigningSetup> {
  const files = config.signerFiles.size
    ? config.signerFiles
    : new Map(Object.values(signers).map((s) => [s, { certFile: pki.paths.caCert, keyFile: pki.paths.caKey }]));
  const authorities = new Map<string, CertificateAuthorityPort>();
  for (const [signer, { certFile, keyFile }] of files) {
    const ca = new FileCertificateAuthority(certFile, keyFile);
    try {
      await ca.current();
    } catch (e) {
      throw new FlagError(`invalid signing CA for ${signer}: ${(e as Error).message}`);
    }
    authorities.set(signer, ca);
  }
  return { authorities, maxTtlMs: config.signingDurationMs };
}
