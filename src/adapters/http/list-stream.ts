/**
 * A list whose items are JSON bytes already, written item by item: the
 * response is never built as one string, and a large one streams in chunks
 * that respect socket backpressure.
 */
import type { Response } from 'express';
import type { EncodedList } from '../../registry/reader';

const chunkBytes = 64 * 1024;
const comma = Buffer.from(',');
const tail = Buffer.from(']}');

function head(list: EncodedList): Buffer {
  return Buffer.from(
    `{"kind":${JSON.stringify(list.kind)},"apiVersion":${JSON.stringify(list.apiVersion)},"metadata":${JSON.stringify(list.metadata)},"items":[`,
  );
}

export async function sendEncodedList(res: Response, list: EncodedList): Promise<void> {
  res.status(200).setHeader('Content-Type', 'application/json');
  let total = 0;
  for (const item of list.items) total += item.length + 1;
  if (total <= chunkBytes) {
    const parts: Buffer[] = [head(list)];
    list.items.forEach((item, i) => (i ? parts.push(comma, item) : parts.push(item)));
    parts.push(tail);
    res.end(Buffer.concat(parts));
    return;
  }
  let parts: Buffer[] = [head(list)];
  let size = parts[0].length;
  for (let i = 0; i < list.items.length; i++) {
    if (i) parts.push(comma);
    parts.push(list.items[i]);
    size += list.items[i].length + 1;
    if (size >= chunkBytes) {
      if (!(await write(res, Buffer.concat(parts)))) return;
      parts = [];
      size = 0;
    }
  }
  parts.push(tail);
  res.end(Buffer.concat(parts));
}

/** Writes a chunk; when the socket pushes back, waits for drain (false if the client went away). */
function write(res: Response, chunk: Buffer): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  if (res.write(chunk)) return Promise.resolve(true);
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
