/**
 * The flags that say how to reach etcd, as kube-apiserver names them: --etcd-servers, and for https:// servers
 * --etcd-cafile (required here: the CA that signs etcd's certificate) with --etcd-certfile and --etcd-keyfile
 * (the client certificate etcd's --client-cert-auth asks for). Shared by the server and `migrate`.
 */
import { FlagError } from './flag-error';

export interface EtcdFlags {
  etcdServers: string[];
  etcdCaFile?: string;
  etcdCertFile?: string;
  etcdKeyFile?: string;
}

export const etcdTlsFlagNames = ['etcd-cafile', 'etcd-certfile', 'etcd-keyfile'];

export const etcdTlsUsage = `  --etcd-cafile FILE                 CA bundle that signs etcd's serving certificate (needed for https:// servers)
  --etcd-certfile, --etcd-keyfile FILE  client certificate and key for etcd's --client-cert-auth`;

/** Checks the URLs and how the TLS flags go with them; the files themselves are read later (composition/preflight). */
export function parseEtcdFlags(servers: string[], last: (name: string) => string | undefined): EtcdFlags {
  for (const url of servers) {
    if (!/^https?:\/\/[^/\s]+(:\d+)?\/?$/.test(url)) throw new FlagError(`invalid --etcd-servers entry "${url}": want a URL such as http://127.0.0.1:2379`);
  }
  const secure = servers.filter((u) => u.startsWith('https://'));
  const etcdCaFile = last('etcd-cafile') || undefined;
  const etcdCertFile = last('etcd-certfile') || undefined;
  const etcdKeyFile = last('etcd-keyfile') || undefined;
  if (!!etcdCertFile !== !!etcdKeyFile) throw new FlagError('--etcd-certfile and --etcd-keyfile go together');
  if (secure.length && secure.length !== servers.length) {
    throw new FlagError(`invalid --etcd-servers ${servers.join(',')}: use https:// for every server or for none`);
  }
  if (secure.length && !etcdCaFile) {
    throw new FlagError(`--etcd-servers ${servers.join(',')} are https:// URLs: give --etcd-cafile, the CA that signs etcd's certificate`);
  }
  const given = [etcdCaFile && '--etcd-cafile', etcdCertFile && '--etcd-certfile', etcdKeyFile && '--etcd-keyfile'].filter(Boolean);
  if (given.length && !secure.length) {
    throw new FlagError(`${given.join(', ')} ${given.length > 1 ? 'are' : 'is'} for https:// --etcd-servers only${servers.length ? ` (given: ${servers.join(',')})` : ''}`);
  }
  return { etcdServers: servers, etcdCaFile, etcdCertFile, etcdKeyFile };
}
