/**
 * The generated PKI of a one-command start: a cluster CA, a serving
 * certificate, a service-account signing key and an admin kubeconfig,
 * created on first start and reused after (k3s-style). Files given by flags
 * are used as they are.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { issueLeaf, KeyAndCert, newKeyPair, privateKeyPem, publicKeyPem, selfSignedCa, validFor } from './issue';

export interface PkiPaths {
  dir: string;
  caCert: string;
  caKey: string;
  servingCert: string;
  servingKey: string;
  saKey: string;
  saPub: string;
}

export function pkiPaths(dir: string): PkiPaths {
  return {
    dir,
    caCert: join(dir, 'ca.crt'),
    caKey: join(dir, 'ca.key'),
    servingCert: join(dir, 'apiserver.crt'),
    servingKey: join(dir, 'apiserver.key'),
    saKey: join(dir, 'sa.key'),
    saPub: join(dir, 'sa.pub'),
  };
}

function writeSecret(path: string, text: string): void {
  writeFileSync(path, text, { mode: 0o600 });
  chmodSync(path, 0o600);
}

function readPair(cert: string, key: string): KeyAndCert | undefined {
  if (!existsSync(cert) || !existsSync(key)) return undefined;
  return { certPem: readFileSync(cert, 'utf8'), keyPem: readFileSync(key, 'utf8') };
}

export interface EnsuredPki {
  paths: PkiPaths;
  ca: KeyAndCert;
  serving: KeyAndCert;
  created: string[];
}

/** Creates what is missing under `dir`: CA, serving certificate (renewed 30 days before expiry), SA key pair. */
export async function ensurePki(dir: string, bindAddress: string, now: Date): Promise<EnsuredPki> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const paths = pkiPaths(dir);
  const created: string[] = [];
  let ca = readPair(paths.caCert, paths.caKey);
  if (!ca) {
    ca = await selfSignedCa(`svc-apiserver-ca@${Math.floor(now.getTime() / 1000)}`, now);
    writeFileSync(paths.caCert, ca.certPem);
    writeSecret(paths.caKey, ca.keyPem);
    created.push(paths.caCert, paths.caKey);
  }
  let serving = readPair(paths.servingCert, paths.servingKey);
  if (!serving || !validFor(serving.certPem, now, 30) || created.length) {
    const ips = ['127.0.0.1', '::1'];
    const dnsNames = ['localhost', hostname(), 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local'];
    if (bindAddress && !['0.0.0.0', '::', '127.0.0.1', '::1'].includes(bindAddress)) {
      if (/^[\d.]+$|:/.test(bindAddress)) ips.push(bindAddress);
      else dnsNames.push(bindAddress);
    }
    serving = await issueLeaf(ca, { commonName: 'svc-apiserver', dnsNames: [...new Set(dnsNames)], ipAddresses: ips, usage: 'server', days: 365 }, now);
    writeFileSync(paths.servingCert, serving.certPem);
    writeSecret(paths.servingKey, serving.keyPem);
    created.push(paths.servingCert);
  }
  if (!existsSync(paths.saKey)) {
    const keys = await newKeyPair();
    writeSecret(paths.saKey, await privateKeyPem(keys.privateKey));
    writeFileSync(paths.saPub, await publicKeyPem(keys.publicKey));
    created.push(paths.saKey);
  }
  return { paths, ca, serving, created };
}

/** Writes an admin kubeconfig (system:admin in system:masters, mode 0600) unless a valid one is there. */
export async function ensureAdminKubeconfig(path: string, server: string, ca: KeyAndCert, now: Date): Promise<boolean> {
  if (existsSync(path)) {
    const text = readFileSync(path, 'utf8');
    const m = /client-certificate-data: (\S+)/.exec(text);
    const sameServer = text.includes(`server: ${server}`);
    const sameCa = text.includes(Buffer.from(ca.certPem).toString('base64'));
    if (m && sameServer && sameCa && validFor(Buffer.from(m[1], 'base64').toString('utf8'), now, 30)) return false;
  }
  const admin = await issueLeaf(ca, { commonName: 'system:admin', organizations: ['system:masters'], usage: 'client', days: 365 }, now);
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'svc-apiserver', cluster: { server, 'certificate-authority-data': b64(ca.certPem) } }],
    users: [{ name: 'system:admin', user: { 'client-certificate-data': b64(admin.certPem), 'client-key-data': b64(admin.keyPem) } }],
    contexts: [{ name: 'svc-apiserver', context: { cluster: 'svc-apiserver', user: 'system:admin', namespace: 'default' } }],
    'current-context': 'svc-apiserver',
  };
  writeSecret(path, dump(config, { lineWidth: -1 }));
  return true;
}
