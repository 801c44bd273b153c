import { progressRequestsSound, ProgressSupport } from '../../../src/adapters/etcd/progress-support';

describe('which etcd versions answer progress requests soundly', () => {
  test.each([
    ['3.4.23', false], // Debian 12's etcd
    ['3.4.30', false],
    ['3.4.31', true],
    ['3.5.12', false],
    ['3.5.13', true],
    ['3.5.17', true],
    ['3.5.13-rc.0', false], // a pre-release comes before its release
    ['3.6.0', true],
    ['3.3.27', false],
    ['4.0.0', true],
    ['v3.5.13', true],
    ['3.5', false],
    ['', false],
    ['not a version', false],
  ])('%s → %s', (version, sound) => {
    expect(progressRequestsSound(version)).toBe(sound);
  });
});

describe('ProgressSupport', () => {
  const answers = (table: Record<string, string[]>) => {
    const asked: string[] = [];
    const versionOf = async (ep: string) => {
      asked.push(ep);
      const next = table[ep].shift();
      if (next === undefined || next === 'down') throw new Error(`${ep} does not answer`);
      return next;
    };
    return { asked, versionOf };
  };

  test('trusted once every member answered with a sound version, not before', async () => {
    const { versionOf } = answers({ a: ['3.5.17'], b: ['down', '3.6.1'] });
    const support = new ProgressSupport(['a', 'b'], versionOf);
    expect(support.supported).toBe(false);
    await expect(support.settled).resolves.toBe(true); // b answered on its retry
    expect(support.supported).toBe(true);
    support.stop();
  });

  test('one member with an unsound version decides it for all', async () => {
    const { versionOf } = answers({ a: ['3.5.17'], b: ['3.4.23'], c: ['3.6.0'] });
    const support = new ProgressSupport(['a', 'b', 'c'], versionOf);
    await expect(support.settled).resolves.toBe(false);
    expect(support.supported).toBe(false);
    support.stop();
  });

  test('a member that never answers keeps it untrusted, and stop() ends the asking', async () => {
    // Fake timers: "no more asking" is shown by running every timer left after stop(), not by waiting a while.
    jest.useFakeTimers();
    try {
      const { asked, versionOf } = answers({ a: ['3.5.17'], b: [] });
      const support = new ProgressSupport(['a', 'b'], versionOf);
      await jest.advanceTimersByTimeAsync(400); // retries after 100 and 200 ms
      expect(support.supported).toBe(false);
      support.stop();
      const count = asked.length;
      expect(asked.filter((ep) => ep === 'b').length).toBeGreaterThanOrEqual(2);
      await expect(support.settled).resolves.toBe(false);
      await jest.runAllTimersAsync(); // a retry left scheduled would ask again (and one that reschedules never ends)
      expect(asked.length).toBe(count);
    } finally {
      jest.useRealTimers();
    }
  });
});
