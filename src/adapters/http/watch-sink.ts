/**
 * Where a watch stream's bytes go. On an HTTP/1.1 chunked response the frames are framed as chunks once per frame
 * (the cache hands every watcher the same frame Buffer) and written to the socket in one write each: with thousands
 * of watchers, the response's own chunk framing (four writes gathered per frame) was most of the server's work per
 * watcher after the kernel's. Anything else (no socket, not chunked) goes through the response as before.
 */
import type { Socket } from 'node:net';
import type { Response } from 'express';

export interface WatchSink {
  /** Writes the bytes; false when the peer pushes back ('drain' then calls `onDrain`). */
  write(bytes: Buffer): boolean;
  onceDrained(onDrain: () => void): void;
}

const CRLF = Buffer.from('\r\n');
/**
 * The chunk-framed copies of the last few frames: the cache wakes every watcher of an event in one pass, so the
 * same frame comes by thousands of times in a row. A few only, so that the history never holds its frames twice.
 */
const recent: { frame?: Buffer; chunk?: Buffer }[] = Array.from({ length: 4 }, () => ({}));
let nextSlot = 0;

function chunk(bytes: Buffer): Buffer {
  for (const r of recent) if (r.frame === bytes) return r.chunk!;
  const c = Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, CRLF]);
  recent[nextSlot] = { frame: bytes, chunk: c };
  nextSlot = (nextSlot + 1) % recent.length;
  return c;
}

class ChunkedSocketSink implements WatchSink {
  constructor(private readonly socket: Socket) {}

  write(bytes: Buffer): boolean {
    return this.socket.write(chunk(bytes));
  }

  onceDrained(onDrain: () => void): void {
    this.socket.once('drain', onDrain);
  }
}

class ResponseSink implements WatchSink {
  constructor(private readonly res: Response) {}

  write(bytes: Buffer): boolean {
    return this.res.write(bytes);
  }

  onceDrained(onDrain: () => void): void {
    this.res.once('drain', onDrain);
  }
}

/**
 * After the headers are flushed: the socket itself when the response is HTTP/1.1 chunked and nothing rewrites what
 * it writes (a group served under upstream's name rewrites each frame's apiVersion), else the response.
 */
export function watchSink(res: Response): WatchSink {
  const socket = res.socket;
  const chunked = (res as unknown as { chunkedEncoding?: boolean }).chunkedEncoding === true;
  const rewritten = Object.prototype.hasOwnProperty.call(res, 'write');
  return socket && chunked && !rewritten && res.headersSent && res.req.httpVersionMajor === 1 ? new ChunkedSocketSink(socket) : new ResponseSink(res);
}
