/**
 * A client HTTP/2 connection (RFC 9113) over cleartext TCP, holding what gRPC needs from it: streams with header
 * blocks built once, DATA both ways under flow control, trailers, pings, GOAWAY and resets.
 *
 * node:http2 does all this too, but each `request()` there binds an AsyncResource whose two deprecation wrappers
 * change function prototypes, and builds a stream object with listeners and header maps: about a tenth of the
 * server's CPU per create went to it. Here a stream is a small object and a call's frames are written in one go.
 */
import * as net from 'node:net';
import * as tls from 'node:tls';
import { HpackDecoder, HpackError } from './hpack';
import { LengthPrefixedReader } from './length-prefixed';
import { describeSocketError } from './socket-errors';

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

const enum Frame {
  Data = 0x0,
  Headers = 0x1,
  Priority = 0x2,
  RstStream = 0x3,
  Settings = 0x4,
  PushPromise = 0x5,
  Ping = 0x6,
  Goaway = 0x7,
  WindowUpdate = 0x8,
  Continuation = 0x9,
}
const END_STREAM = 0x1;
const ACK = 0x1;
const END_HEADERS = 0x4;
const PADDED = 0x8;
const PRIORITY = 0x20;

/** Error codes this side sends or reads. */
export const H2Code = { NO_ERROR: 0, PROTOCOL_ERROR: 1, INTERNAL_ERROR: 2, FLOW_CONTROL_ERROR: 3, FRAME_SIZE_ERROR: 6, REFUSED_STREAM: 7, CANCEL: 8, COMPRESSION_ERROR: 9 } as const;

/** The largest frame payload either side may send until told otherwise, and all this side ever accepts. */
const DEFAULT_FRAME_SIZE = 16_384;
const DEFAULT_WINDOW = 65_535;
/** How long a PING answer may wait for other frames to leave with (see send). */
const PING_ACK_DELAY_MS = 5;
/** How long a PING answer is held before it may leave at all (see holdAck). */
const PING_ACK_HOLD_MS = 5;
/** The largest header block (with its CONTINUATIONs) this side reads. */
const MAX_HEADER_BLOCK = 256 * 1024;

/** How a stream ended other than by the peer's END_STREAM. */
export interface StreamFailure {
  message: string;
  /** The peer says it never acted on the stream (refused, or above a GOAWAY's last stream), or it never left. */
  unprocessed: boolean;
}

export interface StreamHandlers {
  /** A header block: the response headers, then (with `end`) the trailers; a trailers-only answer comes once, ended. */
  onHeaders(fields: Map<string, string>, end: boolean): void;
  /** `chunk` is valid during the call only: the connection reads into one buffer, again and again. */
  onData(chunk: Buffer): void;
  /** Once, last: the stream is over, after its END_STREAM (no failure) or without it. Not called after cancel(). */
  onClose(failure: StreamFailure | undefined): void;
}

export interface SessionOptions {
  /** This side's receive window for the connection and for each stream. */
  windowBytes: number;
  /** For an https: URL: options for tls.connect beyond the host and ALPN (a CA, say); the system's trust otherwise. */
  tls?: tls.ConnectionOptions;
  /** Called once when the session takes no more streams (lost, failed, closed or told to go away). */
  onGone(): void;
  /** Called once when the session is over: no streams left, the connection closed or closing. */
  onEnd?(): void;
}

export class H2Stream {
  /** DATA not yet sent for want of window, and whether END_STREAM follows it. */
  pending: Buffer[] = [];
  endPending = false;
  sendWindow = 0;
  id = 0;
  /** Received octets not yet given back by WINDOW_UPDATE. */
  unacked = 0;
  localEnded = false;
  remoteEnded = false;
  done = false;

  constructor(
    readonly session: H2Session,
    readonly headerBlock: Buffer,
    readonly handlers: StreamHandlers,
  ) {}

