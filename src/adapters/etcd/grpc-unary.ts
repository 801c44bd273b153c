/**
 * Unary gRPC calls straight over node:http2, for the requests on the hot path
 * (Range and Txn). Through the etcd3 client and @grpc/grpc-js a transaction
 * cost this process about 280 µs of CPU (channel, load balancer, filters,
 * metadata, call credentials); a bare HTTP/2 stream with the same protobuf
 * message costs about 100. Watches and leases stay on the library.
 *
 * One HTTP/2 session at a time, to one endpoint: when it fails (or stops
 * answering pings after a call timed out) the next call connects to the next
 * endpoint, and a call whose request never left (the connection failed
 * before it was up) is tried there at once.
 */
import * as http2 from 'node:http2';

/** A call that etcd answered with a non-zero grpc-status; message as grpc-js writes it ("14 UNAVAILABLE: ..."). */
export class GrpcStatusError extends Error {
  constructor(readonly code: number, readonly details: string) {
    super(`${code} ${statusNames[code] ?? 'UNKNOWN'}: ${details}`);
    this.name = 'GrpcStatusError';
  }
}

/** No connection to any endpoint, or the connection broke while the call was out. */
export class GrpcConnectionError extends Error {
  constructor(message: string, readonly sent: boolean) {
    super(message);
    this.name = 'GrpcConnectionError';
  }
}

/** The call's deadline passed first. */
export class GrpcTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`4 DEADLINE_EXCEEDED: no answer within ${timeoutMs} ms`);
    this.name = 'GrpcTimeoutError';
  }
}

const statusNames: Record<number, string> = {
  1: 'CANCELLED', 2: 'UNKNOWN', 3: 'INVALID_ARGUMENT', 4: 'DEADLINE_EXCEEDED', 5: 'NOT_FOUND', 6: 'ALREADY_EXISTS',
  7: 'PERMISSION_DENIED', 8: 'RESOURCE_EXHAUSTED', 9: 'FAILED_PRECONDITION', 10: 'ABORTED', 11: 'OUT_OF_RANGE',
  12: 'UNIMPLEMENTED', 13: 'INTERNAL', 14: 'UNAVAILABLE', 15: 'DATA_LOSS', 16: 'UNAUTHENTICATED',
};

/** Large range responses should not wait on 64 KiB flow-control windows. */
const WINDOW_BYTES = 16 * 1024 * 1024;
/** After a call times out, the session must answer a ping within this long or it is dropped. */
const PING_TIMEOUT_MS = 2000;
/** A session idle this long is pinged too. */
const IDLE_PROBE_MS = 30_000;

interface Session {
  http: http2.ClientHttp2Session;
  url: string;
  connected: boolean;
  /** Streams opened on it: a client has 2^30 stream ids per connection (odd numbers below 2^31). */
  streams: number;
  /** A ping is out to see whether it still answers. */
  probing: boolean;
}

/** Past this many streams a session is retired for a new one (at 5,000 calls/s, after about two and a half days). */
const STREAMS_PER_SESSION = 2 ** 30 - 2 ** 16;

export class GrpcUnaryClient {
  private session: Session | undefined;
  private endpoint = 0;
  private readonly headers = new Map<string, http2.OutgoingHttpHeaders>();
  private closed = false;

  constructor(
    private readonly endpoints: readonly string[],
    private readonly streamsPerSession = STREAMS_PER_SESSION,
    private readonly idleProbeMs = IDLE_PROBE_MS,
  ) {
    if (!endpoints.length) throw new Error('no etcd endpoints');
  }

