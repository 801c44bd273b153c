/**
 * One resilient etcd watch on its own gRPC stream (GrpcClient's session).
 *
 * A watch resumed from the last response's header revision can skip events
 * still pending in a catch-up batch, and compaction must be seen as
 * compact_revision. So this class owns the stream: it tracks
 * the mod_revision of the last delivered event and, whenever the stream
 * fails or ends, opens a new one from lastDelivered+1 (bounded exponential
 * backoff, forever until cancel()). A watch cancelled by compaction ends
 * with CompactedError; nothing is retried after that.
 */
import {
  CompactedError,
  StorageError,
  type StorageEvent,
  type WatchCallbacks,
  type WatchHandle,
} from '../../ports/storage.port';
import type { KeySpace } from './etcd-keys';
import { watchMessages } from './etcd-kv';
import { decodeWatchResponse, type WatchResponse } from './response-decoding';
import type { GrpcClient, GrpcStream } from './grpc-client';

const BACKOFF_START_MS = 100;
const BACKOFF_MAX_MS = 2000;

export class EtcdWatch implements WatchHandle {
  private lastRevision: number;
  private stream: GrpcStream | undefined;
  /** Bumped on every (re)connect; callbacks of older streams are ignored. */
  private generation = 0;
  private attempt = 0;
  /** etcd said `created` on the current stream: before that, an answer without events says nothing of this watch. */
  private created = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly grpc: GrpcClient,
    private readonly keys: KeySpace,
    private readonly prefix: string,
    fromRevision: number,
    private readonly callbacks: WatchCallbacks,
    private readonly onStop: (watch: EtcdWatch) => void,
    /** Whether etcd's answers to progress requests can be trusted (see progress-support.ts). */
    private readonly progressRequests: () => boolean = () => false,
  ) {
    this.lastRevision = fromRevision;
    this.connect();
  }

  cancel(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.generation++;
    clearTimeout(this.retryTimer);
    this.stream?.cancel();
    this.stream = undefined;
    this.onStop(this);
  }

  /**
   * Asks etcd to report this watch's progress now, where its answer is sound: on one watcher's stream it says that
   * every event up to its revision was sent. Elsewhere the periodic notifications have to do.
   */
  requestProgress(): void {
    // Not before `created`: etcd sends its answer (watch_id -1) past the events it still holds for a watch it has not
    // yet reported created, and that answer would claim a revision whose events are still to come.
    if (!this.stream || !this.created || !this.progressRequests()) return;
    this.stream.write(watchMessages().request.encode({ progress_request: {} }).finish());
  }

  private connect(): void {
    if (this.stopped) return;
    const gen = ++this.generation;
    this.created = false;
    const t = watchMessages();
    try {
      this.stream = this.grpc.openStream('/etcdserverpb.Watch/Watch', {
        onMessage: (message) => gen === this.generation && this.onResponseSafely(message),
        onEnd: () => this.reconnectLater(gen),
      });
    } catch {
      return this.reconnectLater(gen); // e.g. the client is closed, or no session could start
    }
    const { key, rangeEnd } = this.keys.range(this.prefix);
    const request = { create_request: { key, range_end: rangeEnd, start_revision: this.lastRevision + 1, progress_notify: true } };
    this.stream.write(t.request.encode(request).finish());
  }

  private reconnectLater(gen: number): void {
    if (this.stopped || gen !== this.generation) return;
    this.generation++;
    this.stream?.cancel();
    this.stream = undefined;
    const base = Math.min(BACKOFF_MAX_MS, BACKOFF_START_MS * 2 ** this.attempt++);
    this.retryTimer = setTimeout(() => this.connect(), base / 2 + Math.random() * (base / 2));
  }

  /** A throw inside a stream listener would escape into the HTTP/2 session; end this watch instead. */
  private onResponseSafely(message: Buffer): void {
    try {
      this.onResponse(decodeWatchResponse(message));
    } catch (err) {
      this.fail(err instanceof Error ? err : new Error(String(err)));
    }
  }

  private onResponse(res: WatchResponse): void {
    if (res.canceled) return this.onCanceled(res);
    const headerRevision = res.revision;
    if (res.created) {
      this.created = true;
      this.attempt = 0;
      // Nothing pending when the store is exactly where we are: report we're caught up.
      if (headerRevision === this.lastRevision) this.progress(this.lastRevision);
      return;
    }
    const wireEvents = res.events;
    if (wireEvents.length === 0) {
      if (!this.created) return;
      // etcd sends progress notifications only to synced watchers: all up to header.revision is delivered.
      // (etcd < 3.6.2 may report a revision below a future start revision; that says nothing new.)
      if (headerRevision < this.lastRevision) return;
      this.lastRevision = headerRevision;
      return this.progress(this.lastRevision);
    }
    const events: StorageEvent[] = [];
    for (const ev of wireEvents) {
      const event = this.keys.toEvent(ev);
      if (event.modRevision > this.lastRevision) events.push(event);
    }
    if (events.length === 0) return;
    this.lastRevision = events[events.length - 1].modRevision;
    this.callbacks.onEvents(events);
  }

  private onCanceled(res: WatchResponse): void {
    const compactRevision = res.compactRevision;
    if (compactRevision > 0) return this.fail(new CompactedError(this.lastRevision + 1, compactRevision));
    if (res.cancelReason) return this.fail(new StorageError(`etcd cancelled the watch: ${res.cancelReason}`));
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