  /** Sends `data` (after whatever waits for window), then END_STREAM if `end`. */
  write(data: Buffer, end: boolean): void {
    if (this.done || this.localEnded) return;
    if (data.length) this.pending.push(data);
    if (end) {
      this.endPending = true;
      this.localEnded = true;
    }
    this.session.flushStream(this);
  }

  /** Ends the stream with RST_STREAM(CANCEL); its handlers hear nothing more. */
  cancel(): void {
    this.session.cancel(this);
  }
}

export class H2Session {
  private readonly socket: net.Socket;
  private readonly decoder = new HpackDecoder();
  private readonly streams = new Map<number, H2Stream>();
  /** Streams past the peer's concurrency limit, waiting for one to end. */
  private readonly queued: H2Stream[] = [];
  /** Streams with DATA held back by the connection's window. */
  private readonly blocked = new Set<H2Stream>();
  private nextId = 1;
  private connSendWindow = DEFAULT_WINDOW;
  private connUnacked = 0;
  private peerInitialWindow = DEFAULT_WINDOW;
  private peerFrameSize = DEFAULT_FRAME_SIZE;
  private peerMaxStreams = Infinity;
  /** Streams above this id were not acted on (from a GOAWAY). */
  private goawayLast = Infinity;
  private readonly pings = new Map<bigint, (err?: Error) => void>();
  private pingSeq = 0n;
  /** Frames as they arrive: a 9-byte header whose first 3 bytes are the payload's length. */
  private readonly frames = new LengthPrefixedReader(9, (bytes, at) => {
    const length = bytes.readUIntBE(at, 3);
    return length > DEFAULT_FRAME_SIZE ? `etcd sent a frame of ${length} bytes, above the ${DEFAULT_FRAME_SIZE} allowed` : length;
  });
  /** A header block still waiting for CONTINUATION frames. */
  private block: { id: number; end: boolean; parts: Buffer[]; bytes: number } | undefined;
  private corked = false;
  private readonly heldAcks: Buffer[] = [];
  private ackTimer: NodeJS.Timeout | undefined;
  /** A flush is due: in this turn's check phase, or (for PING answers alone) by a short timer. */
  private flushNow = false;
  private flushTimer: NodeJS.Timeout | undefined;
  private gone = false;
  private draining = false;
  private heardFrom = false;
  connected = false;
  destroyed = false;

  constructor(
    readonly url: string,
    private readonly options: SessionOptions,
  ) {
    const { protocol, hostname, port } = new URL(url);
    const host = hostname.replace(/^\[|\]$/g, '');
    if (protocol === 'https:') {
      const servername = net.isIP(host) ? undefined : host;
      this.socket = tls.connect({ ...options.tls, host, port: Number(port) || 443, servername, ALPNProtocols: ['h2'] });
      this.socket.setNoDelay(true);
      this.socket.on('secureConnect', () => {
        this.connected = true;
      });
    } else if (protocol === 'http:') {
      // Every read lands in the same buffer, and what outlives the read (a gRPC message) is copied out at its own size.
      // A fresh 64 KiB buffer per read, kept alive by any view into it until a GC, left malloc's heap full of holes.
      const readBuffer = Buffer.allocUnsafeSlow(64 * 1024);
      this.socket = net.connect({
        host,
        port: Number(port) || 80,
        noDelay: true,
        onread: { buffer: readBuffer, callback: (n: number, buf: Uint8Array) => (this.read(Buffer.from(buf.buffer, buf.byteOffset, n)), true) },
      });
      this.socket.on('connect', () => {
        this.connected = true;
      });
    } else {
      throw new Error(`${url}: only http: and https: endpoints are spoken to`);
    }
    this.socket.on('data', (chunk: Buffer) => this.read(chunk));
    this.socket.on('error', (err) =>
      this.destroy(describeSocketError(url, err, { silentAfterHandshake: protocol === 'https:' && this.connected && !this.heardFrom, clientCertificate: !!options.tls?.cert })),
    );
    this.socket.on('close', () => this.destroy(`the connection to ${url} closed`));
    this.socket.on('end', () => this.destroy(`the connection to ${url} was closed by etcd`));
    // The preface and this side's settings (no push; the window for each stream), then the connection's own window.
    const settings = Buffer.alloc(12);
    settings.writeUInt16BE(0x2, 0);
    settings.writeUInt32BE(0, 2);
    settings.writeUInt16BE(0x4, 6);
    settings.writeUInt32BE(options.windowBytes, 8);
    this.send(PREFACE);
    this.sendFrame(Frame.Settings, 0, 0, settings);
    if (options.windowBytes > DEFAULT_WINDOW) this.windowUpdate(0, options.windowBytes - DEFAULT_WINDOW);
  }

