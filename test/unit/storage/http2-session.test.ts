/**
 * The etcd transport's own HTTP/2 client against another implementation of the protocol: node:http2's server
 * (nghttp2), which Huffman-codes, indexes and evicts header fields by its own choices, holds flow-control windows of
 * its own size, refuses streams past its limit and sends GOAWAY.
 */
import * as http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { encodeHeaderBlock } from '../../../src/adapters/etcd/http2/hpack';
import { issueLeaf, selfSignedCa } from '../../../src/adapters/pki';
import { H2Session, type StreamFailure } from '../../../src/adapters/etcd/http2/session';
import { until } from '../../support/until';

interface Reply {
  headers: Map<string, string>[];
  body: Buffer;
  failure?: StreamFailure;
}

let server: http2.Http2Server;
let url: string;
let handler: (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders) => void;
const sessions: H2Session[] = [];
const serverSessions = new Set<http2.ServerHttp2Session>();

beforeAll(async () => {
  server = http2.createServer({ settings: { maxConcurrentStreams: 4 } });
  server.on('stream', (stream, headers) => {
    stream.on('error', () => undefined); // streams this test resets or refuses report it here
    handler(stream, headers);
  });
  server.on('session', (s) => serverSessions.add(s.on('close', () => serverSessions.delete(s))));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => {
  for (const s of sessions.splice(0)) s.destroy();
});
afterAll(async () => {
  for (const s of serverSessions) s.destroy();
  await new Promise((resolve) => server.close(resolve));
});

function connect(): H2Session {
  const session = new H2Session(url, { windowBytes: 1024 * 1024, onGone: () => undefined });
  sessions.push(session);
  return session;
}

const block = (path: string) =>
  encodeHeaderBlock([[':method', 'POST'], [':scheme', 'http'], [':path', path], [':authority', 'etcd'], ['content-type', 'application/grpc'], ['te', 'trailers']]);

function call(session: H2Session, path: string, body: Buffer): Promise<Reply> {
  return new Promise((resolve) => {
    const reply: Reply = { headers: [], body: Buffer.alloc(0) };
    const chunks: Buffer[] = [];
    const stream = session.request(block(path), {
      onHeaders: (fields) => reply.headers.push(fields),
      onData: (chunk) => chunks.push(Buffer.from(chunk)),
      onClose: (failure) => resolve({ ...reply, body: Buffer.concat(chunks), failure }),
    });
    stream.write(body, true);
  });
}

/** Header values nghttp2 will send: tab, printable ASCII and the high octets, in runs of many lengths. */
function valueFor(i: number): string {
  const alphabet = ['\t', ...Array.from({ length: 95 }, (_, c) => String.fromCharCode(32 + c)), ...Array.from({ length: 128 }, (_, c) => String.fromCharCode(128 + c))];
  let text = '';
  for (let k = 0; k < 1 + ((i * 37) % 300); k++) text += alphabet[(i * 7 + k * 13) % alphabet.length];
  return text.trim() || 'x';
}

describe('HTTP/2 session against node:http2', () => {
  it('reads header blocks that nghttp2 Huffman-codes, indexes and evicts, request after request', async () => {
    handler = (stream, headers) => {
      const i = Number(String(headers[':path']).slice(1));
      stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'x-value': valueFor(i), 'x-same': 'repeated value' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': String(i % 17), 'grpc-message': valueFor(i + 1) }));
      stream.end(Buffer.from(`body ${i}`));
      stream.resume();
    };
    const session = connect();
    for (let i = 0; i < 300; i++) {
      const reply = await call(session, `/${i}`, Buffer.from('x'));
      expect(reply.failure).toBeUndefined();
      expect(reply.headers).toHaveLength(2);
      expect(reply.headers[0].get(':status')).toBe('200');
      expect(reply.headers[0].get('x-value')).toBe(valueFor(i));
      expect(reply.headers[0].get('x-same')).toBe('repeated value');
      expect(reply.headers[1].get('grpc-status')).toBe(String(i % 17));
      expect(reply.headers[1].get('grpc-message')).toBe(valueFor(i + 1));
      expect(reply.body.toString()).toBe(`body ${i}`);
    }
  });

  it('sends a body many times the peer window and reads a reply many times its own, whole', async () => {
    handler = (stream) => {
      const got: Buffer[] = [];
      stream.on('data', (c: Buffer) => got.push(c));
      stream.on('end', () => {
        const all = Buffer.concat(got);
        stream.respond({ ':status': 200 });
        stream.end(Buffer.concat([all, all, all]));
      });
    };
    const session = connect();
    const body = Buffer.alloc(1_500_000);
    for (let i = 0; i < body.length; i++) body[i] = (i * 31) % 251;
    const replies = await Promise.all([call(session, '/big', body), call(session, '/big', body.subarray(0, 70_000))]);
    expect(replies[0].failure).toBeUndefined();
    expect(replies[0].body.equals(Buffer.concat([body, body, body]))).toBe(true);
    expect(replies[1].body.length).toBe(210_000);
  });

  it('queues streams past the peer limit and runs them all', async () => {
    handler = (stream, headers) => {
      setTimeout(() => {
        stream.respond({ ':status': 200 });
        stream.end(String(headers[':path']));
      }, 20);
      stream.resume();
    };
    const session = connect();
    await call(session, '/warm', Buffer.from('x')); // the peer's SETTINGS (at most 4 streams) have arrived
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => call(session, `/${i}`, Buffer.from('x'))));
    expect(replies.map((r) => r.body.toString())).toEqual(Array.from({ length: 20 }, (_, i) => `/${i}`));
  });

  it('ends a stream the peer answered before reading all of its body', async () => {
    handler = (stream) => {
      stream.respond({ ':status': 200, 'grpc-status': '8', 'grpc-message': 'too big' }, { endStream: true });
    };
    const session = connect();
    const reply = await call(session, '/early', Buffer.alloc(5_000_000));
    expect(reply.failure).toBeUndefined();
    expect(reply.headers[0].get('grpc-message')).toBe('too big');
    // The session stays usable.
    handler = (stream) => {
      stream.respond({ ':status': 200 });
      stream.end('after');
      stream.resume();
    };
    expect((await call(session, '/after', Buffer.from('x'))).body.toString()).toBe('after');
  });

  it('reports a refused stream as not processed, and a reset one as processed', async () => {
    handler = (stream, headers) => stream.close(headers[':path'] === '/refuse' ? http2.constants.NGHTTP2_REFUSED_STREAM : http2.constants.NGHTTP2_INTERNAL_ERROR);
    const session = connect();
    expect((await call(session, '/refuse', Buffer.from('x'))).failure).toMatchObject({ unprocessed: true });
    expect((await call(session, '/reset', Buffer.from('x'))).failure).toMatchObject({ unprocessed: false });
  });

  it('fails streams above a GOAWAY as not processed and finishes those below it', async () => {
    const held: http2.ServerHttp2Stream[] = [];
    handler = (stream) => {
      held.push(stream);
      stream.resume();
      if (held.length === 2) {
        stream.session!.goaway(http2.constants.NGHTTP2_NO_ERROR, held[0].id!);
        setTimeout(() => {
          held[0].respond({ ':status': 200 });
          held[0].end('first');
        }, 20);
      }
    };
    let gone = false;
    const session = new H2Session(url, { windowBytes: 1024 * 1024, onGone: () => (gone = true) });
    sessions.push(session);
    const [first, second] = await Promise.all([call(session, '/a', Buffer.from('x')), call(session, '/b', Buffer.from('x'))]);
    expect(first.body.toString()).toBe('first');
    expect(second.failure).toMatchObject({ unprocessed: true });
    expect(gone).toBe(true);
    expect(session.open).toBe(false);
  });

  it('answers a ping, and fails every stream as processed when the connection is lost after it was up', async () => {
    handler = (stream) => {
      stream.resume();
      setTimeout(() => stream.session!.destroy(), 20);
    };
    const session = connect();
    await new Promise<void>((resolve, reject) => session.ping((err) => (err ? reject(err) : resolve())));
    const reply = await call(session, '/lost', Buffer.from('x'));
    expect(reply.failure).toMatchObject({ unprocessed: false });
    expect(session.open).toBe(false);
  });

  it('fails streams as not processed when the connection never comes up', async () => {
    const dead = new H2Session('http://127.0.0.1:1', { windowBytes: 65_535, onGone: () => undefined });
    sessions.push(dead);
    const reply = await call(dead, '/x', Buffer.from('x'));
    expect(reply.failure).toMatchObject({ unprocessed: true });
  });

  it('calls its idle handler at every idle period, not once', async () => {
    handler = (stream) => {
      stream.respond({ ':status': 200 });
      stream.end('x');
      stream.resume();
    };
    const session = connect();
    await call(session, '/warm', Buffer.from('x'));
    let idle = 0;
    session.setIdleTimeout(50, () => idle++);
    await until('three idle periods', () => idle >= 3, { timeoutMs: 2000 });
  });

  it('speaks HTTP/2 over TLS to an https: endpoint (ALPN h2)', async () => {
    const now = new Date();
    const ca = await selfSignedCa('h2-test-ca', now);
    const leaf = await issueLeaf(ca, { commonName: 'etcd', ipAddresses: ['127.0.0.1'], usage: 'server', days: 1 }, now);
    const secure = http2.createSecureServer({ key: leaf.keyPem, cert: leaf.certPem });
    secure.on('stream', (stream, headers) => {
      stream.respond({ ':status': 200, 'x-scheme': String(headers[':scheme']) });
      stream.end('over tls');
      stream.resume();
    });
    secure.on('session', (s) => serverSessions.add(s.on('close', () => serverSessions.delete(s))));
    await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve));
    try {
      const port = (secure.address() as AddressInfo).port;
      const session = new H2Session(`https://127.0.0.1:${port}`, { windowBytes: 65_535, onGone: () => undefined, tls: { ca: ca.certPem } });
      sessions.push(session);
      const reply = await call(session, '/tls', Buffer.from('x'));
      expect(reply.failure).toBeUndefined();
      expect(reply.body.toString()).toBe('over tls');
      // A server this side does not trust fails the stream before anything was sent.
      const untrusting = new H2Session(`https://127.0.0.1:${port}`, { windowBytes: 65_535, onGone: () => undefined });
      sessions.push(untrusting);
      expect((await call(untrusting, '/tls', Buffer.from('x'))).failure).toMatchObject({ unprocessed: true });
    } finally {
      for (const s of serverSessions) s.destroy();
      await new Promise((resolve) => secure.close(resolve));
    }
  });

  it("answers the peer's pings, alone after a few milliseconds or with later frames", async () => {
    let peer: http2.Http2Session | undefined;
    handler = (stream) => {
      peer = stream.session;
      stream.respond({ ':status': 200 });
      stream.end('x');
      stream.resume();
    };
    const session = connect();
    await call(session, '/first', Buffer.from('x'));
    const pinged = (payload: string) =>
      new Promise<Buffer>((resolve, reject) => peer!.ping(Buffer.from(payload), (err, _ms, echoed) => (err ? reject(err) : resolve(echoed))));
    expect((await pinged('alone...')).toString()).toBe('alone...');
    const answered = pinged('with....');
    await call(session, '/second', Buffer.from('x'));
    expect((await answered).toString()).toBe('with....');
  });

  it('holds the answer to a ping a few milliseconds rather than sending it with the call right behind it', async () => {
    // etcd pings on the first data it reads while no ping of its own is unanswered: answered with every next call, it
    // pinged once per call. Here the peer pings, then writes on an open stream; the client calls as soon as that data
    // arrives, so the ping is read by then, and the call must reach the peer first.
    const seen: string[] = [];
    let open: http2.ServerHttp2Stream | undefined;
    handler = (stream, headers) => {
      seen.push(String(headers[':path']));
      if (headers[':path'] === '/open') {
        open = stream;
        stream.respond({ ':status': 200 });
        stream.write('ready');
        return;
      }
      stream.respond({ ':status': 200 });
      stream.end('x');
      stream.resume();
    };
    const session = connect();
    const behind = new Promise<void>((resolve) => {
      let called = false;
      session.request(block('/open'), {
        onHeaders: () => undefined,
        onData: (chunk) => {
          if (called || Buffer.from(chunk).toString() !== 'now') return;
          called = true;
          void call(session, '/behind', Buffer.from('x')).then(() => resolve());
        },
        onClose: () => undefined,
      }).write(Buffer.from('x'), false);
    });
    const opened = await until('the server to see /open', () => open, { intervalMs: 5 });
    const acked = new Promise<void>((resolve, reject) =>
      opened.session!.ping(Buffer.from('holdme..'), (err) => {
        if (err) return reject(err);
        seen.push('ack');
        resolve();
      }),
    );
    opened.write('now');
    await Promise.all([behind, acked]);
    expect(seen).toEqual(['/open', '/behind', 'ack']);
    opened.close();
  });
});