import { WaitDeadlines } from '../../../src/adapters/http/wait-deadlines';
import { promotedBytes } from '../../support/promoted-bytes';

/** What a waiting request's callback holds on to: a graph of small objects, as a request and its response are. */
function requestGraph(i: number) {
  return { id: i, parts: Array.from({ length: 20 }, (_, k) => ({ k, s: `part ${k}` })) };
}

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

  it('keeps nothing of a finished wait alive for minor collections (they promoted whole requests)', async () => {
    const waits = 20_000;
    const d = new WaitDeadlines(15_000);
    // Sixteen waiting at any time, each cancelled when a seat frees, as under load. The first are there before the
    // collection that starts the count, so the Set's table is in the old generation, as a server's soon is.
    const waiting = Array.from({ length: 16 }, (_, i) => d.add(() => void requestGraph(i)));
    const bytes = await promotedBytes('requestGraph', (minorGc) => {
      for (let i = 0; i < waits; i++) {
        const request = requestGraph(i);
        waiting.push(d.add(() => void request));
        waiting.shift()!();
        if (i % 500 === 0) minorGc();
      }
    });
    for (const cancel of waiting) cancel();
    // About 215 bytes per wait when each kept its callback (graphs promoted), about 1 now.
    expect(bytes / waits).toBeLessThan(50);
  });
});