  /** Whether a new stream may start here. */
  get open(): boolean {
    return !this.destroyed && !this.draining;
  }

  /** A stream for the request whose HPACK header block is `headerBlock` (see encodeHeaderBlock). */
  request(headerBlock: Buffer, handlers: StreamHandlers): H2Stream {
    if (!this.open) throw new Error(`the session to ${this.url} takes no new streams`);
    if (headerBlock.length > this.peerFrameSize) throw new Error('header block larger than one frame');
    const stream = new H2Stream(this, headerBlock, handlers);
    if (this.streams.size >= this.peerMaxStreams) this.queued.push(stream);
    else this.start(stream);
    return stream;
  }

  /** Sends a PING; `done` hears its ACK, or an error if the session ends first. Returns false if it could not be sent. */
  ping(done: (err?: Error) => void): boolean {
    if (this.destroyed) return false;
    const data = Buffer.alloc(8);
    data.writeBigUInt64BE(++this.pingSeq);
    this.pings.set(this.pingSeq, done);
    this.sendFrame(Frame.Ping, 0, 0, data);
    return true;
  }

  /**
   * Calls `onIdle` each time nothing was read or written for `ms`. (A socket's timeout fires once, and again only
   * after more traffic; a handler that chose to send nothing would never hear from it again.)
   */
  setIdleTimeout(ms: number, onIdle: () => void): void {
    this.socket.setTimeout(ms);
    this.socket.on('timeout', () => {
      if (this.destroyed) return;
      this.socket.setTimeout(ms);
      onIdle();
    });
  }

  /** Streams open or waiting to open. */
  get activeStreams(): number {
    return this.streams.size + this.queued.length;
  }

  unref(): void {
    this.socket.unref();
  }

  /** No new streams; the connection closes once those it has are over. */
  close(): void {
    if (this.destroyed || this.draining) return;
    this.draining = true;
    this.goneNow();
    if (this.streams.size === 0 && this.queued.length === 0) this.destroy(`the session to ${this.url} was closed`);
  }

  /** Ends the connection at once: every stream fails with `reason`. */
  destroy(reason = `the session to ${this.url} was destroyed`, code: number = H2Code.NO_ERROR): void {
    if (this.destroyed) return;
    this.destroyed = true;
    clearTimeout(this.ackTimer);
    if (this.connected && !this.socket.destroyed) {
      // Tell the peer why, as far as the socket still takes it; a peer that stopped reading does not hold this up.
      const goaway = Buffer.alloc(8);
      goaway.writeUInt32BE(code, 4);
      this.sendFrame(Frame.Goaway, 0, 0, goaway);
      this.uncork();
      this.socket.end();
      setTimeout(() => this.socket.destroy(), 1000).unref();
    } else {
      this.uncork();
      this.socket.destroy();
    }
    this.goneNow();
    this.options.onEnd?.();
    const failed = [...this.streams.values(), ...this.queued];
    this.streams.clear();
    this.queued.length = 0;
    this.blocked.clear();
    for (const stream of failed) {
      // A stream the peer never saw (never sent, or above its GOAWAY's last id) was not acted on.
      const unprocessed = !this.connected || stream.id === 0 || stream.id > this.goawayLast;
      this.finish(stream, { message: reason, unprocessed });
    }
    const pings = [...this.pings.values()];
    this.pings.clear();
    for (const done of pings) done(new Error(reason));
  }

