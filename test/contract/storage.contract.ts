/**
 * The storage contract every StoragePort adapter keeps (see DESIGN.md,
 * "Storage contract"). Each test writes under its own random prefix.
 */
import {
  CompactedError,
  FutureRevisionError,
  KeyExistsError,
  KeyNotFoundError,
  RevisionMismatchError,
  type StoragePort,
} from '../../src/ports/storage.port';
import { WatchRecorder, buf, freshPrefix, until } from './contract-helpers';

export interface StorageUnderTest {
  storage: StoragePort;
  cleanup(): Promise<void>;
  /** Closes the store and opens it again on the same data (durable backends). */
  restart?(): Promise<StoragePort>;
}

export function describeStorageContract(name: string, makeStorage: () => Promise<StorageUnderTest>): void {
  describe(`storage contract: ${name}`, () => {
    let sut: StorageUnderTest;
    let s: StoragePort;
    let p: string;

    beforeEach(async () => {
      sut = await makeStorage();
      s = sut.storage;
      p = freshPrefix();
    });
    afterEach(async () => {
      await sut.cleanup();
    });

    it('creates, gets, and rejects a duplicate create', async () => {
      const rev = await s.create(`${p}a`, buf('one'));
      expect(await s.get(`${p}a`)).toEqual({ key: `${p}a`, value: buf('one'), createRevision: rev, modRevision: rev });
      await expect(s.create(`${p}a`, buf('two'))).rejects.toBeInstanceOf(KeyExistsError);
      expect((await s.get(`${p}a`))?.value.toString()).toBe('one');
      expect(await s.get(`${p}missing`)).toBeUndefined();
    });

    it('updates by compare-and-swap on modRevision', async () => {
      const r1 = await s.create(`${p}a`, buf('v1'));
      const r2 = await s.update(`${p}a`, buf('v2'), r1);
      expect(r2).toBeGreaterThan(r1);
      const stale = await s.update(`${p}a`, buf('v3'), r1).catch((e) => e);
      expect(stale).toBeInstanceOf(RevisionMismatchError);
      expect(stale.current).toEqual({ key: `${p}a`, value: buf('v2'), createRevision: r1, modRevision: r2 });
      await expect(s.update(`${p}missing`, buf('x'), r1)).rejects.toBeInstanceOf(KeyNotFoundError);
      await expect(s.update(`${p}missing`, buf('x'), 0)).rejects.toBeInstanceOf(KeyNotFoundError);
      expect(await s.get(`${p}missing`)).toBeUndefined();
    });

    it('stores, returns and watches values of a megabyte intact', async () => {
      const big = (fill: string) => Buffer.alloc(1024 * 1024, fill);
      const w = new WatchRecorder();
      const handle = s.watch(p, await s.currentRevision(), w.callbacks);
      try {
        const r1 = await s.create(`${p}big`, big('a'));
        const r2 = await s.update(`${p}big`, big('b'), r1);
        expect((await s.get(`${p}big`))?.value.equals(big('b'))).toBe(true);
        const stale = await s.update(`${p}big`, big('c'), r1).catch((e) => e);
        expect(stale).toBeInstanceOf(RevisionMismatchError);
        expect(stale.current.value.equals(big('b'))).toBe(true);
        await w.waitForEvents(2);
        expect(w.events.map((e) => e.modRevision)).toEqual([r1, r2]);
        expect(w.events[1].value?.equals(big('b'))).toBe(true);
      } finally {
        handle.cancel();
      }
    });

    it('deletes by compare-and-swap on modRevision', async () => {
      const r1 = await s.create(`${p}a`, buf('v1'));
      const r2 = await s.update(`${p}a`, buf('v2'), r1);
      const stale = await s.delete(`${p}a`, r1).catch((e) => e);
      expect(stale).toBeInstanceOf(RevisionMismatchError);
      expect(stale.current.value).toEqual(buf('v2'));
      const r3 = await s.delete(`${p}a`, r2);
      expect(r3).toBeGreaterThan(r2);
      expect(await s.get(`${p}a`)).toBeUndefined();
      await expect(s.delete(`${p}a`, r2)).rejects.toBeInstanceOf(KeyNotFoundError);
      // Re-creating starts a new incarnation.
      const r4 = await s.create(`${p}a`, buf('again'));
      expect((await s.get(`${p}a`))?.createRevision).toBe(r4);
    });

    it('lets exactly one of many conflicting writers win', async () => {
      const r1 = await s.create(`${p}a`, buf('v0'));
      const updates = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => s.update(`${p}a`, buf(`u${i}`), r1)));
      expect(updates.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of updates) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(RevisionMismatchError);
      const creates = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => s.create(`${p}b`, buf(`c${i}`))));
      expect(creates.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of creates) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(KeyExistsError);
    });

    it('gives every write a new, strictly increasing revision across keys', async () => {
      const sequential: number[] = [];
      for (let i = 0; i < 5; i++) sequential.push(await s.create(`${p}seq${i}`, buf('x')));
      for (let i = 1; i < sequential.length; i++) expect(sequential[i]).toBeGreaterThan(sequential[i - 1]);
      const parallel = await Promise.all(Array.from({ length: 50 }, (_, i) => s.create(`${p}par${i}`, buf('x'))));
      expect(new Set(parallel).size).toBe(50);
      expect(Math.min(...parallel)).toBeGreaterThan(sequential[4]);
      expect(await s.currentRevision()).toBeGreaterThanOrEqual(Math.max(...parallel));
    });

    it('ranges with limit, startKey, more and count', async () => {
      for (const k of ['a', 'b', 'c', 'd', 'e']) await s.create(`${p}${k}`, buf(k));
      await s.create(`${p.slice(0, -1)}x/other`, buf('sibling prefix')); // /contract-…x/ is not under p
      const keys = (r: { items: { key: string }[] }) => r.items.map((i) => i.key.slice(p.length));

      const all = await s.range(p);
      expect([keys(all), all.more, all.count]).toEqual([['a', 'b', 'c', 'd', 'e'], false, 5]);
      expect(all.revision).toBe(await s.currentRevision());
      const first = await s.range(p, { limit: 2 });
      expect([keys(first), first.more, first.count]).toEqual([['a', 'b'], true, 5]);
      const middle = await s.range(p, { limit: 2, startKey: `${p}c` });
      expect([keys(middle), middle.more, middle.count]).toEqual([['c', 'd'], true, 3]);
      const last = await s.range(p, { limit: 2, startKey: `${p}d` });
      expect([keys(last), last.more, last.count]).toEqual([['d', 'e'], false, 2]);
      const empty = await s.range(`${p}zzz/`);
      expect([empty.items, empty.more, empty.count]).toEqual([[], false, 0]);
      await expect(s.range(p, { revision: (await s.currentRevision()) + 1000 })).rejects.toBeInstanceOf(FutureRevisionError);
    });

    it('pages consistently at a fixed revision while writes continue', async () => {
      const revs: Record<string, number> = {};
      for (let i = 0; i < 10; i++) revs[`k${i}`] = await s.create(`${p}k${i}`, buf(`v${i}`));
      const at = await s.currentRevision();
      const original = Array.from({ length: 10 }, (_, i) => `k${i}=v${i}@${revs[`k${i}`]}`);
      const seen: string[] = [];
      let page = await s.range(p, { limit: 3, revision: at });
      const churn = async (round: number) => {
        // Touch keys before, inside and after the current page; add keys that sort between pages.
        await s.update(`${p}k${round}`, buf('changed'), revs[`k${round}`]).then((r) => (revs[`k${round}`] = r));
        await s.delete(`${p}k${9 - round}`, revs[`k${9 - round}`]);
        await s.create(`${p}k${round}5`, buf('new'));
      };
      for (let round = 0; ; round++) {
        expect(page.revision).toBe(at);
        expect(page.count).toBe(10 - seen.length);
        for (const kv of page.items) seen.push(`${kv.key.slice(p.length)}=${kv.value}@${kv.modRevision}`);
        if (!page.more) break;
        await churn(round);
        page = await s.range(p, { limit: 3, revision: at, startKey: `${page.items[page.items.length - 1].key}\0` });
      }
      expect(seen).toEqual(original);
      const latest = await s.range(p);
      expect(latest.items.map((i) => i.key.slice(p.length))).toEqual(['k0', 'k05', 'k1', 'k15', 'k2', 'k25', 'k3', 'k4', 'k5', 'k6']);
    });

    it('fails reads below the compacted revision', async () => {
      const r1 = await s.create(`${p}a`, buf('v1'));
      const r2 = await s.update(`${p}a`, buf('v2'), r1);
      const r3 = await s.update(`${p}a`, buf('v3'), r2);
      await s.compact(r3);
      expect(await s.compactedRevision()).toBe(r3);
      const err = await s.range(p, { revision: r1 }).catch((e) => e);
      expect(err).toBeInstanceOf(CompactedError);
      expect(err.compactedRevision).toBe(r3);
      expect((await s.range(p, { revision: r3 })).items[0].value).toEqual(buf('v3'));
      await s.compact(r2); // older than the mark: no-op
      expect(await s.compactedRevision()).toBe(r3);
    });

    it('reads at the compaction mark see values written before it and replaced or deleted after it', async () => {
      const ra = await s.create(`${p}a`, buf('a1'));
      const rc = await s.create(`${p}c`, buf('c1'));
      const rb = await s.create(`${p}b`, buf('b1'));
      const rb2 = await s.update(`${p}b`, buf('b2'), rb);
      await s.compact(rb2);
      const ra2 = await s.update(`${p}a`, buf('a2'), ra);
      await s.delete(`${p}c`, rc);
      const at = (r: { items: { key: string; value: Buffer; modRevision: number }[] }) => r.items.map((i) => `${i.key.slice(p.length)}=${i.value}@${i.modRevision}`);
      expect(at(await s.range(p, { revision: rb2 }))).toEqual([`a=a1@${ra}`, `b=b2@${rb2}`, `c=c1@${rc}`]);
      expect(at(await s.range(p, { revision: ra2 }))).toEqual([`a=a2@${ra2}`, `b=b2@${rb2}`, `c=c1@${rc}`]);
      expect(at(await s.range(p))).toEqual([`a=a2@${ra2}`, `b=b2@${rb2}`]);
      // Past the later writes: the replaced and deleted values are gone, what is current still reads.
      const now = await s.currentRevision();
      await s.compact(now);
      await expect(s.range(p, { revision: rb2 })).rejects.toBeInstanceOf(CompactedError);
      expect(at(await s.range(p, { revision: now }))).toEqual([`a=a2@${ra2}`, `b=b2@${rb2}`]);
    });

    it('watches create, update and delete in order with previous values', async () => {
      const from = await s.currentRevision();
      const w = new WatchRecorder();
      const handle = s.watch(p, from, w.callbacks);
      try {
        const r1 = await s.create(`${p}a`, buf('a1'));
        const r2 = await s.update(`${p}a`, buf('a2'), r1);
        const r3 = await s.create(`${p}b`, buf('b1'));
        const r4 = await s.delete(`${p}a`, r2);
        await w.waitForEvents(4);
        expect(w.summary(p)).toEqual(['put a a1', 'put a a2', 'put b b1', 'delete a -']);
        expect(w.events.map((e) => e.modRevision)).toEqual([r1, r2, r3, r4]);
        // No previous values: the cache holds them, and etcd would send each updated value twice.
        expect(w.events.map((e) => Object.keys(e).sort())).toEqual([...Array(3).fill(['key', 'modRevision', 'type', 'value']), ['key', 'modRevision', 'type']]);
        await until('progress after the writes', () => w.progress.some((rev) => rev >= r4), { timeoutMs: 4000 });
      } finally {
        handle.cancel();
      }
    });

    it('replays history when watching from an old revision, then continues live', async () => {
      const r0 = await s.currentRevision();
      const r1 = await s.create(`${p}a`, buf('a1'));
      const r2 = await s.update(`${p}a`, buf('a2'), r1);
      const r3 = await s.create(`${p}b`, buf('b1'));
      const all = new WatchRecorder();
      const tail = new WatchRecorder();
      const h1 = s.watch(p, r0, all.callbacks);
      const h2 = s.watch(p, r2, tail.callbacks);
      try {
        await all.waitForEvents(3);
        await tail.waitForEvents(1);
        const r4 = await s.delete(`${p}b`, r3);
        await all.waitForEvents(4);
        await tail.waitForEvents(2);
        expect(all.events.map((e) => e.modRevision)).toEqual([r1, r2, r3, r4]);
        expect(tail.summary(p)).toEqual(['put b b1', 'delete b -']);
        // No duplicates trickle in afterwards: a barrier both watches must deliver next, with nothing before it.
        const r5 = await s.create(`${p}sentinel`, buf('s'));
        expect((await all.through(r5)).map((e) => e.modRevision)).toEqual([r1, r2, r3, r4, r5]);
        expect((await tail.through(r5)).map((e) => e.modRevision)).toEqual([r3, r4, r5]);
      } finally {
        h1.cancel();
        h2.cancel();
      }
    });

    it('replays a long history in order and joins live writes racing with the replay', async () => {
      const r0 = await s.currentRevision();
      const early = await Promise.all(Array.from({ length: 1200 }, (_, i) => s.create(`${p}e${i}`, buf('x'))));
      const w = new WatchRecorder();
      const handle = s.watch(p, r0, w.callbacks);
      try {
        const late = await Promise.all(Array.from({ length: 200 }, (_, i) => s.create(`${p}l${i}`, buf('y'))));
        const expected = [...early, ...late].sort((a, b) => a - b);
        await w.waitForEvents(expected.length, 15_000);
        // Nothing more, no duplicate: a barrier the watch must deliver next, with nothing but the expected before it.
        const sentinel = await s.create(`${p}sentinel`, buf('s'));
        expect((await w.through(sentinel)).map((e) => e.modRevision)).toEqual([...expected, sentinel]);
      } finally {
        handle.cancel();
      }
    });

    it('fails a watch that starts below the compacted revision', async () => {
      const r1 = await s.create(`${p}a`, buf('v1'));
      const r2 = await s.update(`${p}a`, buf('v2'), r1);
      const r3 = await s.update(`${p}a`, buf('v3'), r2);
      await s.compact(r3);
      const w = new WatchRecorder();
      const handle = s.watch(p, r1, w.callbacks);
      const err = await w.waitForError();
      handle.cancel();
      expect(err).toBeInstanceOf(CompactedError);
      expect(w.events).toEqual([]);
      // Starting right at the mark still works: every event after r3-1 is kept.
      const ok = new WatchRecorder();
      const h2 = s.watch(p, r3 - 1, ok.callbacks);
      await ok.waitForEvents(1);
      h2.cancel();
      // The previous value (r2) lies below the mark: etcd cannot attach it, lmdb may.
      expect(ok.summary(p)[0]).toBe('put a v3');
    });

    it('delivers no events for other prefixes (/a/ does not match /ab/)', async () => {
      const from = await s.currentRevision();
      const w = new WatchRecorder();
      const handle = s.watch(`${p}a/`, from, w.callbacks);
      try {
        await s.create(`${p}ab/x`, buf('no'));
        await s.create(`${p}a`, buf('no'));
        await s.create(`${p}b/x`, buf('no'));
        const rev = await s.create(`${p}a/x`, buf('yes'));
        await s.create(`${p}a0`, buf('no'));
        await w.waitForEvents(1);
        await until('progress past the last write', () => w.progress.some((r) => r >= rev), { timeoutMs: 4000 });
        expect(w.summary(`${p}a/`)).toEqual(['put x yes']);
        expect((await s.range(`${p}a/`)).items.map((i) => i.key)).toEqual([`${p}a/x`]);
      } finally {
        handle.cancel();
      }
    });

    it('expires a key written with a ttl as a delete event, and only that key', async () => {
      const w = new WatchRecorder();
      const handle = s.watch(p, await s.currentRevision(), w.callbacks);
      try {
        await s.create(`${p}kept`, buf('k'));
        const r1 = await s.create(`${p}short`, buf('s1'), { ttlSeconds: 1 });
        const r2 = await s.update(`${p}short`, buf('s2'), r1, { ttlSeconds: 1 }); // renewed, still expiring
        await until('the expiry of short', () => w.events.some((e) => e.type === 'delete'), { timeoutMs: 15_000 });
        expect(w.summary(p)).toEqual(['put kept k', 'put short s1', 'put short s2', 'delete short -']);
        const deleted = w.events[3];
        expect(deleted.modRevision).toBeGreaterThan(r2);
        expect(await s.get(`${p}short`)).toBeUndefined();
        expect((await s.get(`${p}kept`))?.value).toEqual(buf('k'));
        expect((await s.range(p)).items.map((i) => i.key)).toEqual([`${p}kept`]);
      } finally {
        handle.cancel();
      }
    });

    it('keeps a key whose later write has no ttl, and a new incarnation written without one', async () => {
      const ra = await s.create(`${p}a`, buf('a1'), { ttlSeconds: 1 });
      await s.update(`${p}a`, buf('a2'), ra); // a put without a ttl makes the key permanent, as etcd's put without a lease
      const rb = await s.create(`${p}b`, buf('b1'), { ttlSeconds: 1 });
      await s.delete(`${p}b`, rb);
      await s.create(`${p}b`, buf('b2'));
      // Written last, so it expires no earlier than a or b would have.
      await s.create(`${p}marker`, buf('m'), { ttlSeconds: 1 });
      await until('the marker to expire', async () => (await s.get(`${p}marker`)) === undefined, { timeoutMs: 15_000, intervalMs: 100 });
      expect(await s.get(`${p}marker`)).toBeUndefined();
      expect((await s.get(`${p}a`))?.value).toEqual(buf('a2'));
      expect((await s.get(`${p}b`))?.value).toEqual(buf('b2'));
    });

    it('survives a restart with objects, revisions and history intact', async () => {
      if (!sut.restart) return; // only durable backends provide restart()
      const r0 = await s.currentRevision();
      const r1 = await s.create(`${p}a`, buf('a1'));
      const r2 = await s.update(`${p}a`, buf('a2'), r1);
      await s.create(`${p}b`, buf('b1'));
      const before = await s.currentRevision();
      s = await sut.restart();
      expect(await s.currentRevision()).toBe(before);
      expect(await s.get(`${p}a`)).toEqual({ key: `${p}a`, value: buf('a2'), createRevision: r1, modRevision: r2 });
      expect((await s.range(p, { revision: r1 })).items.map((i) => i.value.toString())).toEqual(['a1']);
      const r4 = await s.create(`${p}c`, buf('c1'));
      expect(r4).toBeGreaterThan(before);
      const w = new WatchRecorder();
      const handle = s.watch(p, r0, w.callbacks);
      await w.waitForEvents(4);
      handle.cancel();
      expect(w.summary(p)).toEqual(['put a a1', 'put a a2', 'put b b1', 'put c c1']);
    });
  });
}
