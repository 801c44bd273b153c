/**
 * What the server can check before it writes anything: the files and directories the flags name. Each check
 * reads only, and a failure is a FlagError whose message is one sentence naming the flag and the path (main
 * prints it and exits 1). The PKI, the store and the admin kubeconfig are written only after all of these pass.
 */
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { createPrivateKey, createPublicKey, KeyObject, X509Certificate } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { FlagError } from '../config/flag-error';
import type { EtcdFlags } from '../config/etcd-flags';
import type { EtcdTls } from '../adapters/etcd';

export function readFlagFile(flag: string, path: string): string {
  try {
    const stat = statSync(path);
    if (stat.isDirectory()) throw new FlagError(`cannot read --${flag} ${path}: it is a directory, not a file`);
    return readFileSync(path, 'utf8');
  } catch (e) {
    if (e instanceof FlagError) throw e;
    throw new FlagError(`cannot read --${flag} ${path}: ${ioReason(e)}`);
  }
}

function ioReason(e: unknown): string {
  switch ((e as NodeJS.ErrnoException).code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOTDIR':
      return 'a parent of it is a file, not a directory';
    default:
      return (e as Error).message;
  }
}

const pemBlocks = (text: string, label: string) => text.match(new RegExp(`-----BEGIN ${label}-----[\\s\\S]+?-----END ${label}-----`, 'g')) ?? [];

/** A PEM file holding one or more certificates, each parsed (a CA bundle, or a certificate and its chain). */
export function readCertificates(flag: string, path: string): { text: string; certs: X509Certificate[] } {
  const text = readFlagFile(flag, path);
  const blocks = pemBlocks(text, 'CERTIFICATE');
  if (!blocks.length) throw new FlagError(`--${flag} ${path} holds no PEM certificate (want -----BEGIN CERTIFICATE----- blocks)`);
  const certs = blocks.map((b, i) => {
    try {
      return new X509Certificate(b);
    } catch (e) {
      throw new FlagError(`--${flag} ${path}: certificate ${i + 1} cannot be read: ${(e as Error).message}`);
    }
  });
  return { text, certs };
}

export function readPrivateKey(flag: string, path: string): { text: string; key: KeyObject } {
  const text = readFlagFile(flag, path);
  try {
    return { text, key: createPrivateKey(text) };
  } catch {
    throw new FlagError(`--${flag} ${path} holds no private key that can be read (want a PEM private key)`);
  }
}

/** A certificate file and its key file, the key the certificate's. */
export function readKeyPair(certFlag: string, certPath: string, keyFlag: string, keyPath: string): { cert: string; key: string } {
  const { text: cert, certs } = readCertificates(certFlag, certPath);
  const { text: key, key: keyObject } = readPrivateKey(keyFlag, keyPath);
  if (!certs[0].checkPrivateKey(keyObject)) {
    throw new FlagError(`--${keyFlag} ${keyPath} is not the key of the certificate in --${certFlag} ${certPath}`);
  }
  return { cert, key };
}

/** Public keys from PEM files that hold public keys, certificates or private keys (as upstream accepts). */
export function readPublicKeys(flag: string, path: string): KeyObject[] {
  const text = readFlagFile(flag, path);
  const blocks = pemBlocks(text, '[A-Z ]+');
  if (!blocks.length) throw new FlagError(`--${flag} ${path} holds no PEM block`);
  return blocks.map((b) => {
    try {
      return createPublicKey(b);
    } catch (e) {
      throw new FlagError(`--${flag} ${path}: ${(e as Error).message}`);
    }
  });
}

/**
 * A directory the server will create or write in: an existing directory it may write, or a path whose nearest
 * existing ancestor is such a directory. Nothing is created here.
 */
export function checkWritableDir(flag: string, path: string): void {
  const full = resolve(path);
  let at = full;
  for (;;) {
    let stat;
    try {
      stat = statSync(at);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR') throw new FlagError(`cannot use --${flag} ${path}: a parent of it is a file, not a directory`);
      if (code !== 'ENOENT') throw new FlagError(`cannot use --${flag} ${path}: ${ioReason(e)}`);
      if (dirname(at) === at) throw new FlagError(`cannot use --${flag} ${path}: no part of it exists`);
      at = dirname(at);
      continue;
    }
    if (!stat.isDirectory()) {
      throw new FlagError(`cannot use --${flag} ${path}: ${at === full ? 'is a file, not a directory' : `${at} is a file, not a directory`}`);
    }
    try {
      accessSync(at, constants.W_OK | constants.X_OK);
    } catch {
      throw new FlagError(`cannot use --${flag} ${path}: ${at} is not writable by this user`);
    }
    return;
  }
}

/** The audit log's directory must exist (as upstream, it is not created) and be writable; the file may not exist yet. */
export function checkAuditLogPath(path: string): void {
  if (path === '-') return;
  const dir = dirname(resolve(path));
  let stat;
  try {
    stat = statSync(dir);
  } catch (e) {
    throw new FlagError(`cannot use --audit-log-path ${path}: its directory ${dir} ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : ioReason(e)}`);
  }
  if (!stat.isDirectory()) throw new FlagError(`cannot use --audit-log-path ${path}: ${dir} is not a directory`);
  try {
    if (statSync(path).isDirectory()) throw new FlagError(`cannot use --audit-log-path ${path}: it is a directory`);
    accessSync(path, constants.W_OK);
  } catch (e) {
    if (e instanceof FlagError) throw e;
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new FlagError(`cannot use --audit-log-path ${path}: ${ioReason(e)}`);
    try {
      accessSync(dir, constants.W_OK);
    } catch {
      throw new FlagError(`cannot use --audit-log-path ${path}: ${dir} is not writable by this user`);
    }
  }
}

/** --etcd-cafile, --etcd-certfile and --etcd-keyfile read and checked (parseEtcdFlags checked how they go together). */
export function readEtcdTls(flags: EtcdFlags): EtcdTls | undefined {
  if (!flags.etcdCaFile) return undefined;
  const ca = readCertificates('etcd-cafile', flags.etcdCaFile).text;
  if (!flags.etcdCertFile || !flags.etcdKeyFile) return { ca: Buffer.from(ca) };
  const pair = readKeyPair('etcd-certfile', flags.etcdCertFile, 'etcd-keyfile', flags.etcdKeyFile);
  return { ca: Buffer.from(ca), cert: Buffer.from(pair.cert), key: Buffer.from(pair.key) };
}