  /** Sends what the stream has pending, as far as the windows allow. */
  flushStream(stream: H2Stream): void {
    if (stream.done || stream.id === 0) return;
    while (stream.pending.length || stream.endPending) {
      const next = stream.pending[0];
      if (!next) {
        this.sendFrame(Frame.Data, END_STREAM, stream.id, undefined);
        stream.endPending = false;
        this.maybeDone(stream);
        return;
      }
      const room = Math.min(this.connSendWindow, stream.sendWindow, this.peerFrameSize);
      if (room <= 0 && next.length > 0) {
        if (this.connSendWindow <= 0) this.blocked.add(stream);
        return;
      }
      const n = Math.min(room, next.length);
      const last = n === next.length && stream.pending.length === 1 && stream.endPending;
      this.sendFrame(Frame.Data, last ? END_STREAM : 0, stream.id, n === next.length ? next : next.subarray(0, n));
      this.connSendWindow -= n;
      stream.sendWindow -= n;
      if (n === next.length) stream.pending.shift();
      else stream.pending[0] = next.subarray(n);
      if (last) {
        stream.endPending = false;
        this.maybeDone(stream);
        return;
      }
    }
  }

  cancel(stream: H2Stream): void {
    if (stream.done) return;
    stream.done = true;
    if (stream.id !== 0 && !this.destroyed) this.rst(stream.id, H2Code.CANCEL);
    this.forget(stream);
  }

  private start(stream: H2Stream): void {
    stream.sendWindow = this.peerInitialWindow; // it may have changed while the stream was queued
    stream.id = this.nextId;
    this.nextId += 2;
    this.streams.set(stream.id, stream);
    this.sendFrame(Frame.Headers, END_HEADERS, stream.id, stream.headerBlock);
    this.flushStream(stream);
  }

  /** Both sides ended: the stream is over. */
  private maybeDone(stream: H2Stream): void {
    if (stream.localEnded && !stream.endPending && stream.remoteEnded && !stream.done) {
      this.finish(stream, undefined);
      this.forget(stream);
    }
  }

  private finish(stream: H2Stream, failure: StreamFailure | undefined): void {
    if (stream.done) return;
    stream.done = true;
    stream.pending = [];
    stream.handlers.onClose(failure);
  }

  /** Takes the stream out of the session's tables: the queue, or the open streams and those waiting for window. */
  private remove(stream: H2Stream): void {
    if (stream.id === 0) {
      const at = this.queued.indexOf(stream);
      if (at >= 0) this.queued.splice(at, 1);
    } else {
      this.streams.delete(stream.id);
      this.blocked.delete(stream);
    }
  }

  /** The stream is over: out of the tables, a queued one starts in its place, and a draining session ends when empty. */
  private forget(stream: H2Stream): void {
    this.remove(stream);
    this.startQueued();
    if (this.draining && this.streams.size === 0 && this.queued.length === 0) this.destroy(`the session to ${this.url} was closed`);
  }

  /** Starts queued streams as far as the peer's limit allows (a cancelled one has left the queue already). */
  private startQueued(): void {
    while (this.queued.length && this.streams.size < this.peerMaxStreams && !this.destroyed) this.start(this.queued.shift()!);
  }

  private goneNow(): void {
    if (this.gone) return;
    this.gone = true;
    this.options.onGone();
  }

  // ---- reading ----

  private read(chunk: Buffer): void {
    if (!this.heardFrom) {
      this.heardFrom = true;
      // A TLS listener spoken to in cleartext answers with an HTTP/1 error page rather than frames.
      if (chunk.subarray(0, 7).toString('latin1') === 'HTTP/1.') {
        const status = chunk.subarray(0, 80).toString('latin1').split('\r\n')[0];
        return this.destroy(`etcd at ${this.url} answered "${status}" instead of HTTP/2: is it an https:// endpoint?`, H2Code.PROTOCOL_ERROR);
      }
    }
    let bad: string | undefined;
    try {
      bad = this.frames.push(chunk, (h, at, payload) => this.frame(h[at + 3], h[at + 4], h.readUInt32BE(at + 5) & 0x7fffffff, payload));
    } catch (err) {
      // A handler threw in the middle of a chunk: the rest of it (and the header table) is lost, so is the session.
      this.destroy(`reading from ${this.url} failed: ${(err as Error).message}`, H2Code.INTERNAL_ERROR);
      throw err;
    }
    if (bad) this.destroy(bad, H2Code.FRAME_SIZE_ERROR);
  }

