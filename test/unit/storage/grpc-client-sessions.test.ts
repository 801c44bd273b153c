/**
 * GrpcClient's sessions against node:http2's server: a session retired for a new one (its stream ids running out)
 * keeps its open streams, and close() ends it too, not only the current one; calls that time out make it ping the
 * peer, but not again soon after an answered ping (etcd closes connections that ping too often).
 */
import * as http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { GrpcClient } from '../../../src/adapters/etcd/grpc-client';

describe('GrpcClient sessions', () => {
  let server: http2.Http2Server;
  let url: string;
  const open = new Set<http2.ServerHttp2Session>();
  let pings = 0;

  beforeAll(async () => {
    server = http2.createServer();
    server.on('session', (s) => {
      s.on('ping', () => pings++);
      open.add(s);
      s.on('close', () => open.delete(s));
    });
    server.on('stream', (stream, headers) => {
      stream.on('error', () => undefined);
      if (headers[':path'] === '/test.Watch/Watch') {
        stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
        return; // held open
      }
      if (headers[':path'] === '/test.KV/Slow') return; // never answered
      stream.resume();
      stream.on('end', () => {
        stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '0' }, { endStream: true });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const s of open) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('ends a retired session that still holds a stream when the client closes', async () => {
    const grpc = new GrpcClient([url], 1); // one stream per session: the call after the watch needs a new one
    let ended: Error | undefined;
    grpc.openStream('/test.Watch/Watch', { onMessage: () => undefined, onEnd: (reason) => (ended = reason) });
    await expect(grpc.call('/test.KV/Range', Buffer.from('x'), 5000)).rejects.toThrow(/malformed response/); // no message: a second session answered
    await new Promise((r) => setTimeout(r, 50));
    expect(open.size).toBe(2);
    grpc.close();
    for (let i = 0; i < 100 && open.size > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(open.size).toBe(0);
    expect(ended?.message).toBe('the etcd client is closed'); // its watch hears why it ended
  });

  it('pings after a call times out, and not again within 5 s of an answered ping', async () => {
    const grpc = new GrpcClient([url]);
    try {
      await expect(grpc.call('/test.KV/Range', Buffer.from('x'), 5000)).rejects.toThrow(/malformed response/); // connected
      pings = 0;
      await expect(grpc.call('/test.KV/Slow', Buffer.from('x'), 50)).rejects.toThrow(/DEADLINE_EXCEEDED/);
      for (let i = 0; i < 100 && pings === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(pings).toBe(1);
      await new Promise((r) => setTimeout(r, 50)); // its answer is back
      await expect(grpc.call('/test.KV/Slow', Buffer.from('x'), 50)).rejects.toThrow(/DEADLINE_EXCEEDED/);
      await new Promise((r) => setTimeout(r, 100));
      expect(pings).toBe(1);
      // The session still serves calls.
      await expect(grpc.call('/test.KV/Range', Buffer.from('x'), 5000)).rejects.toThrow(/malformed response/);
    } finally {
      grpc.close();
    }
  });
});
