/**
 * The files the security flags name (serving pair, client CA, tokens, service-account keys, audit policy and log
 * path), read and checked before anything is written; security.ts builds the options from them and the PKI.
 * Kept apart from security.ts so that a start that fails here loads little.
 */
import type { KeyObject } from 'node:crypto';
import { join, resolve } from 'node:path';
import { load } from 'js-yaml';
import type { ServerConfig } from '../config/flags';
import { FlagError } from '../config/flag-error';
import type { UserInfo } from '../machinery/resource-definition';
import { parseTokenFile, TokenFileError } from '../auth/authn/token-file';
import { parsePolicy, type AuditPolicy } from '../auth/audit/policy';
import { checkAuditLogPath, readCertificates, readFlagFile, readKeyPair, readPrivateKey, readPublicKeys } from './preflight';

/** Everything the security flags name, read and checked before anything is written (see preflight.ts). */
export interface SecurityFiles {
  serving?: { cert: string; key: string };
  clientCa?: string;
  staticTokens?: Map<string, UserInfo>;
  /** --service-account-signing-key-file, when given (else the generated sa.key). */
  signingKey?: KeyObject;
  /** --service-account-key-file, each file's keys (else the generated sa.pub). */
  publicKeys: KeyObject[];
  auditPolicy?: AuditPolicy;
}

export function readSecurityFiles(config: ServerConfig): SecurityFiles {
  const files: SecurityFiles = { publicKeys: [] };
  if (config.tlsCertFile && config.tlsPrivateKeyFile) {
    files.serving = readKeyPair('tls-cert-file', config.tlsCertFile, 'tls-private-key-file', config.tlsPrivateKeyFile);
  }
  // A client CA without certificates would make every client certificate fail, silently.
  if (config.clientCaFile) files.clientCa = readCertificates('client-ca-file', config.clientCaFile).text;
  if (config.tokenAuthFile) {
    try {
      files.staticTokens = parseTokenFile(readFlagFile('token-auth-file', config.tokenAuthFile));
    } catch (e) {
      if (e instanceof TokenFileError) throw new FlagError(`invalid --token-auth-file ${config.tokenAuthFile}: ${e.message}`);
      throw e;
    }
  }
  if (config.serviceAccountSigningKeyFile) files.signingKey = readPrivateKey('service-account-signing-key-file', config.serviceAccountSigningKeyFile).key;
  files.publicKeys = config.serviceAccountKeyFiles.flatMap((p) => readPublicKeys('service-account-key-file', p));
  if (config.auditPolicyFile && !config.auditLogPath) throw new FlagError('--audit-policy-file needs --audit-log-path');
  if (config.auditLogPath) checkAuditLogPath(config.auditLogPath);
  if (config.auditPolicyFile) {
    try {
      files.auditPolicy = parsePolicy(load(readFlagFile('audit-policy-file', config.auditPolicyFile)));
    } catch (e) {
      if (e instanceof FlagError) throw e;
      throw new FlagError(`invalid --audit-policy-file ${config.auditPolicyFile}: ${(e as Error).message}`);
    }
  }
  return files;
}

/** The generated PKI's directory: --cert-dir, else pki/ in the data directory, on either store. */
export function pkiDirOf(config: Pick<ServerConfig, 'certDir' | 'dataDir'>): string {
  return resolve(config.certDir || join(config.dataDir, 'pki'));
}