  private frame(type: number, flags: number, id: number, payload: Buffer): void {
    if (this.destroyed) return;
    if (this.block && type !== Frame.Continuation) return this.destroy('etcd broke off a header block', H2Code.PROTOCOL_ERROR);
    switch (type) {
      case Frame.Data:
        return this.data(flags, id, payload);
      case Frame.Headers: {
        let body = unpad(flags, payload);
        if (body && flags & PRIORITY) body = body.length >= 5 ? body.subarray(5) : undefined;
        if (!body || id === 0) return this.destroy('etcd sent a malformed HEADERS frame', H2Code.PROTOCOL_ERROR);
        // A block continued in later frames is kept as a copy: the read buffer it sits in is reused.
        const part = flags & END_HEADERS ? body : Buffer.from(body);
        this.block = { id, end: (flags & END_STREAM) !== 0, parts: [part], bytes: body.length };
        if (flags & END_HEADERS) this.headerBlock();
        return;
      }
      case Frame.Continuation: {
        const block = this.block;
        if (!block || block.id !== id) return this.destroy('etcd sent a CONTINUATION out of place', H2Code.PROTOCOL_ERROR);
        block.parts.push(Buffer.from(payload));
        block.bytes += payload.length;
        if (block.bytes > MAX_HEADER_BLOCK) return this.destroy('etcd sent a header block too large', H2Code.PROTOCOL_ERROR);
        if (flags & END_HEADERS) this.headerBlock();
        return;
      }
      case Frame.RstStream: {
        const stream = this.streams.get(id);
        if (!stream || payload.length !== 4) return;
        const code = payload.readUInt32BE(0);
        this.finish(stream, { message: `etcd reset the stream (HTTP/2 error ${code})`, unprocessed: code === H2Code.REFUSED_STREAM });
        this.forget(stream);
        return;
      }
      case Frame.Settings:
        if (id !== 0) return this.destroy('etcd sent SETTINGS on a stream', H2Code.PROTOCOL_ERROR);
        if (flags & ACK) return;
        return this.settings(payload);
      case Frame.Ping:
        if (payload.length !== 8 || id !== 0) return this.destroy('etcd sent a malformed PING', H2Code.PROTOCOL_ERROR);
        if (flags & ACK) {
          const seq = payload.readBigUInt64BE(0);
          const done = this.pings.get(seq);
          this.pings.delete(seq);
          done?.();
        } else {
          this.holdAck(Buffer.from(payload));
        }
        return;
      case Frame.Goaway:
        return this.goaway(payload);
      case Frame.WindowUpdate:
        return this.windowUpdated(id, payload);
      case Frame.PushPromise:
        return this.destroy('etcd sent a PUSH_PROMISE, which this side disabled', H2Code.PROTOCOL_ERROR);
      default:
        return; // PRIORITY and unknown types mean nothing here
    }
  }

  private data(flags: number, id: number, payload: Buffer): void {
    // Flow control counts the whole frame, padding included, whether or not its stream is still here.
    this.connUnacked += payload.length;
    if (this.connUnacked >= this.options.windowBytes / 2) {
      this.windowUpdate(0, this.connUnacked);
      this.connUnacked = 0;
    }
    const stream = this.streams.get(id);
    if (!stream) return;
    const body = unpad(flags, payload);
    if (!body) return this.destroy('etcd sent a malformed DATA frame', H2Code.PROTOCOL_ERROR);
    const end = (flags & END_STREAM) !== 0;
    if (!end) {
      stream.unacked += payload.length;
      if (stream.unacked >= this.options.windowBytes / 2) {
        this.windowUpdate(id, stream.unacked);
        stream.unacked = 0;
      }
    }
    if (body.length) stream.handlers.onData(body);
    if (end && !stream.done) this.remoteEnd(stream);
  }

