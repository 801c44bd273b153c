/**
 * gRPC calls straight over HTTP/2, for what etcd does on every request:
 * unary Range and Txn, and the Watch streams that carry every change back.
 * Through the etcd3 client and @grpc/grpc-js a transaction cost this process
 * about 280 µs of CPU (channel, load balancer, filters, metadata, call
 * credentials) and each watch response about 200; the same protobuf messages
 * through node:http2 still cost about 210 µs per transaction on a slow machine
 * (see http2/session.ts), and on this transport's own HTTP/2 connection about
 * 60. Leases and compaction stay on the library.
 *
 * One HTTP/2 session at a time, to one endpoint: when it fails (or stops
 * answering pings after a call timed out) the next call connects to the next
 * endpoint, and a call whose request never left (the connection failed
 * before it was up, or etcd refused the stream) is tried there at once.
 */
import type { ConnectionOptions } from 'node:tls';
import { encodeHeaderBlock } from './http2/hpack';
import { H2Code, H2Session, type H2Stream } from './http2/session';
import { Answer, connectionError, framed, FrameReader, GrpcConnectionError, GrpcStatusError, GrpcTimeoutError } from './grpc-messages';

export { FrameReader, GrpcConnectionError, GrpcStatusError, GrpcTimeoutError } from './grpc-messages';

/** Large range responses should not wait on 64 KiB flow-control windows. */
const WINDOW_BYTES = 16 * 1024 * 1024;
/** After a call times out, the session must answer a ping within this long or it is dropped. */
const PING_TIMEOUT_MS = 2000;
/** A session idle this long is pinged too (or, with no streams open, closed). */
const IDLE_PROBE_MS = 30_000;
/**
 * A session that answered a ping is not pinged again for this long: etcd's gRPC server (its --grpc-keepalive-min-time,
 * 5 s) counts closer pings as strikes when it sent nothing between them, and closes the connection at the third.
 */
const PROBE_QUIET_MS = 5000;
/** A session still connecting is given up by a timed-out call only once it is this old (a retry may start one with a hair of deadline left). */
const CONNECT_GRACE_MS = 1000;

interface Session {
  h2: H2Session;
  /** performance.now() at its start, and until when an answered ping vouches for it. */
  startedAt: number;
  quietUntil: number;
  /** Streams opened on it: a client has 2^30 stream ids per connection (odd numbers below 2^31). */
  streams: number;
  /** A ping is out to see whether it still answers. */
  probing: boolean;
}

/** Past this many streams a session is retired for a new one (at 5,000 calls/s, after about two and a half days). */
const STREAMS_PER_SESSION = 2 ** 30 - 2 ** 16;

/** What a bidirectional stream reports: each message as it arrives, then its end (once, unless cancelled). */
export interface GrpcStreamHandlers {
  onMessage(message: Buffer): void;
  /** The stream is over: a grpc-status from the server, or the connection lost. */
  onEnd(reason: GrpcStatusError | GrpcConnectionError): void;
}

export interface GrpcStream {
  write(message: Uint8Array): void;
  /** Ends the stream from this side; onEnd is not called after it. */
  cancel(): void;
}

export class GrpcClient {
  private session: Session | undefined;
  /** Every session not yet ended: the current one, and retired or draining ones finishing their streams. */
  private readonly live = new Set<H2Session>();
  private endpoint = 0;
  private readonly headers = new Map<string, Buffer>();
  private closed = false;

  constructor(
    private readonly endpoints: readonly string[],
    private readonly streamsPerSession = STREAMS_PER_SESSION,
    private readonly idleProbeMs = IDLE_PROBE_MS,
    /** For https: endpoints: the CA that signs etcd's certificate and this client's certificate and key. */
    private readonly tls?: ConnectionOptions,
  ) {
    if (!endpoints.length) throw new Error('no etcd endpoints');
  }

