/** The heap trimmer: one full collection in the first quiet period after many body bytes, none while bodies keep coming. */
import { fullCollection, HeapTrimmer } from '../../../src/adapters/runtime/heap-trim';

function trimmer() {
  const timers: Array<() => void> = [];
  let collections = 0;
  const t = new HeapTrimmer({ afterBytes: 100, quietMs: 1000, settleMs: 2000, quietBytes: 10, quietRequests: 3, collect: () => collections++, schedule: (fn) => timers.push(fn) });
  const fire = () => timers.shift()!();
  return { t, timers, fire, collections: () => collections };
}

describe('HeapTrimmer', () => {
  test('below the threshold nothing is scheduled', () => {
    const { t, timers } = trimmer();
    t.noteRequest(60);
    t.noteRequest(39);
    expect(timers).toHaveLength(0);
  });

  test('past the threshold, a quiet period collects once and starts counting again', () => {
    const { t, timers, fire, collections } = trimmer();
    t.noteRequest(60);
    t.noteRequest(60);
    t.noteRequest(5); // next to nothing during the quiet period; armed already: still one timer
    expect(timers).toHaveLength(1);
    fire();
    expect(collections()).toBe(1);
    expect(timers).toHaveLength(1); // the settling collection's
    t.noteRequest(50);
    expect(timers).toHaveLength(1);
  });

  test('while bodies keep coming it waits for a quiet period', () => {
    const { t, timers, fire, collections } = trimmer();
    t.noteRequest(150);
    t.noteRequest(50); // busy during the first period
    fire();
    expect(collections()).toBe(0);
    expect(timers).toHaveLength(1);
    fire(); // nothing came during the second
    expect(collections()).toBe(1);
  });
});

test('many requests without bodies are not a quiet period either', () => {
  const { t, timers, fire, collections } = trimmer();
  t.noteRequest(150);
  for (let i = 0; i < 4; i++) t.noteRequest(0); // GETs, watches: busy, though no bytes came in
  fire();
  expect(collections()).toBe(0);
  expect(timers).toHaveLength(1);
  t.noteRequest(0);
  fire();
  expect(collections()).toBe(1);
});

describe('the settling collection (V8 shrinks its young generation only once the allocation rate is low)', () => {
  test('follows the trim when the process stays quiet, and only once', () => {
    const { t, timers, fire, collections } = trimmer();
    t.noteRequest(150);
    fire();
    expect(collections()).toBe(1);
    t.noteRequest(15); // two quiet periods' worth: up to 20 bytes and 6 requests
    for (let i = 0; i < 5; i++) t.noteRequest(0);
    fire();
    expect(collections()).toBe(2);
    expect(timers).toHaveLength(0);
  });

  test('does not run when requests kept coming after the trim', () => {
    const { t, timers, fire, collections } = trimmer();
    t.noteRequest(150);
    fire();
    for (let i = 0; i < 7; i++) t.noteRequest(0);
    fire();
    expect(collections()).toBe(1);
    expect(timers).toHaveLength(0);
  });

  test('leaves it to the next trim when a new burst has armed one', () => {
    const { t, timers, fire, collections } = trimmer();
    t.noteRequest(150);
    fire();
    t.noteRequest(150); // armed again: its timer comes after the settling one
    expect(timers).toHaveLength(2);
    fire();
    expect(collections()).toBe(1);
    fire(); // the new trim, in a quiet period
    expect(collections()).toBe(2);
    expect(timers).toHaveLength(1); // and its own settling collection
  });
});

describe('fullCollection', () => {
  test('is a working collection without --expose-gc, and exposes nothing globally', () => {
    const gc = fullCollection();
    expect(typeof gc).toBe('function');
    expect(() => gc()).not.toThrow();
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});
