/**
 * The request's RequestInfo (src/auth/request-info.ts), computed by the first
 * filter every request passes and kept on the request: every later reader
 * (metrics, access, audit, routes, options) takes it from here.
 */
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { QueryValues, requestInfo, type RequestInfo } from '../../auth/request-info';

const infoKey = Symbol('requestInfo');

type WithInfo = IncomingMessage & { [infoKey]?: RequestInfo };

export function requestInfoOf(req: IncomingMessage): RequestInfo {
  const info = (req as WithInfo)[infoKey];
  if (!info) throw new Error('request info read before the request-info filter ran');
  return info;
}

/** The first filter: what the request is, once. A malformed path escape is the client's 400. */
export function requestInfoFilter(): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    try {
      (req as WithInfo)[infoKey] = requestInfo(req.method, req.url);
    } catch (e) {
      // Still a request the error can be written for: a path, nothing else known about it.
      const path = req.url.split('?')[0];
      (req as WithInfo)[infoKey] = { verb: req.method.toLowerCase(), resourceRequest: false, path, segments: [], parts: [], longRunning: false, query: QueryValues.empty };
      return next(e); // the app's error handler writes the Status
    }
    next();
  };
}
