import { FairQueues } from '../../../src/flowcontrol/fair-queues';

/** Enters n requests of one flow, recording the order in which they start. */
function flood(q: FairQueues, flow: string, n: number, started: string[]) {
  return Array.from({ length: n }, (_, i) => q.enter(flow, () => started.push(`${flow}${i}`)));
}

describe('FairQueues', () => {
  it('starts requests at once while seats are free', () => {
    const q = new FairQueues({ seats: 2, queueLength: 10, admitted: 100 });
    const started: string[] = [];
    flood(q, 'a', 3, started);
    expect(started).toEqual(['a0', 'a1']);
    expect([q.executingCount, q.waitingCount]).toEqual([2, 1]);
  });

  it('hands freed seats to waiting flows in turn, however long one flow queue is', () => {
    const q = new FairQueues({ seats: 1, queueLength: 10, admitted: 100 });
    const started: string[] = [];
    flood(q, 'storm', 6, started);
    flood(q, 'quiet', 2, started);
    for (let i = 0; i < 7; i++) q.leave();
    expect(started).toEqual(['storm0', 'storm1', 'quiet0', 'storm2', 'quiet1', 'storm3', 'storm4', 'storm5']);
    expect(q.waitingCount).toBe(0);
  });

  it('refuses a flow past its queue length while others still get in', () => {
    const q = new FairQueues({ seats: 1, queueLength: 2, admitted: 100 });
    const started: string[] = [];
    const storm = flood(q, 'storm', 4, started);
    expect(storm.map((t) => t !== undefined)).toEqual([true, true, true, false]);
    expect(q.enter('quiet', () => started.push('quiet'))).toBeDefined();
  });

  it('refuses everyone past the admitted total', () => {
    const q = new FairQueues({ seats: 1, queueLength: 10, admitted: 2 });
    const started: string[] = [];
    flood(q, 'a', 2, started);
    expect(q.enter('b', () => undefined)).toBeUndefined();
    q.leave();
    expect(q.enter('b', () => undefined)).toBeDefined();
  });

  it('a withdrawn request never starts and frees its place; a started one cannot be withdrawn', () => {
    const q = new FairQueues({ seats: 1, queueLength: 1, admitted: 100 });
    const started: string[] = [];
    const [first, second] = flood(q, 'a', 2, started);
    expect(first!.withdraw()).toBe(false);
    expect(second!.withdraw()).toBe(true);
    expect(second!.withdraw()).toBe(false);
    expect(q.waitingCount).toBe(0);
    expect(q.enter('a', () => started.push('again'))).toBeDefined();
    q.leave();
    expect(started).toEqual(['a0', 'again']);
  });
});
