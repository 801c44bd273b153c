/**
 * TLS to etcd (kube-apiserver's --etcd-cafile, --etcd-certfile, --etcd-keyfile): the CA that signs etcd's
 * certificate, and the client certificate and key etcd's --client-cert-auth asks for. Both connections the
 * adapter opens (its own transport and the etcd3 library's) use the same material; the server's name is checked
 * against the host of each https:// URL.
 */
import type { ConnectionOptions } from 'node:tls';

export interface EtcdTls {
  /** PEM: the CA bundle that etcd's serving certificate must chain to. */
  ca: Buffer;
  /** PEM: this client's certificate (chain) and its key, for etcd's --client-cert-auth. */
  cert?: Buffer;
  key?: Buffer;
}

/** Options for tls.connect beyond the host, port, server name and ALPN the session sets. */
export function connectionOptions(tls: EtcdTls | undefined): ConnectionOptions | undefined {
  return tls ? { ca: tls.ca, cert: tls.cert, key: tls.key, rejectUnauthorized: true } : undefined;
}
