/**
 * A watch on the wire, read from a raw socket: HTTP/1.1 chunks, one per batch of frames, each chunk's size its
 * payload's, and the stream closed by the zero chunk at its deadline. The frames are chunk-framed by the watch
 * stream itself (watch-sink.ts), once per frame for every watcher, so the framing is checked byte for byte here.
 */
import { connect } from 'node:net';
import { startTestServer, type TestServer } from '../support/test-server';

/** Sends one request and reads until the server closes or the terminating chunk arrives. */
function rawWatch(url: string, path: string, onHeaders: () => void): Promise<Buffer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nAccept: application/json\r\n\r\n`));
    const chunks: Buffer[] = [];
    let told = false;
    socket.on('data', (d) => {
      chunks.push(d);
      const all = Buffer.concat(chunks);
      if (!told && all.includes('\r\n\r\n')) {
        told = true;
        onHeaders();
      }
      if (all.subarray(-5).toString() === '0\r\n\r\n') {
        socket.destroy();
        resolve(all);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks)));
  });
}

/** The chunks of a chunked body, exactly as framed; throws on a malformed frame. */
function dechunk(body: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', at);
    if (eol < 0) throw new Error(`no chunk size line at ${at}`);
    const size = parseInt(body.subarray(at, eol).toString(), 16);
    if (!Number.isFinite(size)) throw new Error(`bad chunk size at ${at}`);
    const data = body.subarray(eol + 2, eol + 2 + size);
    if (body.subarray(eol + 2 + size, eol + 4 + size).toString() !== '\r\n') throw new Error(`chunk at ${at} not closed by CRLF`);
    if (size === 0) return out;
    out.push(data);
    at = eol + 4 + size;
  }
}

describe('a watch on the wire', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer('lmdb');
  });
  afterAll(async () => {
    await s.close();
  });

  test('frames travel as HTTP/1.1 chunks and the deadline ends them with the zero chunk', async () => {
    const path = '/api/v1/namespaces/default/configmaps';
    const create = (name: string) =>
      fetch(s.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ metadata: { name }, data: { k: 'é'.repeat(50) } }) });
    let created: Promise<unknown> = Promise.resolve();
    const wire = await rawWatch(s.url, `${path}?watch=1&timeoutSeconds=2`, () => {
      created = create('wire-a').then(() => create('wire-b'));
    });
    await created;
    const split = wire.indexOf('\r\n\r\n');
    const head = wire.subarray(0, split).toString();
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(head.toLowerCase()).toContain('transfer-encoding: chunked');
    const lines = dechunk(wire.subarray(split + 4)).flatMap((c) => c.toString('utf8').split('\n').filter(Boolean));
    const events = lines.map((l) => JSON.parse(l) as { type: string; object: { metadata: { name: string }; data: { k: string } } });
    expect(events.map((e) => [e.type, e.object.metadata.name])).toEqual([
      ['ADDED', 'wire-a'],
      ['ADDED', 'wire-b'],
    ]);
    expect(events[0].object.data.k).toBe('é'.repeat(50));
  });
});
