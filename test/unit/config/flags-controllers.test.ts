/** kube-controller-manager's flags in this process: --controllers, leader election, the signing CAs and duration. */
import { FlagError, parseFlags } from '../../../src/config/flags';
import { goDurationMs } from '../../../src/config/controller-flags';
import { validateLeaderElection } from '../../../src/controllers/leader-election';

const fails = (argv: string[]) => {
  try {
    parseFlags(argv);
  } catch (e) {
    expect(e).toBeInstanceOf(FlagError);
    return (e as Error).message;
  }
  throw new Error(`parseFlags(${argv.join(' ')}) did not fail`);
};
const cm = (argv: string[]) => parseFlags(argv).controllerManager;

describe('controller manager flags', () => {
  test("upstream's defaults", () => {
    const c = cm([]);
    expect(c).toMatchObject({
      controllers: ['*'],
      leaderElect: true,
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
      leaseName: 'svc-controller-manager',
      leaseNamespace: 'kube-system',
      signingDurationMs: 365 * 24 * 3600_000,
    });
    expect(c.signerFiles.size).toBe(0);
  });

  test('--controllers takes a list; --leader-elect is a boolean flag', () => {
    expect(cm(['--controllers', '*,-csrsigning', '--controllers=namespace-controller']).controllers).toEqual(['*', '-csrsigning', 'namespace-controller']);
    expect(cm(['--leader-elect=false']).leaderElect).toBe(false);
    expect(cm(['--leader-elect', 'false']).leaderElect).toBe(false);
    expect(cm(['--leader-elect']).leaderElect).toBe(true);
    expect(fails(['--leader-elect=maybe'])).toBe('invalid --leader-elect "maybe": want true or false');
  });

  test('durations are Go durations', () => {
    const c = cm(['--leader-elect-lease-duration=30s', '--leader-elect-renew-deadline', '1.5s', '--leader-elect-retry-period=250ms', '--cluster-signing-duration=720h']);
    expect(c).toMatchObject({ leaseDurationMs: 30_000, renewDeadlineMs: 1500, retryPeriodMs: 250, signingDurationMs: 720 * 3600_000 });
    expect(goDurationMs('1h30m10s', 'x')).toBe(5_410_000);
    expect(goDurationMs('8760h0m0s', 'x')).toBe(8760 * 3600_000);
    expect(goDurationMs('20', 'x')).toBe(20_000);
    expect(fails(['--leader-elect-retry-period=soon'])).toBe('invalid --leader-elect-retry-period "soon": want a duration like 15s, 500ms, 1h30m');
    expect(fails(['--cluster-signing-duration=0s'])).toBe('invalid --cluster-signing-duration "0s": must be greater than zero');
  });

  test('leader election timing is checked as upstream checks it', () => {
    expect(validateLeaderElection({ leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 })).toBeUndefined();
    expect(validateLeaderElection({ leaseDurationMs: 10_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 })).toBe('leaseDuration must be greater than renewDeadline');
    expect(validateLeaderElection({ leaseDurationMs: 15_000, renewDeadlineMs: 2_000, retryPeriodMs: 2_000 })).toBe('renewDeadline must be greater than retryPeriod*JitterFactor');
  });

  test('one CA for every signer, or one per signer, never both', () => {
    const all = cm(['--cluster-signing-cert-file=/ca.crt', '--cluster-signing-key-file=/ca.key']).signerFiles;
    expect([...all.keys()]).toEqual(['svc.io/apiserver-client', 'svc.io/apiserver-client-node', 'svc.io/node-serving', 'svc.io/apiserver-client-pod']);
    expect(all.get('svc.io/node-serving')).toEqual({ certFile: '/ca.crt', keyFile: '/ca.key' });
    const one = cm(['--cluster-signing-node-serving-cert-file=/s.crt', '--cluster-signing-node-serving-key-file=/s.key']).signerFiles;
    expect([...one.entries()]).toEqual([['svc.io/node-serving', { certFile: '/s.crt', keyFile: '/s.key' }]]);
    expect(fails(['--cluster-signing-cert-file=/ca.crt'])).toBe('--cluster-signing-cert-file and --cluster-signing-key-file go together');
    expect(fails(['--cluster-signing-apiserver-client-pod-key-file=/p.key'])).toBe('--cluster-signing-apiserver-client-pod-cert-file and --cluster-signing-apiserver-client-pod-key-file go together');
    expect(fails(['--cluster-signing-cert-file=/ca.crt', '--cluster-signing-key-file=/ca.key', '--cluster-signing-apiserver-client-cert-file=/c.crt', '--cluster-signing-apiserver-client-key-file=/c.key'])).toBe(
      'cannot specify default and per controller certs at the same time',
    );
  });
});
