/** What `--help` and `--version` print. */
import { version } from '../version';
import { defaultSeats } from '../flowcontrol/fair-queues';
import { controllerUsage } from './controller-flags';
import { etcdTlsUsage } from './etcd-flags';

export function versionLine(): string {
  const v = version;
  return `svc-apiserver ${v.gitVersion} (commit ${v.gitCommit}, built ${v.buildDate}, ${v.goVersion} ${v.platform})`;
}

export const serverUsage = `svc-apiserver: a Kubernetes-style API server for configuration, certificate, RBAC and coordination
resources (kubectl and client libraries work with it), on an embedded store or etcd.

Usage:
  svc-apiserver [flags]                 serve (npm start -- [flags], or node dist/main.js [flags])
  svc-apiserver migrate --help          copy the embedded store into etcd
  svc-apiserver snapshot --help         save or restore the embedded store
  svc-apiserver --version               print the version

Serving:
  --bind-address IP                  address of the HTTPS port (default 127.0.0.1)
  --secure-port N                    HTTPS port (default 6443)
  --tls-cert-file, --tls-private-key-file FILE
                                     serving certificate and key (default: generated in the PKI directory)
  --data-dir DIR                     the embedded store, the PKI (pki/) and admin.kubeconfig (default ./data)
  --cert-dir DIR                     the PKI directory (default <data-dir>/pki)
  --port N                           plain-HTTP port, every request served as system:admin (default 0 = off; unsafe)
  --insecure-bind-address IP         address of the plain-HTTP port, loopback only (default 127.0.0.1)

Storage:
  --etcd-servers URL[,URL]           use etcd at these URLs instead of the embedded store
${etcdTlsUsage}
  --etcd-prefix PREFIX               key prefix in etcd (default /registry)
  --etcd-compaction-interval SECONDS compaction period, 0 disables (default 300; also accepts 5m, 30s)
  --request-timeout DURATION         deadline of every storage call; past it the request answers 504 (default 10s)
  --etcd-healthcheck-timeout DURATION  bound of the storage check of /livez (default 2s)
  --etcd-readycheck-timeout DURATION   bound of the storage check of /readyz and /healthz (default 2s)
  --min-request-timeout SECONDS      watches without timeoutSeconds end after [this, 2x) (default 1800)
  --watch-cache-history-bytes N      bytes of recent events the watch cache keeps for all kinds together
                                     (default 1/16 of the memory, at most 256Mi; accepts Ki, Mi, Gi)
  --event-ttl DURATION               how long events are kept after their last write (default 1h)

Identity and access:
  --client-ca-file FILE              CA bundle for client certificates (default: the cluster CA)
  --token-auth-file FILE             static bearer tokens, CSV token,user,uid,"group1,group2"
  --service-account-signing-key-file FILE   key that signs service-account tokens (default: generated)
  --service-account-key-file FILE    public keys that verify service-account tokens (repeatable)
  --service-account-issuer URL       token issuer (repeatable; the first one signs)
  --api-audiences A[,B]              accepted token audiences (default: the issuer)
  --service-account-max-token-expiration DURATION   cap on requested token lifetimes (default: none)
  --anonymous-auth BOOL              serve requests without credentials as system:anonymous (default true)
  --authorization-mode MODE          RBAC or AlwaysAllow (default RBAC)
  --audit-log-path FILE              audit events as JSON lines ("-" for stdout); its directory must exist
  --audit-policy-file FILE           audit policy (default without it: Metadata for every request)
  --audit-log-maxsize MB             rotate the audit log at this size (default 100; 0 = never)
  --audit-log-maxbackup N            rotated files to keep (default 10; 0 = all)
  --audit-log-mode MODE              when the audit buffer is full: blocking (new requests wait; default) or batch (drop, counted)
  --audit-log-batch-buffer-size N    audit events buffered before the mode applies (default 10000)
  --enable-admission-plugins A,B     admission plugins to turn on besides the defaults
                                     (NamespaceAutoProvision, NamespaceLifecycle, MutatingAdmissionWebhook,
                                     ValidatingAdmissionPolicy, ValidatingAdmissionWebhook); also NamespaceExists
  --disable-admission-plugins A,B    admission plugins to turn off

Load:
  --max-requests-inflight N          concurrent non-mutating requests before 429 (default 400)
  --max-mutating-requests-inflight N concurrent mutating requests before 429 (default 200)
  --flow-control-seats N             requests of each kind (mutating, read-only) executing at once; the rest
                                     wait in per-user queues served in turn (default ${defaultSeats})

Controllers:
${controllerUsage}

Other:
  --feature-gates Name=true,...      feature gates
  --log-level LEVEL                  debug|info|warn|error (default info); JSON lines on stdout
  --help, --version

More: README.md and docs/ in the svc-apiserver repository.`;
