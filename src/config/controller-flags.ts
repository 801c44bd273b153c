/**
 * kube-controller-manager's flags for the controllers that run in this
 * process: --controllers, leader election, and the CSR signing CAs (the
 * per-signer flags are named after this server's signers).
 */
export class ControllerFlagError extends Error {}

export const controllerValueFlags = [
  'controllers',
  'leader-elect-lease-duration',
  'leader-elect-renew-deadline',
  'leader-elect-retry-period',
  'leader-elect-resource-name',
  'leader-elect-resource-namespace',
  'cluster-signing-cert-file',
  'cluster-signing-key-file',
  'cluster-signing-duration',
  ...['apiserver-client', 'apiserver-client-node', 'node-serving', 'apiserver-client-pod'].flatMap((s) => [`cluster-signing-${s}-cert-file`, `cluster-signing-${s}-key-file`]),
];
export const controllerBoolFlags = ['leader-elect'];

export const controllerUsage = `  --controllers A,B                  controllers to run: * (all), name, -name (default *)
  --leader-elect BOOL                run controllers only in the replica holding the lease (default true)
  --leader-elect-lease-duration D    how long a lease holds without renewal (default 15s)
  --leader-elect-renew-deadline D    the leader gives up when it cannot renew for this long (default 10s)
  --leader-elect-retry-period D      how often candidates try and leaders renew (default 2s)
  --leader-elect-resource-name NAME, --leader-elect-resource-namespace NS
                                     the Lease (default kube-system/svc-controller-manager)
  --cluster-signing-cert-file, --cluster-signing-key-file FILE
                                     CA of every built-in signer (default: the cluster CA)
  --cluster-signing-{apiserver-client,apiserver-client-node,node-serving,apiserver-client-pod}-{cert,key}-file FILE
                                     CA of one signer (then signers without their own files do not run)
  --cluster-signing-duration D       longest certificate the CSR signers issue (default 8760h0m0s)`;

export interface SignerFiles {
  certFile: string;
  keyFile: string;
}

export interface ControllerConfig {
  controllers: string[];
  leaderElect: boolean;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  leaseName: string;
  leaseNamespace: string;
  /** Explicit CA files per signer; empty when the cluster CA signs for every signer. */
  signerFiles: Map<string, SignerFiles>;
  signingDurationMs: number;
}

const units: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A Go duration (`15s`, `1.5s`, `500ms`, `8760h0m0s`) in milliseconds; bare numbers are seconds. */
export function goDurationMs(raw: string, flag: string): number {
  const text = raw.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const part = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/y;
  let total = 0;
  let at = 0;
  while (at < text.length) {
    part.lastIndex = at;
    const m = part.exec(text);
    if (!m) throw new ControllerFlagError(`invalid --${flag} "${raw}": want a duration like 15s, 500ms, 1h30m`);
    total += Number(m[1]) * units[m[2]];
    at = part.lastIndex;
  }
  if (!text) throw new ControllerFlagError(`invalid --${flag} "": want a duration like 15s, 500ms, 1h30m`);
  return total;
}

const signerFlagNames: Record<string, string> = {
  'apiserver-client': 'svc.io/apiserver-client',
  'apiserver-client-node': 'svc.io/apiserver-client-node',
  'node-serving': 'svc.io/node-serving',
  'apiserver-client-pod': 'svc.io/apiserver-client-pod',
};

export function parseControllerFlags(last: (k: string) => string | undefined, list: (k: string) => string[], bool: (k: string, fallback: boolean) => boolean): ControllerConfig {
  const duration = (flag: string, fallback: string) => {
    const ms = goDurationMs(last(flag) ?? fallback, flag);
    if (ms <= 0) throw new ControllerFlagError(`invalid --${flag} "${last(flag)}": must be greater than zero`);
    return ms;
  };
  const signerFiles = new Map<string, SignerFiles>();
  for (const [flag, signer] of Object.entries(signerFlagNames)) {
    const certFile = last(`cluster-signing-${flag}-cert-file`);
    const keyFile = last(`cluster-signing-${flag}-key-file`);
    if (!certFile && !keyFile) continue;
    if (!certFile || !keyFile) throw new ControllerFlagError(`--cluster-signing-${flag}-cert-file and --cluster-signing-${flag}-key-file go together`);
    signerFiles.set(signer, { certFile, keyFile });
  }
  const certFile = last('cluster-signing-cert-file');
  const keyFile = last('cluster-signing-key-file');
  if (!!certFile !== !!keyFile) throw new ControllerFlagError('--cluster-signing-cert-file and --cluster-signing-key-file go together');
  if (certFile && signerFiles.size) throw new ControllerFlagError('cannot specify default and per controller certs at the same time');
  if (certFile && keyFile) for (const signer of Object.values(signerFlagNames)) signerFiles.set(signer, { certFile, keyFile });
  const controllers = list('controllers');
  return {
    controllers: controllers.length ? controllers : ['*'],
    leaderElect: bool('leader-elect', true),
    leaseDurationMs: duration('leader-elect-lease-duration', '15s'),
    renewDeadlineMs: duration('leader-elect-renew-deadline', '10s'),
    retryPeriodMs: duration('leader-elect-retry-period', '2s'),
    leaseName: last('leader-elect-resource-name') ?? 'svc-controller-manager',
    leaseNamespace: last('leader-elect-resource-namespace') ?? 'kube-system',
    signerFiles,
    signingDurationMs: duration('cluster-signing-duration', '8760h0m0s'),
  };
}
