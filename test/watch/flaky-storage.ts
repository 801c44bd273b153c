/**
 * A StoragePort decorator that can cut the cache off from its storage
 * watches: while `dropping`, watch events and progress are swallowed (a
 * disconnected stream); `compactWatches()` then ends every watch with
 * CompactedError, as etcd does when history was compacted meanwhile.
 */
import {
  CompactedError,
  type PutOptions,
  type RangeOptions,
  type StoragePort,
  type WatchCallbacks,
  type WatchHandle,
} from '../../src/ports/storage.port';
import { openStorage, type Backend } from '../support/test-server';
import { startCacheServer, type CacheServer } from './harness';

interface Tap {
  callbacks: WatchCallbacks;
  inner: WatchHandle;
  dead: boolean;
}

export class FlakyStorage implements StoragePort {
  dropping = false;
  /** While set, watch events are held back (a slow stream) until release(). */
  holding = false;
  private held: Array<() => void> = [];
  private readonly taps = new Set<Tap>();

  constructor(readonly inner: StoragePort) {}

  currentRevision = () => this.inner.currentRevision();
  get = (key: string) => this.inner.get(key);
  range = (prefix: string, options?: RangeOptions) => this.inner.range(prefix, options);
  create = (key: string, value: Buffer, options?: PutOptions) => this.inner.create(key, value, options);
  update = (key: string, value: Buffer, rev: number, options?: PutOptions) => this.inner.update(key, value, rev, options);
  delete = (key: string, rev: number) => this.inner.delete(key, rev);
  compact = (rev: number) => this.inner.compact(rev);
  compactedRevision = () => this.inner.compactedRevision();
  ping = () => this.inner.ping();
  close = () => this.inner.close();

  watch(prefix: string, fromRevision: number, callbacks: WatchCallbacks): WatchHandle {
    const tap: Tap = { callbacks, inner: undefined as unknown as WatchHandle, dead: false };
    tap.inner = this.inner.watch(prefix, fromRevision, {
      onEvents: (events) => {
        if (this.dropping || tap.dead) return;
        if (this.holding) this.held.push(() => !tap.dead && callbacks.onEvents(events));
        else callbacks.onEvents(events);
      },
      onProgress: (rev) => !this.dropping && !tap.dead && callbacks.onProgress?.(rev),
      onError: (err) => !tap.dead && callbacks.onError(err),
    });
    this.taps.add(tap);
    return {
      cancel: () => {
        tap.dead = true;
        this.taps.delete(tap);
        tap.inner.cancel();
      },
      requestProgress: () => {
        if (!this.dropping) tap.inner.requestProgress?.();
      },
    };
  }

  release(): void {
    this.holding = false;
    for (const deliver of this.held.splice(0)) deliver();
  }

  compactWatches(): void {
    this.dropping = false;
    for (const tap of [...this.taps]) {
      tap.dead = true;
      this.taps.delete(tap);
      tap.inner.cancel();
      tap.callbacks.onError(new CompactedError(0, 0));
    }
  }
}

/** A cache server over a FlakyStorage on the given backend; close() tears all of it down. */
export async function startFlakyCacheServer(backend: Backend): Promise<{ server: CacheServer; flaky: FlakyStorage; close(): Promise<void> }> {
  const opened = openStorage(backend);
  const flaky = new FlakyStorage(opened.storage);
  const server = await startCacheServer(backend, { storage: flaky });
  return {
    server,
    flaky,
    async close() {
      await server.close();
      await flaky.close();
      opened.cleanup();
    },
  };
}
