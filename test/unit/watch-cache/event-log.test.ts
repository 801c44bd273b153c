/** The cache's event window, key index and relist diff: pure data structures. */
import { CacheEvent, EventLog } from '../../../src/registry/watch-cache/event-log';
import { HistoryBudget } from '../../../src/registry/watch-cache/history-budget';
import { ObjectIndex } from '../../../src/registry/watch-cache/object-index';
import { CachedObject } from '../../../src/registry/watch-cache/cached-object';
import { diffToEvents } from '../../../src/registry/watch-cache/resync';

const obj = (key: string, rev: number) => CachedObject.of(key, rev, `{"metadata":{"name":"x","resourceVersion":"${rev}"}}`);
const put = (rev: number, time = 0) => new CacheEvent('ADDED', rev, obj(`/k/${rev}`, rev), undefined, time);

describe('EventLog', () => {
  test('events older than the time window go, however few are left', () => {
    let now = 0;
    const log = new EventLog(10, { windowMs: 1000, maxEvents: 100 }, () => now);
    for (let r = 11; r <= 20; r++) log.append(put(r, r * 10)); // times 110..200
    now = 1150; // events older than t=150 are outside the window
    log.trim();
    expect(log.length).toBe(6); // t=150 (r=15) is the first still inside
    expect(log.startRev).toBe(15 - 1);
    now = 10_000;
    log.trim();
    expect(log.length).toBe(0);
    expect(log.startRev).toBe(20);
  });

  test('an event gives back its time, key and bytes as given, for a real clock and a test clock alike', () => {
    for (const time of [0, 110, Date.now(), Date.now() + 40 * 86_400_000]) {
      const ev = put(7, time);
      expect([ev.time, ev.key, ev.bytes]).toEqual([time, '/k/7', ev.object!.size]);
    }
    const gone = new CacheEvent('DELETED', 8, undefined, obj('/k/gone', 5), Date.now());
    expect(gone.key).toBe('/k/gone');
  });

  test('sequence numbers survive trimming; evicted positions are reported', () => {
    const log = new EventLog(0, { windowMs: 1e12, maxEvents: 2 }, () => 1e9);
    for (let r = 1; r <= 5; r++) log.append(put(r));
    const seq = log.seqAfter(3);
    expect(log.at(seq)?.rev).toBe(4);
    log.trim();
    expect(log.evicted(0)).toBe(true);
    expect(log.at(seq)?.rev).toBe(4);
    expect(log.seqAfter(0)).toBe(3);
    expect(log.endSeq).toBe(5);
  });

  test('frames are encoded once and DELETED carries the deletion revision', () => {
    const prev = obj('/k/a', 3);
    const del = new CacheEvent('DELETED', 7, undefined, prev, 0);
    const f = del.frame('DELETED');
    expect(del.frame('DELETED')).toBe(f);
    expect(JSON.parse(f.toString())).toEqual({ type: 'DELETED', object: { metadata: { name: 'x', resourceVersion: '7' } } });
  });
});

describe('HistoryBudget', () => {
  const big = (key: string, rev: number, time: number, size: number) =>
    new CacheEvent('MODIFIED', rev, CachedObject.of(key, rev, 'x'.repeat(size)), undefined, time);

  test('the histories of all kinds hold at most the budget; the oldest events go first', () => {
    const budget = new HistoryBudget(1000);
    const limits = { windowMs: 1e12, maxEvents: 1e6 };
    const a = new EventLog(0, limits, () => 0, budget);
    const b = new EventLog(0, limits, () => 0, budget);
    a.append(big('/a/1', 1, 1, 300));
    b.append(big('/b/1', 2, 2, 300));
    a.append(big('/a/1', 3, 3, 300));
    a.trim();
    expect(budget.bytes).toBe(900);
    b.append(big('/b/1', 4, 4, 300));
    b.trim();
    // a's event at t=1 was the oldest anywhere.
    expect(budget.bytes).toBe(900);
    expect(a.startRev).toBe(1);
    expect(a.length).toBe(1);
    expect(b.length).toBe(2);
    expect(a.bytes + b.bytes).toBe(budget.bytes);
  });

  test('each kind keeps its newest event, even one larger than the budget', () => {
    const budget = new HistoryBudget(100);
    const log = new EventLog(0, { windowMs: 1e12, maxEvents: 1e6 }, () => 0, budget);
    for (let r = 1; r <= 3; r++) log.append(big('/k', r, r, 500));
    log.trim();
    expect(log.length).toBe(1);
    expect(log.startRev).toBe(2);
    expect(budget.bytes).toBe(500);
  });

  test('encoded frames count, and a disposed log gives its bytes back', () => {
    const budget = new HistoryBudget(1e9);
    const log = new EventLog(0, { windowMs: 1e12, maxEvents: 1e6 }, () => 0, budget);
    const ev = big('/k', 1, 1, 200);
    log.append(ev);
    const frame = ev.frame('MODIFIED');
    expect(budget.bytes).toBe(200 + frame.length);
    ev.frame('MODIFIED');
    expect(budget.bytes).toBe(200 + frame.length);
    log.dispose();
    expect(budget.bytes).toBe(0);
  });
});

