/**
 * GrpcClient's sessions against node:http2's server: a session retired for a new one (its stream ids running out)
 * keeps its open streams, and close() ends it too, not only the current one.
 */
import * as http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { GrpcClient } from '../../../src/adapters/etcd/grpc-client';

describe('GrpcClient sessions', () => {
  let server: http2.Http2Server;
  let url: string;
  const open = new Set<http2.ServerHttp2Session>();

  beforeAll(async () => {
    server = http2.createServer();
    server.on('session', (s) => {
      open.add(s);
      s.on('close', () => open.delete(s));
    });
    server.on('stream', (stream, headers) => {
      stream.on('error', () => undefined);
      if (headers[':path'] === '/test.Watch/Watch') {
        stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
        return; // held open
      }
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
});
