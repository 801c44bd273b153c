/**
 * Watch over HTTP: headers flushed at once, then newline-delimited JSON
 * events as the cache produces them, with periodic bookmarks (when asked)
 * and a clean end at the deadline (timeoutSeconds, else a random time in
 * [min-request-timeout, 2x) as upstream, so reconnects spread out).
 *
 * Flow control: events are pulled from the watcher only while the socket
 * accepts them; a socket that does not drain within stallTimeoutMs is
 * closed, so a slow client never makes the server buffer more.
 */
import { channel } from 'node:diagnostics_channel';
import type { Request, Response } from 'express';
import type { ResourceDefinition } from '../../machinery/resource-definition';
import type { ListOptions } from '../../registry/request';
import type { EventWatcher } from '../../registry/watch-cache';
import type { ResponseFormat } from './media';
import type { WatchServer } from './watch';
import { bookmarkFrame, errorFrame, EventEncoder } from './watch-frames';
import { watchSink, type WatchSink } from './watch-sink';

/** Where watches come from (the registry). */
export interface WatchSource {
  watch(def: ResourceDefinition, opts: ListOptions): Promise<EventWatcher>;
}

export interface WatchStreamOptions {
  bookmarkIntervalMs: number;
  /** A last bookmark this long before the deadline. */
  bookmarkBeforeDeadlineMs: number;
  /** Watches without timeoutSeconds end after [this, 2x this) seconds. */
  minRequestTimeoutSeconds: number;
  /** Events are written in batches of about this size. */
  batchBytes: number;
  stallTimeoutMs: number;
}

/** apiserver_watch_events_total is fed through this channel (the metrics adapter subscribes). */
const watchEvents = channel('svc.watch.events');

/**
 * Events sent per kind, published once after the cache's dispatch to every watcher (a microtask later) rather than
 * once per watcher: the counts are the same, the metric's label hashing is not paid ten thousand times per event.
 */
const unpublished = new Map<ResourceDefinition, number>();

function countEvents(def: ResourceDefinition, events: number): void {
  if (!watchEvents.hasSubscribers) return;
  if (unpublished.size === 0) queueMicrotask(publishEvents);
  unpublished.set(def, (unpublished.get(def) ?? 0) + events);
}

function publishEvents(): void {
  for (const [def, count] of unpublished) watchEvents.publish({ group: def.group, version: def.version, kind: def.kind, count });
  unpublished.clear();
}

export const defaultWatchStreamOptions: WatchStreamOptions = {
  bookmarkIntervalMs: 60_000,
  bookmarkBeforeDeadlineMs: 2000,
  minRequestTimeoutSeconds: 1800,
  batchBytes: 64 * 1024,
  stallTimeoutMs: 30_000,
};

export class WatchStreamServer implements WatchServer {
  readonly options: WatchStreamOptions;
  private readonly streams = new Set<WatchStream>();

  constructor(
    private readonly source: WatchSource,
    options: Partial<WatchStreamOptions> = {},
  ) {
    this.options = { ...defaultWatchStreamOptions, ...options };
  }

  get activeCount(): number {
    return this.streams.size;
  }

  async serve(def: ResourceDefinition, req: Request, res: Response, opts: ListOptions, format: ResponseFormat): Promise<void> {
    const encoder = new EventEncoder(req, def, format);
    const watcher = await this.source.watch(def, opts);
    const stream = new WatchStream(def, res, watcher, encoder, opts, this.options);
    this.streams.add(stream);
    await stream.run();
    this.streams.delete(stream);
  }

  /** Ends every open watch (server shutdown). */
  closeAll(): void {
    for (const s of this.streams) s.finish();
  }
}

class WatchStream {
  private blocked = false;
  private ended = false;
  private readonly timers: NodeJS.Timeout[] = [];
  private stallTimer: NodeJS.Timeout | undefined;
  private sink!: WatchSink;
  /** The frames of one write, gathered by pump(); emptied by every write (one array per stream, not per wake). */
  private readonly out: Buffer[] = [];
  private done!: () => void;

