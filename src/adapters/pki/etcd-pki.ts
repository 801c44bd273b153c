/**
 * Certificates for etcd with TLS and client-certificate authentication, named as kubeadm names them: an etcd CA,
 * one member certificate for serving clients and peers (server and client authentication, the members' host
 * names and addresses in it), and the API server's client certificate. Created when missing, reused after;
 * scripts/cluster-up and scripts/etcd-certs use it, and the tests.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { issueLeaf, selfSignedCa, type KeyAndCert } from './issue';

export interface EtcdPkiPaths {
  dir: string;
  caCert: string;
  caKey: string;
  /** The members' certificate (--cert-file, --key-file, and the same for --peer-*). */
  serverCert: string;
  serverKey: string;
  /** The API server's client certificate (--etcd-certfile, --etcd-keyfile). */
  clientCert: string;
  clientKey: string;
}

export function etcdPkiPaths(dir: string): EtcdPkiPaths {
  return {
    dir,
    caCert: join(dir, 'ca.crt'),
    caKey: join(dir, 'ca.key'),
    serverCert: join(dir, 'server.crt'),
    serverKey: join(dir, 'server.key'),
    clientCert: join(dir, 'apiserver-etcd-client.crt'),
    clientKey: join(dir, 'apiserver-etcd-client.key'),
  };
}

function write(cert: string, key: string, pair: KeyAndCert): void {
  writeFileSync(cert, pair.certPem);
  writeFileSync(key, pair.keyPem, { mode: 0o600 });
}

/** Creates what is missing in `dir`; `hosts` (names or addresses) go into the member certificate beside localhost and 127.0.0.1. */
export async function ensureEtcdPki(dir: string, hosts: string[], now: Date): Promise<EtcdPkiPaths> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const paths = etcdPkiPaths(dir);
  let ca: KeyAndCert;
  if (existsSync(paths.caCert) && existsSync(paths.caKey)) ca = { certPem: readFileSync(paths.caCert, 'utf8'), keyPem: readFileSync(paths.caKey, 'utf8') };
  else {
    ca = await selfSignedCa(`etcd-ca@${Math.floor(now.getTime() / 1000)}`, now);
    write(paths.caCert, paths.caKey, ca);
  }
  if (!existsSync(paths.serverCert) || !existsSync(paths.serverKey)) {
    const names = [...new Set(['localhost', '127.0.0.1', '::1', ...hosts])];
    const member = { commonName: 'etcd', dnsNames: names.filter((h) => !isIP(h)), ipAddresses: names.filter((h) => isIP(h)), usage: 'peer' as const, days: 3600 };
    write(paths.serverCert, paths.serverKey, await issueLeaf(ca, member, now));
  }
  if (!existsSync(paths.clientCert) || !existsSync(paths.clientKey)) {
    write(paths.clientCert, paths.clientKey, await issueLeaf(ca, { commonName: 'svc-apiserver-etcd-client', usage: 'client', days: 3600 }, now));
  }
  return paths;
}