  private headerBlock(): void {
    const block = this.block!;
    this.block = undefined;
    const bytes = block.parts.length === 1 ? block.parts[0] : Buffer.concat(block.parts);
    const fields = new Map<string, string>();
    try {
      // Every block is decoded, even one for a stream given up on: the table must follow the peer's.
      this.decoder.decode(bytes, (name, value) => {
        const seen = fields.get(name);
        fields.set(name, seen === undefined ? value : `${seen},${value}`);
      });
    } catch (err) {
      if (err instanceof HpackError) return this.destroy(`etcd sent a header block this side cannot read: ${err.message}`, H2Code.COMPRESSION_ERROR);
      throw err;
    }
    const stream = this.streams.get(block.id);
    if (!stream) return;
    stream.handlers.onHeaders(fields, block.end);
    if (block.end && !stream.done) this.remoteEnd(stream);
  }

  private remoteEnd(stream: H2Stream): void {
    stream.remoteEnded = true;
    if (!stream.localEnded || stream.endPending) {
      // The peer answered before this side finished sending (an error, say): the rest is not wanted.
      stream.pending = [];
      stream.endPending = false;
      stream.localEnded = true;
      this.rst(stream.id, H2Code.NO_ERROR);
    }
    this.maybeDone(stream);
  }

  private settings(payload: Buffer): void {
    if (payload.length % 6) return this.destroy('etcd sent malformed SETTINGS', H2Code.FRAME_SIZE_ERROR);
    for (let at = 0; at < payload.length; at += 6) {
      const key = payload.readUInt16BE(at);
      const value = payload.readUInt32BE(at + 2);
      if (key === 0x3) {
        this.peerMaxStreams = value;
      } else if (key === 0x4) {
        if (value > 0x7fffffff) return this.destroy('etcd sent a window above 2^31-1', H2Code.FLOW_CONTROL_ERROR);
        const delta = value - this.peerInitialWindow;
        this.peerInitialWindow = value;
        for (const stream of this.streams.values()) stream.sendWindow += delta;
      } else if (key === 0x5) {
        if (value < DEFAULT_FRAME_SIZE || value > 0xffffff) return this.destroy('etcd sent an invalid frame size', H2Code.PROTOCOL_ERROR);
        this.peerFrameSize = value;
      }
      // HEADER_TABLE_SIZE bounds the peer's decoder, which this side's literal-only blocks never fill.
    }
    this.sendFrame(Frame.Settings, ACK, 0, undefined);
    for (const stream of this.streams.values()) if (stream.pending.length && stream.sendWindow > 0) this.flushStream(stream);
    this.startQueued();
  }

  private goaway(payload: Buffer): void {
    if (payload.length < 8) return this.destroy('etcd sent a malformed GOAWAY', H2Code.PROTOCOL_ERROR);
    const last = payload.readUInt32BE(0) & 0x7fffffff;
    const code = payload.readUInt32BE(4);
    const debug = payload.subarray(8).toString('latin1');
    this.goawayLast = Math.min(this.goawayLast, last);
    this.draining = true;
    this.goneNow();
    const reason = `etcd closed the connection (GOAWAY, HTTP/2 error ${code}${debug ? `: ${debug}` : ''})`;
    // Streams it never acted on fail now, as not sent, so they can be tried on a new connection.
    for (const stream of [...this.streams.values(), ...this.queued]) {
      if (stream.id === 0 || stream.id > last) {
        this.remove(stream);
        this.finish(stream, { message: reason, unprocessed: true });
      }
    }
    if (this.streams.size === 0) this.destroy(reason);
  }