  constructor(
    private readonly def: ResourceDefinition,
    private readonly res: Response,
    private readonly watcher: EventWatcher,
    private readonly encoder: EventEncoder,
    private readonly opts: ListOptions,
    private readonly config: WatchStreamOptions,
  ) {}

  run(): Promise<void> {
    const finished = new Promise<void>((resolve) => (this.done = resolve));
    const { res, config } = this;
    res.status(200);
    res.setHeader('Content-Type', 'application/json');
    res.setHeader('Cache-Control', 'no-cache, private');
    res.flushHeaders();
    res.socket?.setNoDelay(true);
    this.sink = watchSink(res);
    res.on('close', () => this.finish());
    const timeout = this.opts.timeoutSeconds && this.opts.timeoutSeconds > 0 ? this.opts.timeoutSeconds * 1000
      : (config.minRequestTimeoutSeconds * (1 + Math.random())) * 1000;
    this.timers.push(setTimeout(() => this.finish(), timeout));
    if (this.opts.allowWatchBookmarks) {
      this.timers.push(setInterval(() => this.bookmark(), config.bookmarkIntervalMs));
      const last = timeout - config.bookmarkBeforeDeadlineMs;
      this.timers.push(setTimeout(() => this.bookmark(), Math.max(0, last)));
    }
    this.watcher.onWake = () => this.pumpSafely();
    this.pumpSafely();
    return finished;
  }

  /** pump() runs inside the cache's event dispatch: a failure must end this stream, nothing else. */
  private pumpSafely(): void {
    try {
      this.pump();
    } catch (e) {
      console.log(JSON.stringify({ level: 'error', msg: 'watch stream failed', error: (e as Error)?.stack ?? String(e) }));
      this.finish(true);
    }
  }

  /** Writes whatever the watcher has, until it is caught up or the socket pushes back. */
  private pump(): void {
    if (this.ended || this.blocked) return;
    const out = this.out;
    let size = 0;
    let events = 0;
    for (;;) {
      const item = this.watcher.next();
      if (!item) break;
      let buf: Buffer;
      if (item.kind === 'event') {
        buf = this.encoder.encode(item);
        events++;
      }
      else if (item.kind === 'initial-events-end') buf = bookmarkFrame(this.def, item.rev, true);
      else {
        if (item.kind === 'error') out.push(errorFrame(item.status));
        this.write(out);
        return this.finish();
      }
      out.push(buf);
      size += buf.length;
      if (size >= this.config.batchBytes) {
        if (!this.write(out)) break;
        size = 0;
      }
    }
    this.write(out);
    if (events) countEvents(this.def, events);
  }

  /** One socket write for the batch; on backpressure wait for 'drain' (bounded by the stall timeout). */
  private write(out: Buffer[]): boolean {
    if (out.length === 0 || this.ended) {
      out.length = 0;
      return !this.ended;
    }
    const bytes = out.length === 1 ? out[0] : Buffer.concat(out);
    out.length = 0;
    const ok = this.sink.write(bytes);
    if (!ok) {
      this.blocked = true;
      this.stallTimer = setTimeout(() => this.finish(true), this.config.stallTimeoutMs);
      this.sink.onceDrained(() => {
        clearTimeout(this.stallTimer);
        this.blocked = false;
        this.pumpSafely();
      });
    }
    return ok;
  }

  private bookmark(): void {
    if (this.ended || this.blocked) return;
    this.pumpSafely();
    const rev = this.watcher.bookmarkRevision();
    if (rev !== undefined && !this.blocked) this.write([bookmarkFrame(this.def, rev)]);
  }

  finish(abort = false): void {
    if (this.ended) return;
    this.ended = true;
    for (const t of this.timers) clearTimeout(t);
    clearTimeout(this.stallTimer);
    this.watcher.onWake = undefined;
    this.watcher.close();
    if (abort) this.res.destroy();
    else if (!this.res.writableEnded) this.res.end();
    this.done();
  }
}
