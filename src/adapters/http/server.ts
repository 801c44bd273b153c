/** The Express application: body limits, resources, discovery, health, version, and Status for everything else. */
import express, { Request, Response, NextFunction, RequestHandler } from 'express';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { ResourceDefinition } from '../../machinery/resource-definition';
import type { Registry } from '../../registry/registry';
import { discoveryRouter, type DiscoveryOnly } from './discovery';
import { healthRouter, HealthChecks } from './health';
import { resourceRouter } from './routes';
import { sendError } from './respond';
import { requestInfoFilter, requestInfoOf } from './request-info';
import { errors } from '../../machinery/status';
import { maxBodyBytes, readBody } from './body';
import type { WatchServer } from './watch';

export interface AppDeps {
  registry: Registry;
  health: HealthChecks;
  watch?: WatchServer;
  version: Record<string, string>;
  /** Extra routers (OpenAPI, metrics) mounted before resources. */
  extraRouters?: RequestHandler[];
  /** Resources listed in discovery that are answered by apiRouters rather than stored. */
  discoveryOnly?: DiscoveryOnly[];
  /** Routers that need the raw body, after the resources (reviews, TokenRequest). */
  apiRouters?: RequestHandler[];
  /** Middleware that sees every request first (metrics, request logs). */
  middleware?: RequestHandler[];
  address: () => string;
  /** Hears of each request and the size of its body (see readBody). */
  onRequest?: (bodyBytes: number) => void;
}

/** Runs handlers one after the other, as Express would for consecutive layers; an error goes to Express's error handler. */
function chain(handlers: RequestHandler[]): RequestHandler {
  return (req, res, done) => {
    let i = 0;
    // One continuation per request, advancing through the handlers.
    const next = (err?: unknown): void => {
      if (err !== undefined && err !== null) return done(err);
      if (i === handlers.length) return done();
      try {
        // As Express 5: a handler's rejected promise is an error too.
        const result = handlers[i++](req, res, next) as unknown;
        if (result instanceof Promise) result.catch(done);
      } catch (e) {
        done(e);
      }
    };
    next();
  };
}

/**
 * req.query is the query RequestInfo parsed (Express's own parser is off): the one parse of the URL serves
 * Express's readers too.
 */
function queryFromRequestInfo(app: express.Express): void {
  Object.defineProperty(app.request, 'query', {
    configurable: true,
    enumerable: true,
    get(this: Request) {
      return requestInfoOf(this).query.record;
    },
  });
}

/**
 * Server options under which node creates each request and response with the app's own prototypes (Express's
 * request and response helpers) from the start. Express sets those prototypes on every request it handles; on
 * objects that already have them that is a no-op, where changing the prototype of a live request and response
 * costs each request about 100 µs of CPU on a 2-core EPYC (measured on a bare node:http server, 64 clients).
 *
 * The constructors are classes extending node's, and the app's prototypes become theirs (with the same properties
 * and the same parents). A plain function calling node's constructor would do too, but V8 sizes an object by its
 * constructor: node's add over a dozen symbol-keyed fields, so each response turned into a dictionary-mode object
 * (about 2 µs to build instead of 0.2, and every later field access a hash lookup). A derived class is sized by its
 * base constructor.
 */
export function withAppPrototypes(app: express.Express): { IncomingMessage: typeof IncomingMessage; ServerResponse: typeof ServerResponse } {
  if (!(app.request instanceof IncomingMessage) || !(app.response instanceof ServerResponse)) throw new Error('express: app.request and app.response no longer extend node:http');
  class AppRequest extends IncomingMessage {}
  class AppResponse extends ServerResponse {}
  app.request = adopt(AppRequest.prototype, app.request) as unknown as typeof app.request;
  app.response = adopt(AppResponse.prototype, app.response) as unknown as typeof app.response;
  // Built once here, so a node whose constructors no longer allow this fails at start, not on the first request.
  new AppResponse(new AppRequest(new Socket()));
  return { IncomingMessage: AppRequest, ServerResponse: AppResponse as unknown as typeof ServerResponse };
}

/** `target` takes the place of `proto`: the same own properties (e.g. `app`, the query getter) and the same parent. */
function adopt(target: object, proto: object): object {
  for (const key of Reflect.ownKeys(proto)) {
    if (key === 'constructor') continue;
    Object.defineProperty(target, key, Object.getOwnPropertyDescriptor(proto, key)!);
  }
  Object.setPrototypeOf(target, Object.getPrototypeOf(proto) as object);
  return target;
}

/** What discovery lists: the served kinds, those also listed under upstream's group name, and the answered-only APIs. */
function discoverable(defs: readonly ResourceDefinition[], only: DiscoveryOnly[] = []) {
  // Without short names or categories: `kubectl get crd` finds one resource, ours, and warns of no other.
  const aliases = defs.filter((d) => d.discoverUpstreamGroup && d.upstreamGroup).map((d) => ({ ...d, group: d.upstreamGroup!, shortNames: [], categories: [] }));
  return [...defs, ...aliases, ...only];
}

export function createApp(deps: AppDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', false);
  queryFromRequestInfo(app);
  // The filters every request passes and the resources (nearly all the traffic) as one Express layer: each layer a
  // request walks through costs it the router's bookkeeping.
  app.use(
    chain([
      requestInfoFilter(),
      ...(deps.middleware ?? []),
      readBody(maxBodyBytes, deps.onRequest),
      resourceRouter(deps.registry.served, { registry: deps.registry, watch: deps.watch }),
    ]),
  );
  for (const r of deps.apiRouters ?? []) app.use(r);
  app.use(healthRouter(deps.health));
  app.get('/version', (_req, res) => {
    res.json(deps.version);
  });
  app.use(discoveryRouter(() => discoverable(deps.registry.definitions, deps.discoveryOnly), deps.address));
  for (const r of deps.extraRouters ?? []) app.use(r);
  // As upstream's NotFoundHandler: a Status, whatever the path.
  app.use((req: Request, res: Response) => sendError(req, res, errors.notFoundPath()));
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => sendError(req, res, err));
  return app;
}
