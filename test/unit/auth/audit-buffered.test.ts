import { BufferedAuditBackend, type AuditCounters } from '../../../src/auth/audit/buffered';
import type { AuditSinkPort } from '../../../src/ports/audit.port';

/** A sink whose writes finish only when the test lets them (a writer that falls behind). */
function slowSink() {
  const sink = {
    lines: [] as string[],
    batches: 0,
    pending: [] as Array<() => void>,
    write(lines: string[]) {
      sink.batches++;
      return new Promise<void>((resolve) => sink.pending.push(() => (sink.lines.push(...lines), resolve())));
    },
    async close() {},
    /** Lets every pending write finish, and the writes they lead to, until none is left. */
    async drain() {
      for (;;) {
        await new Promise((r) => setImmediate(r));
        if (!sink.pending.length) return;
        for (const done of sink.pending.splice(0)) done();
      }
    },
  };
  return sink satisfies AuditSinkPort;
}

function counting() {
  const c = { events: 0, errors: 0 };
  const counters: AuditCounters = { event: () => c.events++, error: (_p, n) => (c.errors += n) };
  return { c, counters };
}

describe('buffered audit backend', () => {
  it('writes every event in order under load, in batches, encoding off the caller', async () => {
    const sink = slowSink();
    const { c, counters } = counting();
    const backend = new BufferedAuditBackend(sink, { bufferSize: 10_000, batchMaxSize: 400, whenFull: 'block' }, counters);
    let encoded = 0;
    for (let i = 0; i < 5000; i++) backend.process(() => (encoded++, `{"n":${i}}`));
    expect(encoded).toBe(0);
    await sink.drain();
    await backend.close();
    expect(sink.lines.map((l) => JSON.parse(l).n)).toEqual(Array.from({ length: 5000 }, (_, i) => i));
    expect(sink.batches).toBe(Math.ceil(5000 / 400));
    expect(c).toEqual({ events: 5000, errors: 0 });
  });

  it('policy drop: events that find the buffer full are dropped and counted', async () => {
    const sink = slowSink();
    const { c, counters } = counting();
    const backend = new BufferedAuditBackend(sink, { bufferSize: 10, batchMaxSize: 5, whenFull: 'drop' }, counters);
    for (let i = 0; i < 25; i++) backend.process(() => `${i}`);
    expect(backend.room()).toBeUndefined(); // dropping never holds requests back
    await sink.drain();
    await backend.close();
    expect(sink.lines).toEqual(Array.from({ length: 10 }, (_, i) => `${i}`));
    expect(c).toEqual({ events: 25, errors: 15 });
  });

  it('policy block: nothing is dropped; new requests wait for room until the writer catches up', async () => {
    const sink = slowSink();
    const { c, counters } = counting();
    const backend = new BufferedAuditBackend(sink, { bufferSize: 10, batchMaxSize: 5, whenFull: 'block' }, counters);
    for (let i = 0; i < 25; i++) backend.process(() => `${i}`); // admitted requests' events are always taken
    const wait = backend.room();
    expect(wait).toBeInstanceOf(Promise);
    let admitted = false;
    void wait!.then(() => (admitted = true));
    await new Promise((r) => setImmediate(r));
    expect(admitted).toBe(false);
    await sink.drain();
    expect(admitted).toBe(true);
    expect(backend.room()).toBeUndefined();
    await backend.close();
    expect(sink.lines).toHaveLength(25);
    expect(c).toEqual({ events: 25, errors: 0 });
  });

  it('close writes out everything buffered before the sink closes; later events are counted as errors', async () => {
    const lines: string[] = [];
    let closedWith = -1;
    const { c, counters } = counting();
    const backend = new BufferedAuditBackend({ write: async (l) => void lines.push(...l), close: async () => void (closedWith = lines.length) }, undefined, counters);
    for (let i = 0; i < 1000; i++) backend.process(() => `${i}`);
    await backend.close();
    expect(closedWith).toBe(1000);
    backend.process(() => 'late');
    expect(lines).toHaveLength(1000);
    expect(c).toEqual({ events: 1000, errors: 1 });
  });
});
