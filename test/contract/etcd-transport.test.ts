/**
 * The etcd adapter's own HTTP/2 transport for reads and writes, against the
 * shared etcd: endpoints that refuse or never answer, answers larger than a
 * flow-control window, and etcd's error statuses mapped to port errors.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import { openEtcdStorage } from '../../src/adapters/etcd';
import { EtcdKv } from '../../src/adapters/etcd/etcd-kv';
import { KeySpace } from '../../src/adapters/etcd/etcd-keys';
import { EtcdWatch } from '../../src/adapters/etcd/etcd-watch';
import { GrpcClient } from '../../src/adapters/etcd/grpc-client';
import { FutureRevisionError, StorageTimeoutError, UnavailableError, type StorageEvent, type WatchCallbacks } from '../../src/ports/storage.port';
import { freePort, testEtcdEndpoints } from '../support/etcd-harness';
import { buf, freshPrefix, sleep, until } from './contract-helpers';

/** Accepts TCP connections and never says a word (a peer that is gone without a reset). */
async function blackHole(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

/** A TCP proxy to the shared etcd that goes silent on command (a peer gone without a reset): its connections stay open. */
async function silencingProxy() {
  const target = new URL(testEtcdEndpoints()[0]);
  let silent = false;
  let connections = 0;
  let dropped = 0;
  const sockets = new Set<Socket>();
  const proxy = createServer((client) => {
    connections++;
    sockets.add(client);
    client.on('close', () => dropped++);
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(upstream);
    client.on('data', (d) => !silent && upstream.write(d));
    upstream.on('data', (d) => !silent && client.write(d));
    const end = () => (client.destroy(), upstream.destroy());
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(proxy.address() as { port: number }).port}`,
    connections: () => connections,
    /** Client connections closed (by the client: the proxy closes one only when etcd does). */
    dropped: () => dropped,
    silence: (on: boolean) => (silent = on),
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => proxy.close(() => r()));
    },
  };
}

/** Events of a watch, and a wait for the count to reach n. */
function collect() {
  const events: StorageEvent[] = [];
  const errors: Error[] = [];
  const callbacks: WatchCallbacks = { onEvents: (e) => events.push(...e), onError: (e) => errors.push(e) };
  const waitFor = (n: number, timeoutMs: number) => until(`${n} watch events`, () => events.length >= n, { timeoutMs, onTimeout: () => `have ${events.length}, errors: ${errors.join('; ')}` });
  return { events, errors, callbacks, until: waitFor };
}

describe('etcd transport', () => {
  it('moves on from an endpoint that refuses connections, within the same call', async () => {
    const refused = `http://127.0.0.1:${await freePort()}`;
    const storage = openEtcdStorage({ endpoints: [refused, ...testEtcdEndpoints()], requestTimeoutMs: 3000 });
    try {
      const p = freshPrefix();
      const rev = await storage.create(`${p}a`, buf('x'));
      expect((await storage.get(`${p}a`))?.modRevision).toBe(rev);
    } finally {
      await storage.close();
    }
  });

  it('reports an unreachable etcd as unavailable, promptly', async () => {
    const storage = openEtcdStorage({ endpoints: [`http://127.0.0.1:${await freePort()}`], requestTimeoutMs: 5000 });
    try {
      const started = Date.now();
      await expect(storage.get('/x')).rejects.toBeInstanceOf(UnavailableError);
      expect(Date.now() - started).toBeLessThan(4000);
      expect(await storage.ping(1000)).toBe(false);
    } finally {
      await storage.close();
    }
  });

  it('times a silent endpoint out, then drops it for the next endpoint once it fails a ping', async () => {
    const hole = await blackHole();
    const storage = openEtcdStorage({ endpoints: [hole.url, ...testEtcdEndpoints()], requestTimeoutMs: 300 });
    try {
      await expect(storage.get('/x')).rejects.toBeInstanceOf(StorageTimeoutError);
      await until('a call answered by the next endpoint', () => storage.get('/x').then(() => true, () => false), { timeoutMs: 15_000, intervalMs: 200 });
    } finally {
      await storage.close();
      await hole.close();
    }
  }, 20_000);

  it('answers every call to a stalled etcd with a timeout, however many time out one after another', async () => {
    const hole = await blackHole();
    const storage = openEtcdStorage({ endpoints: [hole.url], requestTimeoutMs: 300 });
    try {
      const calls: Promise<unknown>[] = [];
      for (let i = 0; i < 30; i++) {
        calls.push(storage.get(`/x${i}`).then(() => 'answered', (e: unknown) => e));
        await sleep(20);
      }
      const outcomes = await Promise.all(calls);
      expect(outcomes.filter((o) => !(o instanceof StorageTimeoutError))).toEqual([]);
    } finally {
      await storage.close();
      await hole.close();
    }
  }, 20_000);

  it('drops an idle session whose peer stopped answering, so the next call connects anew', async () => {
    const proxy = await silencingProxy();
    const url = proxy.url;
    const grpc = new GrpcClient([url], undefined, 200);
    const kv = new EtcdKv(grpc, 3000);
    try {
      const key = Buffer.from(freshPrefix());
      expect((await kv.range({ key, count_only: true })).revision).toBeGreaterThan(0);
      expect(proxy.connections()).toBe(1);
      proxy.silence(true);
      // Idle 200 ms, the ping goes unanswered for 2 s, the session is dropped.
      await until('the silent session to be dropped', () => proxy.dropped() >= 1, { timeoutMs: 5000 });
      proxy.silence(false);
      expect((await kv.range({ key, count_only: true })).revision).toBeGreaterThan(0);
      expect(proxy.connections()).toBe(2);
    } finally {
      grpc.close();
      await proxy.close();
    }
  }, 20_000);

  it('retires a session before its stream ids run out, without failing a call', async () => {
    const grpc = new GrpcClient(testEtcdEndpoints(), 3);
    const kv = new EtcdKv(grpc, 5000);
    try {
      const key = Buffer.from(freshPrefix());
      // Concurrent calls straddle the retirements: the ones in flight finish on the old session.
      const answers = await Promise.all(Array.from({ length: 20 }, () => kv.range({ key, count_only: true })));
      expect(answers.every((a) => a.revision > 0)).toBe(true);
      for (let i = 0; i < 10; i++) expect((await kv.range({ key, count_only: true })).revision).toBeGreaterThan(0);
    } finally {
      grpc.close();
    }
  });

  it('reads a range far larger than one flow-control window', async () => {
    const storage = openEtcdStorage({ endpoints: testEtcdEndpoints() });
    try {
      const p = freshPrefix();
      const value = Buffer.alloc(1024 * 1024, 'v');
      for (let i = 0; i < 20; i++) await storage.create(`${p}${String(i).padStart(2, '0')}`, value);
      const { items, count } = await storage.range(p);
      expect(count).toBe(20);
      expect(items.every((kv) => kv.value.equals(value))).toBe(true);
    } finally {
      await storage.close();
    }
  }, 30_000);

  it('maps an etcd error status to its port error (a read at a future revision)', async () => {
    const storage = openEtcdStorage({ endpoints: testEtcdEndpoints() });
    try {
      const current = await storage.currentRevision();
      const err = await storage.range('/', { revision: current + 1000 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(FutureRevisionError);
      expect((err as FutureRevisionError).message).not.toMatch(/OUT_OF_RANGE|etcdserver/);
    } finally {
      await storage.close();
    }
  });

  it('delivers a watch batch far larger than one flow-control window, in order', async () => {
    const storage = openEtcdStorage({ endpoints: testEtcdEndpoints() });
    const w = collect();
    try {
      const p = freshPrefix();
      const from = await storage.currentRevision();
      const value = Buffer.alloc(1024 * 1024, 'w');
      // Written before the watch starts, they come back as one catch-up response of about 20 MiB.
      for (let i = 0; i < 20; i++) await storage.create(`${p}${String(i).padStart(2, '0')}`, value);
      const watch = storage.watch(p, from, w.callbacks);
      await w.until(20, 15_000);
      watch.cancel();
      expect(w.errors).toEqual([]);
      expect(w.events.map((e) => e.key)).toEqual(Array.from({ length: 20 }, (_, i) => `${p}${String(i).padStart(2, '0')}`));
      expect(w.events.every((e) => e.value?.equals(value))).toBe(true);
    } finally {
      await storage.close();
    }
  }, 30_000);

  /** A watch on a fresh prefix through a silencing proxy, on a client that pings after 200 ms without a frame. */
  async function watchThroughProxy() {
    const proxy = await silencingProxy();
    const grpc = new GrpcClient([proxy.url], undefined, 200);
    const writer = openEtcdStorage({ endpoints: testEtcdEndpoints() });
    const w = collect();
    const p = freshPrefix();
    const watch = new EtcdWatch(grpc, new KeySpace('/registry'), p, await writer.currentRevision(), w.callbacks, () => undefined);
    const close = async () => {
      watch.cancel();
      grpc.close();
      await writer.close();
      await proxy.close();
    };
    return { proxy, writer, w, p, watch, close };
  }

  it('resumes a watch whose connection went silent on a new one, losing no event written meanwhile', async () => {
    const { proxy, writer, w, p, watch, close } = await watchThroughProxy();
    try {
      await writer.create(`${p}a`, buf('1'));
      await w.until(1, 5000);
      proxy.silence(true);
      await writer.create(`${p}b`, buf('2'));
      await writer.create(`${p}c`, buf('3'));
      // Idle 200 ms, the ping goes unanswered for 2 s, the session and its watch are dropped.
      await until('the silent session to be dropped', () => proxy.dropped() >= 1, { timeoutMs: 5000 });
      expect(w.events).toHaveLength(1); // nothing came through the silent connection
      proxy.silence(false);
      await w.until(3, 20_000);
      watch.cancel();
      expect(w.errors).toEqual([]);
      expect(w.events.map((e) => e.key)).toEqual([`${p}a`, `${p}b`, `${p}c`]);
      expect(proxy.connections()).toBeGreaterThanOrEqual(2);
    } finally {
      await close();
    }
  }, 40_000);

  it('keeps pinging a session with a watch open, idle period after idle period, and resumes the watch when a later ping goes unanswered', async () => {
    const { proxy, writer, w, p, watch, close } = await watchThroughProxy(); // pings 5 s apart at least once answered
    try {
      await writer.create(`${p}a`, buf('1'));
      await w.until(1, 5000);
      await sleep(1000); // a first idle ping, answered
      proxy.silence(true);
      await writer.create(`${p}b`, buf('2'));
      // The next ping, after the 5 s quiet period, goes unanswered for 2 s: the session is dropped.
      await until('the silent session to be dropped', () => proxy.dropped() >= 1, { timeoutMs: 12_000 });
      proxy.silence(false);
      await w.until(2, 20_000);
      watch.cancel();
      expect(w.errors).toEqual([]);
      expect(w.events.map((e) => e.key)).toEqual([`${p}a`, `${p}b`]);
      expect(proxy.connections()).toBeGreaterThanOrEqual(2);
    } finally {
      await close();
    }
  }, 40_000);
});
