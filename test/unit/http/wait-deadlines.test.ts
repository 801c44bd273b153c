import { WaitDeadlines } from '../../../src/adapters/http/wait-deadlines';

describe('flow-control wait deadlines (one sweep for all waiters)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('expires a waiter after its wait, never one that was cancelled, in the order they came', () => {
    let now = 0;
    const d = new WaitDeadlines(1000, () => now);
    const expired: string[] = [];
    d.add(() => expired.push('a'));
    now = 500;
    const cancelB = d.add(() => expired.push('b'));
    d.add(() => expired.push('c'));
    now = 999;
    jest.advanceTimersByTime(100);
    expect(expired).toEqual([]);
    now = 1000;
    jest.advanceTimersByTime(100);
    expect(expired).toEqual(['a']);
    cancelB();
    now = 1500;
    jest.advanceTimersByTime(100);
    expect(expired).toEqual(['a', 'c']);
    expect(jest.getTimerCount()).toBe(0); // no timer left once nobody waits
  });
});
