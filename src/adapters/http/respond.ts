/** Writing objects and Status errors, in the negotiated encoding. */
import { uniqueStrings } from '../../machinery/unique-strings';
import type { Request, Response } from 'express';
import { ApiError, errors, Status } from '../../machinery/status';
import { encodeBody, negotiate, ResponseFormat } from './media';
import { clientRequestError } from './client-errors';
import { storageErrorStatus } from '../../registry/storage-errors';
import { requestInfoOf } from './request-info';

export function wantsPretty(req: Request): boolean {
  const p = requestInfoOf(req).query.first('pretty');
  if (p !== undefined) return p === 'true' || p === '1';
  const ua = req.get('user-agent') ?? '';
  return /^(curl|Wget|Mozilla)\//.test(ua);
}

/** Upstream's Warning header: code 299, agent "-", quoted text with `"` and `\` escaped; added to those set already. */
export function setWarnings(res: Response, warnings: string[]): void {
  const unique = uniqueStrings(warnings);
  if (unique.length === 0) return;
  const before = res.getHeader('Warning');
  const values = unique.map((w) => `299 - "${w.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`);
  res.setHeader('Warning', before === undefined ? values : [...(Array.isArray(before) ? before : [String(before)]), ...values]);
}

export function send(req: Request, res: Response, code: number, value: unknown, format: ResponseFormat = 'json'): void {
  const { contentType, body } = encodeBody(format, value, wantsPretty(req));
  sendBytes(res, code, contentType, body);
}

/**
 * A whole response. Where something wraps the response (audit, the group alias), its headers go through
 * setHeader and end() adds the Content-Length, so that the wrappers see them. Otherwise both go to writeHead as
 * one list: node keeps setHeader's headers in a null-prototype object, and its first key is a store through V8's
 * runtime (5-6 µs of a 140 µs cached GET here).
 */
export function sendBytes(res: Response, code: number, contentType: string, body: Buffer | string): void {
  if (wrapped(res)) {
    res.statusCode = code;
    res.setHeader('Content-Type', contentType);
    res.end(body);
    return;
  }
  res.writeHead(code, ['Content-Type', contentType, 'Content-Length', String(typeof body === 'string' ? Buffer.byteLength(body) : body.length)]);
  res.end(body);
}

const own = (res: Response, method: string) => Object.prototype.hasOwnProperty.call(res, method);

/** Whether a filter replaced the response's end() or setHeader() for this request. */
function wrapped(res: Response): boolean {
  return own(res, 'end') || own(res, 'setHeader');
}

/**
 * sendBytes for a body in pieces: one Content-Length for them all, and the pieces written in one go (corked), none
 * copied into a joined buffer first. Joined after all when something wraps the response's end() (audit keeps the
 * body it is given there, the group alias rewrites it), so that it sees the whole body.
 */
export function sendParts(res: Response, code: number, contentType: string, parts: readonly (Buffer | string)[]): void {
  if (parts.length === 1) return sendBytes(res, code, contentType, parts[0]);
  if (own(res, 'end')) return sendBytes(res, code, contentType, Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p))));
  res.statusCode = code;
  res.setHeader('Content-Type', contentType);
  let length = 0;
  for (const p of parts) length += typeof p === 'string' ? Buffer.byteLength(p) : p.length;
  res.setHeader('Content-Length', String(length));
  res.cork();
  for (let i = 0; i < parts.length - 1; i++) res.write(parts[i]);
  res.end(parts[parts.length - 1]);
  res.uncork();
}

export function toApiError(err: unknown, req?: Request): ApiError {
  if (err instanceof ApiError) return err;
  const storage = storageErrorStatus(err);
  if (storage) return storage;
  // Express and body-parser errors about the request carry an HTTP status of their own.
  const client = clientRequestError(err, req?.get('content-encoding')?.trim().toLowerCase());
  if (client) return client;
  const e = err as { message?: string };
  return errors.internal(e?.message ?? String(err));
}

export function sendError(req: Request, res: Response, err: unknown): void {
  const apiError = toApiError(err, req);
  // Unexpected failures only: storage timeouts and outages are expected, and already say what happened.
  if (apiError.code === 500 && !(err instanceof ApiError)) {
    console.log(JSON.stringify({ level: 'error', msg: 'request failed', path: req.path, error: (err as Error)?.stack ?? String(err) }));
  }
  const status: Status = apiError.status;
  const retry = status.details?.retryAfterSeconds;
  if (retry && retry > 0) res.setHeader('Retry-After', String(retry));
  if (res.headersSent) {
    res.end();
    return;
  }
  let format: ResponseFormat = 'json';
  try {
    format = negotiate(req.get('accept'));
  } catch {
    format = 'json';
  }
  send(req, res, apiError.code, status, format === 'yaml' ? 'yaml' : 'json');
}