  private windowUpdated(id: number, payload: Buffer): void {
    if (payload.length !== 4) return this.destroy('etcd sent a malformed WINDOW_UPDATE', H2Code.FRAME_SIZE_ERROR);
    const increment = payload.readUInt32BE(0) & 0x7fffffff;
    if (id === 0) {
      this.connSendWindow += increment;
      if (this.connSendWindow > 0x7fffffff) return this.destroy('etcd overflowed the connection window', H2Code.FLOW_CONTROL_ERROR);
      for (const blocked of [...this.blocked]) {
        if (this.connSendWindow <= 0) return;
        this.blocked.delete(blocked);
        this.flushStream(blocked);
      }
      return;
    }
    const stream = this.streams.get(id);
    if (!stream) return;
    stream.sendWindow += increment;
    this.flushStream(stream);
  }

  // ---- writing ----

  private rst(id: number, code: number): void {
    const body = Buffer.alloc(4);
    body.writeUInt32BE(code);
    this.sendFrame(Frame.RstStream, 0, id, body);
  }

  private windowUpdate(id: number, increment: number): void {
    const body = Buffer.alloc(4);
    body.writeUInt32BE(increment);
    this.sendFrame(Frame.WindowUpdate, 0, id, body);
  }

  private sendFrame(type: number, flags: number, id: number, payload: Buffer | undefined, soon = true): void {
    const head = Buffer.allocUnsafe(9);
    const length = payload ? payload.length : 0;
    head.writeUIntBE(length, 0, 3);
    head[3] = type;
    head[4] = flags;
    head.writeUInt32BE(id, 5);
    this.send(head, soon);
    if (length) this.send(payload!, soon);
  }

  /**
   * Frames written in one turn of the event loop leave together, after its I/O callbacks (as node:http2 does): the
   * calls of every request read in that turn share one writev, where the next tick would send each request's alone.
   *
   * A PING answer alone (`soon` false) waits up to PING_ACK_DELAY_MS for other frames to go with it. etcd's gRPC
   * server pings after nearly every request it reads (to estimate bandwidth, until its windows grow, which small
   * requests never make them do): answered at once, each cost a write of its own on both sides of every call.
   */
  private send(bytes: Buffer, soon = true): void {
    if (this.socket.destroyed) return;
    if (!this.corked) {
      this.corked = true;
      this.socket.cork();
    }
    if (soon && !this.flushNow) {
      this.flushNow = true;
      setImmediate(() => this.uncork());
    } else if (!soon && !this.flushNow && !this.flushTimer) {
      this.flushTimer = setTimeout(() => this.uncork(), PING_ACK_DELAY_MS);
      this.flushTimer.unref();
    }
    this.socket.write(bytes);
  }

  /**
   * PING answers are held PING_ACK_HOLD_MS, then leave with the next frames (or alone, PING_ACK_DELAY_MS later). etcd's
   * gRPC server sends its bandwidth-estimating ping on the first data it reads while none is unanswered: answered with
   * the next call, every call read a ping of its own, and the reader woke once more for it while etcd worked.
   */
  private holdAck(payload: Buffer): void {
    this.heldAcks.push(payload);
    if (this.ackTimer) return;
    this.ackTimer = setTimeout(() => {
      this.ackTimer = undefined;
      if (this.destroyed) return;
      const acks = this.heldAcks.splice(0);
      for (const a of acks) this.sendFrame(Frame.Ping, ACK, 0, a, false);
    }, PING_ACK_HOLD_MS);
    this.ackTimer.unref();
  }

  private uncork(): void {
    this.flushNow = false;
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (!this.corked) return;
    this.corked = false;
    this.socket.uncork();
  }
}

/** The payload of a frame that may be PADDED, without its padding; undefined if the padding does not fit. */
function unpad(flags: number, payload: Buffer): Buffer | undefined {
  if (!(flags & PADDED)) return payload;
  if (payload.length < 1) return undefined;
  const pad = payload[0];
  if (pad > payload.length - 1) return undefined;
  return payload.subarray(1, payload.length - pad);
}
