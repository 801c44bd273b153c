/** The flags this issue adds: --event-ttl and the admission plugin switches, with upstream's names and messages. */
import { FlagError, parseFlags } from '../../../src/config/flags';

const fails = (argv: string[]) => {
  try {
    parseFlags(argv);
  } catch (e) {
    expect(e).toBeInstanceOf(FlagError);
    return (e as Error).message;
  }
  throw new Error(`parseFlags(${argv.join(' ')}) did not fail`);
};

describe('--event-ttl', () => {
  test('one hour by default; seconds or Go durations', () => {
    expect(parseFlags([]).eventTtlSeconds).toBe(3600);
    expect(parseFlags(['--event-ttl', '90']).eventTtlSeconds).toBe(90);
    expect(parseFlags(['--event-ttl=1h0m0s']).eventTtlSeconds).toBe(3600);
    expect(parseFlags(['--event-ttl=1h30m']).eventTtlSeconds).toBe(5400);
    expect(parseFlags(['--event-ttl=45s']).eventTtlSeconds).toBe(45);
  });
  test('rejects what is not a duration, and zero', () => {
    expect(fails(['--event-ttl=soon'])).toBe('invalid --event-ttl "soon": want seconds or a duration like 30s, 5m, 1h');
    expect(fails(['--event-ttl=0s'])).toBe('invalid --event-ttl "0s": must be at least 1s');
  });
  test('other durations keep their forms', () => {
    expect(parseFlags(['--etcd-compaction-interval=5m']).etcdCompactionIntervalSeconds).toBe(300);
  });
});

describe('--enable-admission-plugins / --disable-admission-plugins', () => {
  test('namespace, webhook and policy plugins by default, in upstream order', () => {
    expect(parseFlags([]).admissionPlugins).toEqual([
      'NamespaceAutoProvision',
      'NamespaceLifecycle',
      'MutatingAdmissionWebhook',
      'ValidatingAdmissionPolicy',
      'ValidatingAdmissionWebhook',
    ]);
  });
  test('switch to NamespaceExists', () => {
    const argv = ['--enable-admission-plugins=NamespaceExists', '--disable-admission-plugins', 'NamespaceAutoProvision'];
    expect(parseFlags(argv).admissionPlugins).toEqual(['NamespaceLifecycle', 'NamespaceExists', 'MutatingAdmissionWebhook', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook']);
  });
  test('the webhook and policy plugins can be turned off', () => {
    const argv = ['--disable-admission-plugins=MutatingAdmissionWebhook,ValidatingAdmissionPolicy,ValidatingAdmissionWebhook'];
    expect(parseFlags(argv).admissionPlugins).toEqual(['NamespaceAutoProvision', 'NamespaceLifecycle']);
  });
  test('unknown and overlapping names stop the server with a message', () => {
    expect(fails(['--enable-admission-plugins=NodeRestriction'])).toMatch(/^invalid admission plugins: enable-admission-plugins plugin "NodeRestriction" is unknown \(known plugins: /);
    expect(fails(['--enable-admission-plugins=NamespaceExists', '--disable-admission-plugins=NamespaceExists'])).toMatch(
      /\[NamespaceExists\] in enable-admission-plugins and disable-admission-plugins overlapped/,
    );
  });
});
