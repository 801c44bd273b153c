/**
 * One resilient etcd watch on its own raw gRPC stream.
 *
 * The etcd3 library's managed watchers resume from the last response's
 * header revision, which can skip events still pending in a catch-up batch,
 * and they hide compact_revision. So this class owns the stream: it tracks
 * the mod_revision of the last delivered event and, whenever the stream
 * fails or ends, opens a new one from lastDelivered+1 (bounded exponential
 * backoff, forever until cancel()). A watch cancelled by compaction ends
 * with CompactedError; nothing is retried after that.
 */
import type { Etcd3, IDuplexStream, IWatchRequest, IWatchResponse } from 'etcd3';
import {
  CompactedError,
  StorageError,
  type StorageEvent,
  type WatchCallbacks,
  type WatchHandle,
} from '../../ports/storage.port';
import type { KeySpace } from './etcd-keys';

type WatchStream = IDuplexStream<IWatchRequest, IWatchResponse>;

const BACKOFF_START_MS = 100;
const BACKOFF_MAX_MS = 2000;

export class EtcdWatch implements WatchHandle {
  private lastRevision: number;
  private stream: WatchStream | undefined;
  /** Bumped on every (re)connect; callbacks of older streams are ignored. */
  private generation = 0;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly client: Etcd3,
    private readonly keys: KeySpace,
    private readonly prefix: string,
    fromRevision: number,
    private readonly callbacks: WatchCallbacks,
    private readonly onStop: (watch: EtcdWatch) => void,
  ) {
    this.lastRevision = fromRevision;
    void this.connect();
  }

  cancel(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.generation++;
    clearTimeout(this.retryTimer);
    closeStream(this.stream);
    this.stream = undefined;
    this.onStop(this);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const gen = ++this.generation;
    let stream: WatchStream;
    try {
      stream = await this.client.watchClient.watch();
    } catch {
      return this.reconnectLater(gen); // e.g. no connection yet
    }
    if (gen !== this.generation) return closeStream(stream);
    this.stream = stream;
    stream.on('data', (res) => gen === this.generation && this.onResponseSafely(res));
    stream.on('error', () => this.reconnectLater(gen));
    stream.on('end', () => this.reconnectLater(gen));
    const { key, rangeEnd } = this.keys.range(this.prefix);
    stream.write({
      create_request: {
        key,
        range_end: rangeEnd,
        start_revision: this.lastRevision + 1,
        prev_kv: true,
        progress_notify: true,
      },
    });
  }

  private reconnectLater(gen: number): void {
    if (this.stopped || gen !== this.generation) return;
    this.generation++;
    closeStream(this.stream);
    this.stream = undefined;
    const base = Math.min(BACKOFF_MAX_MS, BACKOFF_START_MS * 2 ** this.attempt++);
    this.retryTimer = setTimeout(() => void this.connect(), base / 2 + Math.random() * (base / 2));
  }

  /** A throw inside a stream listener would escape into grpc-js; end this watch instead. */
  private onResponseSafely(res: IWatchResponse): void {
    try {
      this.onResponse(res);
    } catch (err) {
      this.fail(err instanceof Error ? err : new Error(String(err)));
    }
  }

  private onResponse(res: IWatchResponse): void {
    if (res.canceled) return this.onCanceled(res);
    const headerRevision = Number(res.header.revision);
    if (res.created) {
      this.attempt = 0;
      // Nothing pending when the store is exactly where we are: report we're caught up.
      if (headerRevision === this.lastRevision) this.progress(this.lastRevision);
      return;
    }
    if (res.events.length === 0) {
      // etcd sends progress notifications only to synced watchers: all up to header.revision is delivered.
      // (etcd < 3.6.2 may report a revision below a future start revision; that says nothing new.)
      if (headerRevision < this.lastRevision) return;
      this.lastRevision = headerRevision;
      return this.progress(this.lastRevision);
    }
    const events: StorageEvent[] = [];
    for (const ev of res.events) {
      const event = this.keys.toEvent(ev);
      if (event.modRevision > this.lastRevision) events.push(event);
    }
    if (events.length === 0) return;
    this.lastRevision = events[events.length - 1].modRevision;
    this.callbacks.onEvents(events);
  }

  private onCanceled(res: IWatchResponse): void {
    const compactRevision = Number(res.compact_revision ?? 0);
    if (compactRevision > 0) return this.fail(new CompactedError(this.lastRevision + 1, compactRevision));
    if (res.cancel_reason) return this.fail(new StorageError(`etcd cancelled the watch: ${res.cancel_reason}`));
    this.reconnectLater(this.generation); // cancelled without a reason: start over
  }

  private progress(revision: number): void {
    try {
      this.callbacks.onProgress?.(revision);
    } catch (err) {
      this.fail(err instanceof Error ? err : new Error(String(err)));
    }
  }

  private fail(error: Error): void {
    if (this.stopped) return;
    this.cancel();
    this.callbacks.onError(error);
  }
}

/**
 * Half-close before cancelling: the library's own 'error' listener marks the
 * host failed (resetting every client) for errors on a still-writable stream,
 * and a deliberate cancel is no host failure.
 */
function closeStream(stream: WatchStream | undefined): void {
  if (!stream) return;
  try {
    stream.end();
    stream.cancel();
  } catch {
    // already closed
  }
}
