/** test/support/until.ts: answers the probe's value, stays within its timeout, names what it waited for. */
import { until } from '../../support/until';

describe('until', () => {
  it('answers the first value the probe gives, skipping undefined, null and false', async () => {
    const answers: unknown[] = [undefined, null, false, 0];
    let calls = 0;
    expect(await until('a value', () => answers[calls++], { intervalMs: 1 })).toBe(0);
    expect(calls).toBe(4);
    expect(await until('an async value', async () => 'ready')).toBe('ready');
    expect(await until('a condition', () => true)).toBe(true);
  });

  it('fails after the timeout with what it waited for and the onTimeout detail', async () => {
    const started = Date.now();
    let calls = 0;
    await expect(until('the moon', () => (calls++, false), { timeoutMs: 200, intervalMs: 20, onTimeout: () => `${calls} probes` })).rejects.toThrow(
      /^timed out after 200 ms waiting for the moon: \d+ probes$/,
    );
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(200);
    expect(took).toBeLessThan(1000);
    expect(calls).toBeGreaterThan(2);
  });

  it('passes on the error of a probe that throws, without waiting out the timeout', async () => {
    const started = Date.now();
    await expect(until('nothing', () => { throw new Error('broken probe'); }, { timeoutMs: 5000 })).rejects.toThrow('broken probe');
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
