/**
 * Express middleware that records request metrics and logs requests the way
 * kube-apiserver's verbosity levels do: every request at `debug`, only slow
 * ones at `info` (so a busy server does not write a line per request), and
 * the /metrics endpoint.
 */
import type { Request, Response, NextFunction, RequestHandler } from 'express';
import { Router } from 'express';
import type { ApiMetrics } from './metrics';

export interface RequestInfo {
  verb: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  scope: string;
  component: string;
}

const verbOfMethod: Record<string, [item: string, collection: string]> = {
  GET: ['GET', 'LIST'],
  POST: ['POST', 'POST'],
  PUT: ['PUT', 'PUT'],
  PATCH: ['PATCH', 'PATCH'],
  DELETE: ['DELETE', 'DELETECOLLECTION'],
};
const truthy = new Set(['1', 'true', 't']);

/** Kubernetes request info from a URL: the verb as upstream names it, and the resource it addresses. */
export function requestInfo(method: string, path: string, query: Record<string, unknown>): RequestInfo {
  const parts = path.split('/').filter(Boolean);
  const info: RequestInfo = { verb: method.toUpperCase(), group: '', version: '', resource: '', subresource: '', scope: '', component: 'apiserver' };
  let i: number; // where the rest of the path starts
  if (parts[0] === 'api' && parts.length >= 2) {
    info.version = parts[1];
    i = 2;
  } else if (parts[0] === 'apis' && parts.length >= 3) {
    info.group = parts[1];
    info.version = parts[2];
    i = 3;
  } else return info;
  let watchPath = false;
  if (parts[i] === 'watch') {
    watchPath = true;
    i++;
  }
  let namespaced = false;
  if (parts[i] === 'namespaces' && parts.length - i >= 3) {
    namespaced = true;
    i += 2;
  }
  info.resource = parts[i] ?? '';
  const name = parts[i + 1];
  info.subresource = parts[i + 2] ?? '';
  info.scope = name ? 'resource' : namespaced ? 'namespace' : 'cluster';
  const watch = query.watch;
  const watching = watchPath || (typeof watch === 'string' && truthy.has(watch));
  const verbs = verbOfMethod[method];
  info.verb = watching && method === 'GET' ? 'WATCH' : verbs ? verbs[name ? 0 : 1] : method;
  return info;
}

export interface RequestLog {
  (level: string, msg: string, extra?: object): void;
  /** Whether lines at this level are written at all (absent: assume they are). */
  enabled?(level: string): boolean;
}

/** Requests taking longer than this are logged at info (watches, being long-running, never are). */
export const slowRequestSeconds = 1;

/** The metric series of one label set, bound once and reused: no label hashing per request. */
interface BoundSeries {
  longrunning: { inc(): void; dec(): void };
  duration: { observe(v: number): void };
  requests: Map<number, { inc(): void }>;
  labels: RequestInfo;
}

export function metricsMiddleware(metrics: ApiMetrics, log: RequestLog, slowSeconds = slowRequestSeconds): RequestHandler {
  const debug = log.enabled?.('debug') ?? true;
  const inflight = { readOnly: metrics.inflight.bind({ request_kind: 'readOnly' }), mutating: metrics.inflight.bind({ request_kind: 'mutating' }) };
  const series = new Map<string, BoundSeries>();
  const bound = (info: RequestInfo): BoundSeries => {
    const key = `${info.verb}|${info.group}|${info.version}|${info.resource}|${info.subresource}|${info.scope}`;
    let s = series.get(key);
    if (!s) {
      // Unknown paths could grow this without bound; past a generous size, stop caching.
      const labels = { ...info } as Record<string, string>;
      s = { longrunning: metrics.longrunning.bind(labels), duration: metrics.duration.bind(labels), requests: new Map(), labels: info };
      if (series.size < 10_000) series.set(key, s);
    }
    return s;
  };
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    const info = requestInfo(req.method, req.path, req.query as Record<string, unknown>);
    const isResource = info.resource !== '';
    const s = bound(info);
    const kind = info.verb === 'GET' || info.verb === 'LIST' || info.verb === 'WATCH' ? 'readOnly' : 'mutating';
    const long = info.verb === 'WATCH';
    if (long) s.longrunning.inc();
    else inflight[kind].inc();
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      const seconds = (performance.now() - started) / 1000;
      if (long) s.longrunning.dec();
      else inflight[kind].dec();
      if (isResource) {
        let counter = s.requests.get(res.statusCode);
        if (!counter) s.requests.set(res.statusCode, (counter = metrics.requests.bind({ ...s.labels, code: String(res.statusCode) })));
        counter.inc();
        if (!long) s.duration.observe(seconds);
      }
      const slow = !long && seconds >= slowSeconds;
      if (!slow && !debug) return;
      log(slow ? 'info' : 'debug', slow ? 'slow request' : 'request', {
        method: req.method,
        path: req.originalUrl,
        user: (res.locals.user as { username?: string } | undefined)?.username ?? 'system:admin',
        userAgent: req.get('user-agent'),
        status: res.statusCode,
        latencyMs: Math.round(seconds * 1e6) / 1e3,
      });
    };
    // 'close' follows 'finish' (a tick later) and also comes when the client goes away first: one listener covers both.
    res.on('close', finish);
    next();
  };
}

export function metricsRouter(metrics: ApiMetrics): Router {
  const router = Router();
  router.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', metrics.registry.contentType);
    res.end(await metrics.registry.metrics());
  });
  return router;
}
