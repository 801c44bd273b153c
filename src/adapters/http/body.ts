/**
 * Request bodies, read straight into one Buffer (`req.body`) with the size
 * limit kept. Compressed bodies (Content-Encoding other than identity) go
 * through body-parser, which inflates them; nearly every client sends plain
 * ones, and those skip its per-request setup.
 */
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { errors } from '../../machinery/status';

export const maxBodyBytes = 3 * 1024 * 1024;

/** `onRequest` hears of every request, with the size of its body when one is read whole (the heap trimmer counts them). */
export function readBody(limit = maxBodyBytes, onRequest?: (bodyBytes: number) => void): RequestHandler {
  const inflating = express.raw({ type: () => true, limit });
  const tooLarge = () => errors.requestEntityTooLarge(`limit is ${limit}`);
  return (req: Request, res: Response, next: NextFunction) => {
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
      onRequest?.(0);
      return inflating(req, res, next);
    }
    const length = req.headers['content-length'];
    // No body at all, as for nearly every GET: req.body stays undefined, as with body-parser.
    if (req.headers['transfer-encoding'] === undefined && (length === undefined || length === '0')) {
      onRequest?.(0);
      return next();
    }
    if (length !== undefined && Number(length) > limit) {
      onRequest?.(0);
      req.resume();
      return next(tooLarge());
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      req.removeListener('data', onData);
      req.resume(); // drain what is still coming, so the answer can go out on a live connection
      next(err);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) fail(tooLarge());
      else chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => {
      if (failed) return;
      req.body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
      onRequest?.(size);
      next();
    });
    // A client that goes away mid-body ends in 'error' too ("aborted", after the deprecated 'aborted' event).
    req.on('error', (e) => fail(errors.badRequest(`the request body could not be read: ${e.message}`)));
  };
}