  /** The response message of `method` (e.g. /etcdserverpb.KV/Txn) for an encoded request message. */
  async call(method: string, request: Uint8Array | readonly Uint8Array[], timeoutMs: number): Promise<Buffer> {
    const deadline = performance.now() + timeoutMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.once(method, request, Math.max(1, deadline - performance.now()));
      } catch (err) {
        // Nothing reached etcd: another endpoint (or, with one, a new connection) may answer.
        const retry = err instanceof GrpcConnectionError && !err.sent && attempt < Math.max(2, this.endpoints.length) && performance.now() < deadline;
        if (!retry) throw err;
      }
    }
  }

  close(): void {
    this.closed = true;
    for (const h2 of [...this.live]) h2.destroy('the etcd client is closed');
    this.session = undefined;
  }

  private once(method: string, request: Uint8Array | readonly Uint8Array[], timeoutMs: number): Promise<Buffer> {
    if (this.closed) return Promise.reject(new GrpcConnectionError('the etcd client is closed', false));
    const session = this.current();
    return new Promise<Buffer>((resolve, reject) => {
      const reader = new FrameReader();
      const answer = new Answer();
      let message: Buffer | undefined;
      let malformed: string | undefined;
      let settled = false;
      const finish = (err: Error | undefined, value?: Buffer) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err) reject(err);
        else resolve(value!);
      };
      let stream: H2Stream;
      try {
        stream = session.h2.request(this.headersFor(session.h2.url, method, timeoutMs), {
          onHeaders: (fields) => answer.read(fields),
          onData: (chunk) => {
            malformed ??= reader.push(chunk, (m) => (message = m));
          },
          onClose: (failure) => {
            const { status, details } = answer;
            if (status === '0') {
              if (malformed || !message) finish(new GrpcStatusError(13, `malformed response: ${malformed ?? 'no message'}`));
              else finish(undefined, message);
            } else if (status !== undefined) {
              finish(new GrpcStatusError(Number(status), details));
            } else {
              finish(connectionError(failure, details, `the connection to ${session.h2.url} closed before etcd answered`));
            }
          },
        });
      } catch (err) {
        session.h2.destroy(); // a session that cannot open streams is of no more use
        reject(new GrpcConnectionError(`could not start a call to ${session.h2.url}: ${(err as Error).message}`, false));
        return;
      }
      const timer = setTimeout(() => {
        finish(new GrpcTimeoutError(timeoutMs));
        stream.cancel();
        this.probe(session);
      }, timeoutMs);
      const pieces = framed(request);
      pieces.forEach((piece, i) => stream.write(piece, i === pieces.length - 1));
    });
  }

  /**
   * A bidirectional stream of `method` (e.g. /etcdserverpb.Watch/Watch) on the current session, with no deadline.
   *
   * Its messages and its end reach the handlers in the check phase of the event loop, in order, not in the middle of
   * the read that brought them: etcd sends a write's watch event right behind the write's answer, often in the same
   * read, and the call's caller (the request waiting to answer its client) should not wait for the watch cache to take
   * the event in first.
   */
  openStream(method: string, handlers: GrpcStreamHandlers): GrpcStream {
    if (this.closed) throw new GrpcConnectionError('the etcd client is closed', false);
    const session = this.current();
    const answer = new Answer();
    const reader = new FrameReader();
    const queue: Buffer[] = [];
    let ending: GrpcStatusError | GrpcConnectionError | undefined;
    let scheduled = false;
    let over = false;
    const deliver = () => {
      scheduled = false;
      for (let i = 0; i < queue.length && !over; i++) handlers.onMessage(queue[i]);
      queue.length = 0;
      if (ending && !over) {
        over = true;
        stream.cancel();
        handlers.onEnd(ending);
      }
    };
    const later = () => {
      if (scheduled) return;
      scheduled = true;
      setImmediate(deliver);
    };
    const end = (reason: GrpcStatusError | GrpcConnectionError) => {
      ending ??= reason;
      later();
    };
    let stream: H2Stream;
    try {
      stream = session.h2.request(this.headersFor(session.h2.url, method, undefined), {
        onHeaders: (fields) => answer.read(fields),
        onData: (chunk) => {
          if (over || ending) return;
          const bad = reader.push(chunk, (message) => queue.push(message));
          if (bad) end(new GrpcStatusError(13, bad));
          else if (queue.length) later();
        },
        onClose: (failure) => {
          if (answer.status !== undefined) end(new GrpcStatusError(Number(answer.status), answer.details || 'the stream ended'));
          else end(connectionError(failure, answer.details, `the connection to ${session.h2.url} closed`));
        },
      });
    } catch (err) {
      session.h2.destroy();
      throw new GrpcConnectionError(`could not start a stream to ${session.h2.url}: ${(err as Error).message}`, false);
    }
    return {
      write: (message) => {
        if (!over) for (const piece of framed(message)) stream.write(piece, false);
      },
      cancel: () => {
        over = true;
        queue.length = 0;
        stream.cancel();
      },
    };
  }

  /** The open session, or a new one to the current endpoint. */
  private current(): Session {
    const existing = this.session;
    if (existing && existing.h2.open) {
      if (++existing.streams <= this.streamsPerSession) return existing;
      this.session = undefined; // retired, not failed: the next one goes to the same endpoint
      existing.h2.close(); // its calls in flight finish; new ones go to a new session
    }
    const url = this.endpoints[this.endpoint];
    // A failed or closed connection is replaced on the next call, by one to the next endpoint (members are alike).
    const h2: H2Session = new H2Session(url, {
      windowBytes: WINDOW_BYTES,
      tls: this.tls,
      onGone: () => {
        if (this.session?.h2 !== h2) return;
        this.session = undefined;
        this.endpoint = (this.endpoint + 1) % this.endpoints.length;
      },
      onEnd: () => this.live.delete(h2),
    });
    this.live.add(h2);
    const session: Session = { h2, startedAt: performance.now(), quietUntil: 0, streams: 1, probing: false };
    // Idle this long, it must answer a ping (as grpc-js's keepalive did): a peer gone without a reset is noticed
    // before the next call waits out its whole deadline on it. With nothing open there is nothing to watch over (and
    // etcd counts pings without streams as strikes), so the session is closed and the next call connects anew.
    h2.setIdleTimeout(this.idleProbeMs, () => {
      if (h2.activeStreams > 0) return this.probe(session);
      if (this.session === session) this.session = undefined; // closed, not failed: the next one goes to the same endpoint
      h2.close();
    });
    h2.unref(); // the server's own handles keep the process up; an idle etcd connection should not
    this.session = session;
    return session;
  }

  /** A call timed out: keep the session only if it still answers a ping (a dead peer without a reset would hang every call). */
  private probe(session: Session): void {
    const h2 = session.h2;
    const now = performance.now();
    if (h2.destroyed || session.probing || now < session.quietUntil) return;
    if (!h2.connected) {
      if (now - session.startedAt >= CONNECT_GRACE_MS) h2.destroy(`no connection to ${h2.url} within a call's deadline`); // the next call tries anew
      return;
    }
    // One ping at a time: many calls time out together when etcd stalls.
    session.probing = true;
    const timer = setTimeout(() => h2.destroy(`${h2.url} did not answer a ping within ${PING_TIMEOUT_MS} ms`, H2Code.CANCEL), PING_TIMEOUT_MS);
    timer.unref();
    const sent = h2.ping((err) => {
      clearTimeout(timer);
      session.probing = false;
      if (err) h2.destroy(err.message);
      else session.quietUntil = performance.now() + PROBE_QUIET_MS;
    });
    if (!sent) {
      clearTimeout(timer);
      h2.destroy();
    }
  }

  /** The request's header block; grpc-timeout is whole milliseconds and the same few values recur, so blocks are kept. */
  private headersFor(url: string, method: string, timeoutMs: number | undefined): Buffer {
    const ms = timeoutMs === undefined ? undefined : Math.min(99_999_999, Math.ceil(timeoutMs)); // the header allows eight digits
    const key = `${url} ${method} ${ms}`;
    let block = this.headers.get(key);
    if (!block) {
      const fields: [string, string][] = [
        [':method', 'POST'],
        [':scheme', url.startsWith('https:') ? 'https' : 'http'],
        [':path', method],
        [':authority', new URL(url).host],
        ['content-type', 'application/grpc'],
        ['te', 'trailers'],
      ];
      if (ms !== undefined) fields.push(['grpc-timeout', `${ms}m`]);
      block = encodeHeaderBlock(fields);
      if (this.headers.size > 1000) this.headers.clear();
      this.headers.set(key, block);
    }
    return block;
  }
}
