/**
 * GrpcClient's sessions against node:http2's server: a session retired for a new one (its stream ids running out)
 * keeps its open streams, and close() ends it too, not only the current one; calls that time out make it ping the
 * peer, but not again soon after an answered ping (etcd closes connections that ping too often).
 */
import * as http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { GrpcClient } from '../../../src/adapters/etcd/grpc-client';
import { until } from '../../support/until';

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
    expect(open.size).toBe(2); // the server served a stream on each, so it has seen both
    grpc.close();
    await until('the server to see both sessions end', () => open.size === 0, { timeoutMs: 2000 });
    expect(ended?.message).toBe('the etcd client is closed'); // its watch hears why it ended
  });

  it('pings after a call times out, and not again within 5 s of an answered ping', async () => {
    const grpc = new GrpcClient([url]);
    try {
      await expect(grpc.call('/test.KV/Range', Buffer.from('x'), 5000)).rejects.toThrow(/malformed response/); // connected
      pings = 0;
      // The barrier: a call on the same connection. The server reads frames in order, so it has counted any ping the
      // client sent before the call, and answers after acknowledging that ping, so the client has the answer too.
      const barrier = () => expect(grpc.call('/test.KV/Range', Buffer.from('x'), 5000)).rejects.toThrow(/malformed response/);
      await expect(grpc.call('/test.KV/Slow', Buffer.from('x'), 50)).rejects.toThrow(/DEADLINE_EXCEEDED/);
      await barrier();
      expect(pings).toBe(1);
      await expect(grpc.call('/test.KV/Slow', Buffer.from('x'), 50)).rejects.toThrow(/DEADLINE_EXCEEDED/);
      await barrier(); // and the session still serves calls
      expect(pings).toBe(1);
    } finally {
      grpc.close();
    }
  });
});
