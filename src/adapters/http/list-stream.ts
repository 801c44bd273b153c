/**
 * A list whose items are JSON bytes already, written as they are: the
 * response is never built as one string or one buffer. Small pieces are
 * gathered into chunks (one write per item would cost more than the copy),
 * big ones go out as they are, and a large list streams with the socket's
 * backpressure.
 */
import type { Response } from 'express';
import type { ListResult } from '../../registry/results';

const chunkBytes = 64 * 1024;
/** A piece this big is written without copying it into a chunk. */
const directBytes = 16 * 1024;
/**
 * How much may wait in the socket's queue before we wait for it to drain:
 * more than the stream's own mark, so that the kernel always has the next
 * bytes at hand; pieces are views of cached bytes, so queueing them costs
 * little memory.
 */
const queueBytes = 1024 * 1024;
const tail = Buffer.from(']}');

function head(list: ListResult): Buffer {
  return Buffer.from(
    `{"kind":${JSON.stringify(list.kind)},"apiVersion":${JSON.stringify(list.apiVersion)},"metadata":${JSON.stringify(list.metadata)},"items":[`,
  );
}

export async function sendEncodedList(res: Response, list: ListResult): Promise<void> {
  const first = head(list);
  const body = list.body;
  let total = first.length + tail.length;
  for (const piece of body) total += piece.length;
  res.status(200).setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', total);
  if (total <= chunkBytes) {
    res.end(Buffer.concat([first, ...body, tail], total));
    return;
  }
  let batch: Buffer[] = [first];
  let size = first.length;
  const flush = async (): Promise<boolean> => {
    const chunk = batch.length === 1 ? batch[0] : Buffer.concat(batch, size);
    batch = [];
    size = 0;
    return write(res, chunk);
  };
  for (const piece of body) {
    if (piece.length >= directBytes) {
      if (size && !(await flush())) return;
      if (!(await write(res, piece))) return;
      continue;
    }
    batch.push(piece);
    size += piece.length;
    if (size >= chunkBytes && !(await flush())) return;
  }
  batch.push(tail);
  size += tail.length;
  res.end(batch.length === 1 ? batch[0] : Buffer.concat(batch, size));
}

/** Writes a chunk; once much is queued, waits for the socket to drain (false if the client went away). */
function write(res: Response, chunk: Buffer): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  res.write(chunk);
  if (res.writableLength < queueBytes) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onDrain = () => settle(true);
    const onClose = () => settle(false);
    const settle = (ok: boolean) => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}
