/**
 * Composition of identity and access: from the files the flags name (read
 * by security-files.ts) and the PKI, builds the authenticators' inputs, the
 * token issuer, the audit trail and the signing CAs that `assemble` wires
 * in, and compares the cluster CA with the other replicas'.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { ServerConfig } from '../config/flags';
import { FlagError } from '../config/flag-error';
import { readPrivateKey, readPublicKeys } from './preflight';
import type { SecurityFiles } from './security-files';
import type { UserInfo } from '../machinery/resource-definition';
import type { StoragePort } from '../ports/storage.port';
import type { TokenPort } from '../ports/token.port';
import type { AuditSinkPort } from '../ports/audit.port';
import { AuditPolicy, defaultPolicy } from '../auth/audit/policy';
import { defaultBufferedAudit, type BufferedAuditOptions } from '../auth/audit/buffered';
import { fingerprint, type EnsuredPki } from '../adapters/pki';
import { JoseTokenAdapter } from '../adapters/jwt';
import { FileAuditSink } from '../adapters/audit';
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
  audit?: { policy: AuditPolicy; sink: AuditSinkPort; buffer?: BufferedAuditOptions };
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

/** The security options, from the files read before and the PKI (its CA, serving pair and SA keys as defaults). */
export function loadSecurity(config: ServerConfig, files: SecurityFiles, pki: EnsuredPki): { security: SecurityOptions; tls: TlsMaterial } {
  const tls: TlsMaterial = {
    cert: files.serving?.cert ?? pki.serving.certPem,
    key: files.serving?.key ?? pki.serving.keyPem,
    clientCa: files.clientCa ?? pki.ca.certPem,
  };
  const signingKey = files.signingKey ?? readPrivateKey('service-account-signing-key-file', pki.paths.saKey).key;
  const publicKeys = config.serviceAccountKeyFiles.length ? files.publicKeys : existsSync(pki.paths.saPub) ? readPublicKeys('service-account-key-file', pki.paths.saPub) : [];
  const audit: SecurityOptions['audit'] = config.auditLogPath
    ? {
        policy: files.auditPolicy ?? defaultPolicy,
        sink: new FileAuditSink({ path: config.auditLogPath, maxSizeMB: config.auditLogMaxSizeMB, maxBackups: config.auditLogMaxBackup }),
        buffer: { ...defaultBufferedAudit, bufferSize: config.auditLogBatchBufferSize, whenFull: config.auditLogMode === 'batch' ? 'drop' : 'block' },
      }
    : undefined;
  const security: SecurityOptions = {
    anonymous: config.anonymousAuth,
    authorizationMode: config.authorizationMode,
    staticTokens: files.staticTokens,
    tokens: new JoseTokenAdapter(signingKey, publicKeys),
    issuers: config.serviceAccountIssuers,
    audiences: config.apiAudiences,
    maxTokenExpirationSeconds: config.serviceAccountMaxTokenExpirationSeconds,
    audit,
    limits: { readOnly: config.maxRequestsInflight, mutating: config.maxMutatingRequestsInflight, seats: config.flowControlSeats },
    newId: randomUUID,
  };
  return { security, tls };
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
export async function loadSigning(config: ControllerConfig, clusterCa?: { certFile: string; keyFile: string }): Promise<SigningSetup> {
  const files = config.signerFiles.size || !clusterCa ? config.signerFiles : new Map(Object.values(signers).map((s) => [s, clusterCa]));
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
