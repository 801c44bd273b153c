/** gRPC's length-prefixed messages out of HTTP/2 data that cuts and joins them at any byte. */
import { FrameReader } from '../../../src/adapters/etcd/grpc-client';

const framed = (...messages: string[]) =>
  Buffer.concat(messages.map((m) => {
    const body = Buffer.from(m);
    const head = Buffer.alloc(5);
    head.writeUInt32BE(body.length, 1);
    return Buffer.concat([head, body]);
  }));

function read(chunks: Buffer[]): { messages: string[]; complaint?: string } {
  const reader = new FrameReader();
  const messages: string[] = [];
  for (const c of chunks) {
    const complaint = reader.push(c, (m) => messages.push(m.toString()));
    if (complaint) return { messages, complaint };
  }
  return { messages };
}

describe('FrameReader', () => {
  const messages = ['', 'a', 'hello', 'x'.repeat(70_000)];
  const bytes = framed(...messages);

  it('reads messages that arrive several to a chunk', () => {
    expect(read([bytes]).messages).toEqual(messages);
  });

  it('reads messages cut at every possible byte', () => {
    for (let cut = 1; cut < 40; cut++) expect(read([bytes.subarray(0, cut), bytes.subarray(cut)]).messages).toEqual(messages);
    expect(read([bytes.subarray(0, bytes.length - 1), bytes.subarray(bytes.length - 1)]).messages).toEqual(messages);
  });

  it('copies a message spread over chunks into a buffer of its own, so that no chunk outlives its read', () => {
    const chunks: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += 1000) chunks.push(Buffer.from(bytes.subarray(at, at + 1000)));
    const reader = new FrameReader();
    const got: Buffer[] = [];
    for (const c of chunks) reader.push(c, (m) => got.push(m));
    expect(got.map(String)).toEqual(messages);
    const large = got[3];
    expect(large.byteLength).toBe(70_000);
    expect(large.buffer.byteLength).toBe(70_000);
    expect(chunks.some((c) => c.buffer === large.buffer)).toBe(false);
  });

  it('copies a message that sits inside one chunk out of it, since the connection reads into that memory again', () => {
    const big = 'x'.repeat(Buffer.poolSize);
    const chunk = framed('abc', 'def', big);
    const reader = new FrameReader();
    const got: Buffer[] = [];
    reader.push(chunk, (m) => got.push(m));
    chunk.fill(0); // the next read
    expect(got.map(String)).toEqual(['abc', 'def', big]);
    expect(got.every((m) => m.buffer !== chunk.buffer)).toBe(true);
    // Small ones share node's pool; a large one gets a buffer of its own, which nothing else keeps alive.
    expect(got[2].buffer.byteLength).toBe(big.length);
    expect(got[0].buffer.byteLength).toBe(Buffer.poolSize);
  });

  it('refuses a compressed frame instead of misreading it', () => {
    const bad = framed('zz');
    bad[0] = 1;
    expect(read([framed('ok'), bad]).complaint).toMatch(/compressed/);
  });
});
