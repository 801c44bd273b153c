/**
 * Express middleware that records request metrics and logs requests the way
 * kube-apiserver's verbosity levels do: every request at `debug`, only slow
 * ones at `info` (so a busy server does not write a line per request), and
 * the /metrics endpoint.
 */
import type { Request, Response, NextFunction, RequestHandler } from 'express';
import { Router } from 'express';
import type { ApiMetrics } from './metrics';
import type { RequestInfo } from '../../auth/request-info';

/** The labels of a request's series, as upstream's apiserver_request_total names them. */
export interface RequestLabels {
  verb: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  scope: string;
  component: string;
}

const metricVerbs: Record<string, string> = {
  get: 'GET',
  list: 'LIST',
  watch: 'WATCH',
  create: 'POST',
  update: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
  deletecollection: 'DELETECOLLECTION',
  proxy: 'CONNECT',
};

/**
 * Labels from the request's RequestInfo (never the URL again): the verb as upstream's CleanVerb reports it (APPLY for
 * an apply patch), and the scope of the route (an item path or a create is "resource").
 */
export function requestLabels(info: RequestInfo, method: string, contentType: string | undefined): RequestLabels {
  const labels: RequestLabels = { verb: method, group: '', version: '', resource: '', subresource: '', scope: '', component: 'apiserver' };
  if (!info.resourceRequest) return labels;
  labels.verb = metricVerbs[info.verb] ?? method;
  if (labels.verb === 'PATCH' && contentType?.split(';')[0].trim() === 'application/apply-patch+yaml') labels.verb = 'APPLY';
  labels.group = info.apiGroup ?? '';
  labels.version = info.apiVersion ?? '';
  labels.resource = info.resource ?? '';
  labels.subresource = info.subresource ?? '';
  labels.scope = info.parts.length >= 2 || info.verb === 'create' ? 'resource' : info.namespacedPath ? 'namespace' : 'cluster';
  return labels;
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
  labels: RequestLabels;
}

/** `infoOf`: the request's RequestInfo, computed once before this middleware runs. */
export function metricsMiddleware(metrics: ApiMetrics, log: RequestLog, infoOf: (req: Request) => RequestInfo, slowSeconds = slowRequestSeconds): RequestHandler {
  const debug = log.enabled?.('debug') ?? true;
  const inflight = { readOnly: metrics.inflight.bind({ request_kind: 'readOnly' }), mutating: metrics.inflight.bind({ request_kind: 'mutating' }) };
  const series = new Map<string, BoundSeries>();
  const bound = (info: RequestLabels): BoundSeries => {
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
    const info = infoOf(req);
    const isResource = info.resourceRequest;
    const s = bound(requestLabels(info, req.method, req.headers['content-type']));
    const kind = req.method === 'GET' || req.method === 'HEAD' ? 'readOnly' : 'mutating';
    const long = info.longRunning;
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