describe('ObjectIndex', () => {
  const keysIn = (idx: ObjectIndex, start: string, end: string) => {
    const r = idx.range(start, end);
    return r.objects.slice(r.from, r.to).map((o) => `${o.key}@${o.rev}`);
  };

  test('key order after adds and deletes, folded in on the next read', () => {
    const idx = new ObjectIndex();
    ['/a/c', '/a/a', '/b/x', '/a/b'].forEach((k) => idx.set(obj(k, 1)));
    expect(keysIn(idx, '/a/', '/a0')).toEqual(['/a/a@1', '/a/b@1', '/a/c@1']);
    idx.delete('/a/b');
    idx.set(obj('/a/0', 2));
    idx.set(obj('/a/b', 3)); // re-created
    idx.delete('/a/c');
    expect(keysIn(idx, '/a/', '/a0')).toEqual(['/a/0@2', '/a/a@1', '/a/b@3']);
    expect(idx.size).toBe(4);
  });

  test('a change replaces the object in place, also for a key deleted and created again before a read', () => {
    const idx = new ObjectIndex();
    ['/a/a', '/a/b'].forEach((k) => idx.set(obj(k, 1)));
    keysIn(idx, '/', '0');
    expect(idx.set(obj('/a/a', 2))?.rev).toBe(1);
    expect(keysIn(idx, '/', '0')).toEqual(['/a/a@2', '/a/b@1']);
    idx.delete('/a/b');
    idx.set(obj('/a/b', 3));
    idx.set(obj('/a/b', 4));
    idx.set(obj('/a/c', 5));
    idx.set(obj('/a/c', 6)); // changed before it was ever read
    expect(keysIn(idx, '/', '0')).toEqual(['/a/a@2', '/a/b@4', '/a/c@6']);
  });
});

describe('ObjectIndex against a map', () => {
  test('gets, sizes and ranges agree through adds, changes and deletes in any order', () => {
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    const idx = new ObjectIndex();
    const model = new Map<string, CachedObject>();
    const wrong: string[] = [];
    for (let step = 1; step <= 30_000; step++) {
      const k = `/k/${String(rand(6000)).padStart(5, '0')}`;
      if (rand(4) === 0) {
        if (idx.delete(k) !== model.get(k)) wrong.push(`delete ${k} at ${step}`);
        model.delete(k);
      } else {
        const o = obj(k, step);
        if (idx.set(o) !== model.get(k)) wrong.push(`set ${k} at ${step}`);
        model.set(k, o);
      }
      const probe = `/k/${String(rand(6000)).padStart(5, '0')}`;
      if (idx.get(probe) !== model.get(probe)) wrong.push(`get ${probe} at ${step}`);
      if (step % 5000 === 0) {
        expect(idx.size).toBe(model.size);
        const r = idx.range('/k/01', '/k/03');
        const want = [...model.keys()].filter((key) => key >= '/k/01' && key < '/k/03').sort();
        expect(r.objects.slice(r.from, r.to).map((o) => o.key)).toEqual(want);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('diffToEvents', () => {
  test('changed and new objects at their revision, deletions at the list revision', () => {
    const before = new Map([['/k/a', obj('/k/a', 2)], ['/k/b', obj('/k/b', 3)], ['/k/c', obj('/k/c', 4)]]);
    const after = new Map([['/k/a', obj('/k/a', 2)], ['/k/b', obj('/k/b', 9)], ['/k/d', obj('/k/d', 7)]]);
    const events = diffToEvents(before, 5, after, 10, 0);
    expect(events.map((e) => `${e.type} ${e.key} ${e.rev}`)).toEqual(['ADDED /k/d 7', 'MODIFIED /k/b 9', 'DELETED /k/c 10']);
  });
});