  /** The response message of `method` (e.g. /etcdserverpb.KV/Txn) for an encoded request message. */
  async call(method: string, message: Uint8Array, timeoutMs: number): Promise<Buffer> {
    const deadline = performance.now() + timeoutMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.once(method, message, Math.max(1, deadline - performance.now()));
      } catch (err) {
        // Nothing reached etcd: another endpoint (or, with one, a new connection) may answer.
        const retry = err instanceof GrpcConnectionError && !err.sent && attempt < Math.max(2, this.endpoints.length) && performance.now() < deadline;
        if (!retry) throw err;
      }
    }
  }

  close(): void {
    this.closed = true;
    this.session?.http.destroy();
    this.session = undefined;
  }

  private once(method: string, message: Uint8Array, timeoutMs: number): Promise<Buffer> {
    if (this.closed) return Promise.reject(new GrpcConnectionError('the etcd client is closed', false));
    const session = this.current();
    return new Promise<Buffer>((resolve, reject) => {
      let stream: http2.ClientHttp2Stream;
      try {
        stream = session.http.request(this.headersFor(method, timeoutMs));
      } catch (err) {
        session.http.destroy(); // a session that cannot open streams is of no more use
        reject(new GrpcConnectionError(`could not start a call to ${session.url}: ${(err as Error).message}`, false));
        return;
      }
      const chunks: Buffer[] = [];
      let status: string | undefined;
      let details = '';
      let settled = false;
      const finish = (err: Error | undefined, value?: Buffer) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err) reject(err);
        else resolve(value!);
      };
      const timer = setTimeout(() => {
        finish(new GrpcTimeoutError(timeoutMs));
        stream.close(http2.constants.NGHTTP2_CANCEL);
        this.probe(session);
      }, timeoutMs);
      const readStatus = (h: http2.IncomingHttpHeaders) => {
        const s = h['grpc-status'];
        if (s === undefined) return;
        status = String(s);
        details = decodeMessage(h['grpc-message']);
      };
      stream.on('response', (h) => {
        const httpStatus = h[':status'];
        if (httpStatus !== 200) details = `HTTP status ${httpStatus}`;
        readStatus(h); // a trailers-only answer (every error) carries the status in its headers
      });
      stream.on('trailers', readStatus);
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', () => undefined); // the outcome is decided on 'close'
      stream.on('close', () => {
        if (status === '0') {
          const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
          if (body.length < 5 || body[0] !== 0) finish(new GrpcStatusError(13, 'malformed response frame'));
          else finish(undefined, body.subarray(5, 5 + body.readUInt32BE(1)));
        } else if (status !== undefined) {
          finish(new GrpcStatusError(Number(status), details));
        } else {
          finish(new GrpcConnectionError(details || `the connection to ${session.url} closed before etcd answered`, session.connected));
        }
      });
      const frame = Buffer.allocUnsafe(5 + message.length);
      frame[0] = 0; // not compressed
      frame.writeUInt32BE(message.length, 1);
      frame.set(message, 5);
      stream.end(frame);
    });
  }

  /** The open session, or a new one to the current endpoint. */
  private current(): Session {
    const existing = this.session;
    if (existing && !existing.http.closed && !existing.http.destroyed) {
      if (++existing.streams <= this.streamsPerSession) return existing;
      // Its calls in flight finish; new ones go to a new session. (Closed while connecting, it would drop its queued calls.)
      if (existing.connected) existing.http.close();
      else existing.http.once('connect', () => existing.http.close());
    }
    const url = this.endpoints[this.endpoint];
    const http = http2.connect(url, { settings: { initialWindowSize: WINDOW_BYTES } });
    const session: Session = { http, url, connected: false, streams: 1, probing: false };
    http.once('connect', () => {
      session.connected = true;
      // The connection's own window (the settings above are each stream's); a retired session may be gone already.
      if (!http.destroyed) http.setLocalWindowSize(WINDOW_BYTES);
    });
    // A failed or closed connection is replaced on the next call, by one to the next endpoint (members are alike).
    const drop = () => {
      if (this.session !== session) return;
      this.session = undefined;
      this.endpoint = (this.endpoint + 1) % this.endpoints.length;
    };
    http.on('error', drop);
    http.on('close', drop);
    http.on('goaway', drop);
    // Idle this long, it must answer a ping (as grpc-js's keepalive did): a peer gone without a reset is noticed
    // before the next call waits out its whole deadline on it.
    http.setTimeout(this.idleProbeMs, () => this.probe(session));
    http.unref(); // the server's own handles keep the process up; an idle etcd connection should not
    this.session = session;
    return session;
  }

  /** A call timed out: keep the session only if it still answers a ping (a dead peer without a reset would hang every call). */
  private probe(session: Session): void {
    if (session.http.destroyed || session.probing) return;
    if (!session.connected) {
      session.http.destroy(); // never came up within a whole call's time: the next call tries anew
      return;
    }
    // One ping at a time: many calls time out together when etcd stalls, and HTTP/2 bounds the pings outstanding.
    session.probing = true;
    const timer = setTimeout(() => session.http.destroy(), PING_TIMEOUT_MS);
    let sent = false;
    try {
      sent = session.http.ping((err) => {
        clearTimeout(timer);
        session.probing = false;
        if (err) session.http.destroy();
      });
    } catch {
      sent = false;
    }
    if (!sent) {
      clearTimeout(timer);
      session.http.destroy();
    }
  }

  private headersFor(method: string, timeoutMs: number): http2.OutgoingHttpHeaders {
    // grpc-timeout is whole milliseconds; the same few values recur, so the header sets are kept.
    const ms = Math.min(99_999_999, Math.ceil(timeoutMs)); // the header allows eight digits
    const key = `${method} ${ms}`;
    let headers = this.headers.get(key);
    if (!headers) {
      headers = {
        ':method': 'POST',
        ':path': method,
        'content-type': 'application/grpc',
        te: 'trailers',
        'grpc-timeout': `${ms}m`,
      };
      if (this.headers.size > 1000) this.headers.clear();
      this.headers.set(key, headers);
    }
    return headers;
  }
}

/** grpc-message is percent-encoded. */
function decodeMessage(raw: string | string[] | undefined): string {
  if (raw === undefined) return '';
  const text = Array.isArray(raw) ? raw.join(',') : raw;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
