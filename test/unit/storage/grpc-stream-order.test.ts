/**
 * Stream messages reach their handlers after the unary answers that came in the same read: etcd sends a write's
 * watch event right behind the write's answer, and the request waiting on the answer should not wait for the watch
 * cache. The peer here is a bare TCP server that answers each call with the call's whole answer and then a message
 * on the first stream, all in one write.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { GrpcClient } from '../../../src/adapters/etcd/grpc-client';
import { encodeHeaderBlock } from '../../../src/adapters/etcd/http2/hpack';

function frame(type: number, flags: number, id: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(id, 5);
  return Buffer.concat([head, payload]);
}

const grpcMessage = (text: string) => {
  const body = Buffer.from(text);
  const head = Buffer.alloc(5);
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
};

/** Answers stream 1 (the watch) with headers only; every later stream, once its END_STREAM arrives, as above. */
function peer(socket: Socket): void {
  let buffered = Buffer.alloc(0);
  let skip = 24; // the client's preface
  socket.write(frame(0x4, 0, 0, Buffer.alloc(0))); // SETTINGS
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    if (skip) {
      const n = Math.min(skip, buffered.length);
      buffered = buffered.subarray(n);
      skip -= n;
    }
    while (buffered.length >= 9 && buffered.length >= 9 + buffered.readUIntBE(0, 3)) {
      const length = buffered.readUIntBE(0, 3);
      const [type, flags, id] = [buffered[3], buffered[4], buffered.readUInt32BE(5) & 0x7fffffff];
      buffered = buffered.subarray(9 + length);
      if (type === 0x1 && id === 1) socket.write(frame(0x1, 0x4, 1, encodeHeaderBlock([[':status', '200'], ['content-type', 'application/grpc']])));
      if (type === 0x0 && id > 1 && flags & 0x1) {
        socket.write(
          Buffer.concat([
            frame(0x1, 0x4, id, encodeHeaderBlock([[':status', '200'], ['content-type', 'application/grpc']])),
            frame(0x0, 0, id, grpcMessage('answer')),
            frame(0x1, 0x4 | 0x1, id, encodeHeaderBlock([['grpc-status', '0']])),
            frame(0x0, 0, 1, grpcMessage('event')),
          ]),
        );
      }
    }
  });
  socket.on('error', () => undefined);
}

describe('gRPC stream messages and unary answers', () => {
  let server: Server;
  let url: string;
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    server = createServer((s) => {
      sockets.add(s);
      peer(s);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('resolves the call before delivering the message that came behind it in the same read', async () => {
    const grpc = new GrpcClient([url]);
    const order: string[] = [];
    try {
      const stream = grpc.openStream('/test.Watch/Watch', { onMessage: (m) => order.push(`message ${m}`), onEnd: () => undefined });
      for (let i = 0; i < 20; i++) {
        const answer = await grpc.call('/test.KV/Txn', Buffer.from('x'), 5000);
        order.push(`call ${answer}`);
        await new Promise((r) => setTimeout(r, 5));
      }
      stream.cancel();
      expect(order).toEqual(Array.from({ length: 20 }, () => ['call answer', 'message event']).flat());
    } finally {
      grpc.close();
    }
  });
});
