/**
 * Resource paths generated from the served definitions, at the spec's paths
 * (§4.1), plus the cluster-wide list and the deprecated /watch/ paths.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { errors } from '../../machinery/status';
import { apiVersionOf, ResourceDefinition } from '../../machinery/resource-definition';
import { servedAs } from './group-alias';
import { HandlerDeps, resourceHandlers } from './resource-handlers';
import { sendError } from './respond';
import { badEscape } from './client-errors';

function groupVersionRoot(def: ResourceDefinition): string {
  return def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`;
}

export function resourcePaths(def: ResourceDefinition) {
  const root = groupVersionRoot(def);
  const collection = def.namespaced ? `${root}/namespaces/:namespace/${def.plural}` : `${root}/${def.plural}`;
  return {
    root,
    collection,
    item: `${collection}/:name`,
    allNamespaces: def.namespaced ? `${root}/${def.plural}` : undefined,
    watchCollection: def.namespaced ? `${root}/watch/namespaces/:namespace/${def.plural}` : `${root}/watch/${def.plural}`,
    watchAllNamespaces: def.namespaced ? `${root}/watch/${def.plural}` : undefined,
    watchItem: def.namespaced ? `${root}/watch/namespaces/:namespace/${def.plural}/:name` : `${root}/watch/${def.plural}/:name`,
  };
}

type Handlers = ReturnType<typeof resourceHandlers>;
type Handler = (req: Request, res: Response) => Promise<void> | void;

/** What a path names, once the group-version root is taken off. */
type Shape = 'collection' | 'allNamespaces' | 'item' | 'subresource' | 'watchCollection' | 'watchAllNamespaces' | 'watchItem';

interface Served {
  def: ResourceDefinition;
  /** Method → handler, per shape; a method not listed is 405. */
  verbs: Record<Shape, Map<string, Handler>>;
  subresources: Map<string, Map<string, Handler>>;
}

interface GroupVersion {
  byPlural: Map<string, Served>;
  /** Set where the root is upstream's group name for ours. */
  alias?: ReturnType<typeof servedAs>;
}

function served(def: ResourceDefinition, h: Handlers): Served {
  const get = (fn: Handler) => new Map([['GET', fn], ['HEAD', fn]]);
  const collection = new Map<string, Handler>([['GET', h.list], ['HEAD', h.list], ['POST', h.create]]);
  if (def.deleteCollection !== false) collection.set('DELETE', h.removeCollection);
  const watching: Handler = (req, res) => h.list(req, res, true);
  const watchItem: Handler = (req, res) => {
    const name = req.params.name as string;
    const fs = typeof req.query.fieldSelector === 'string' ? req.query.fieldSelector : '';
    const conflicting = fs.split(',').some((t) => /^metadata\.name!?==?/.test(t) && t.replace(/^metadata\.name==?/, '') !== name);
    if (conflicting) return sendError(req, res, errors.badRequest("fieldSelector metadata.name doesn't match requested name"));
    const selector = fs ? `${fs},metadata.name=${name}` : `metadata.name=${name}`;
    Object.defineProperty(req, 'query', { value: { ...req.query, fieldSelector: selector }, configurable: true, writable: true });
    return h.list(req, res, true);
  };
  const subresources = new Map<string, Map<string, Handler>>();
  for (const [name, sub] of Object.entries(def.subresources)) {
    const verbs = new Map<string, Handler>();
    if (sub.verbs.includes('get')) for (const m of ['GET', 'HEAD']) verbs.set(m, h.get(name));
    if (sub.verbs.includes('update')) verbs.set('PUT', h.update(name));
    if (sub.verbs.includes('patch')) verbs.set('PATCH', h.patch(name));
    subresources.set(name, verbs);
  }
  const item = h.get();
  return {
    def,
    verbs: {
      collection,
      allNamespaces: get(h.list),
      item: new Map<string, Handler>([['GET', item], ['HEAD', item], ['PUT', h.update()], ['PATCH', h.patch()], ['DELETE', h.remove]]),
      subresource: new Map(),
      watchCollection: get(watching),
      watchAllNamespaces: get(watching),
      watchItem: get(watchItem),
    },
    subresources,
  };
}

/** A path segment as a parameter: percent-decoded, and a 400 for a malformed escape (never a 500). */
function param(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badEscape(segment);
  }
}

interface Match {
  target: Served;
  shape: Shape;
  namespace?: string;
  name?: string;
  subresource?: string;
}

function cluster(gv: GroupVersion, plural: string): Served | undefined {
  const t = gv.byPlural.get(plural);
  return t && !t.def.namespaced ? t : undefined;
}

function namespaced(gv: GroupVersion, plural: string): Served | undefined {
  const t = gv.byPlural.get(plural);
  return t?.def.namespaced ? t : undefined;
}

/** Matches the segments after a group-version root against its kinds, as the spec's paths (§4.1) lay them out. */
function match(gv: GroupVersion, rest: string[]): Match | undefined {
  const n = rest.length;
  const watch = rest[0] === 'watch';
  const s = watch ? rest.slice(1) : rest;
  // An empty segment (a doubled slash) names nothing, as with Express's routes before.
  if (n === 0 || rest.includes('')) return undefined;
  // .../namespaces/{ns}/{plural}[/{name}[/{sub}]] names a namespaced kind; anything else under namespaces/ is the
  // Namespace kind itself (a cluster-scoped plural) and falls through to the cluster-scoped shapes.
  if (s[0] === 'namespaces' && s.length >= 3) {
    const t = namespaced(gv, s[2]);
    if (t) {
      const namespace = param(s[1]);
      if (s.length === 3) return { target: t, shape: watch ? 'watchCollection' : 'collection', namespace };
      if (s.length === 4) return { target: t, shape: watch ? 'watchItem' : 'item', namespace, name: param(s[3]) };
      if (s.length === 5 && !watch) return { target: t, shape: 'subresource', namespace, name: param(s[3]), subresource: s[4] };
      return undefined;
    }
  }
  const t = cluster(gv, s[0]);
  if (t) {
    if (s.length === 1) return { target: t, shape: watch ? 'watchCollection' : 'collection' };
    if (s.length === 2) return { target: t, shape: watch ? 'watchItem' : 'item', name: param(s[1]) };
    if (s.length === 3 && !watch) return { target: t, shape: 'subresource', name: param(s[1]), subresource: s[2] };
    return undefined;
  }
  const all = s.length === 1 ? namespaced(gv, s[0]) : undefined;
  return all ? { target: all, shape: watch ? 'watchAllNamespaces' : 'allNamespaces' } : undefined;
}

function groupVersions(defs: ResourceDefinition[], deps: HandlerDeps): Map<string, GroupVersion> {
  const roots = new Map<string, GroupVersion>();
  const add = (root: string, def: ResourceDefinition, target: Served, alias?: GroupVersion['alias']) => {
    const gv = roots.get(root) ?? { byPlural: new Map(), alias };
    gv.byPlural.set(def.plural, target);
    roots.set(root, gv);
  };
  for (const def of defs) {
    const target = served(def, resourceHandlers(def, deps));
    add(groupVersionRoot(def), def, target);
    // The same paths under upstream's group name, where a kind declares one.
    if (def.upstreamGroup) {
      add(`/apis/${def.upstreamGroup}/${def.version}`, def, target, servedAs({ served: `${def.upstreamGroup}/${def.version}`, canonical: apiVersionOf(def) }));
    }
  }
  return roots;
}

/**
 * Every resource path in one lookup built at start: the group-version root
 * from the first segments, then the kind and shape from a map, instead of a
 * walk through a chain of Express routers. Paths it does not know go on to
 * the next handler (discovery, health, 404).
 */
export function resourceRouter(defs: ResourceDefinition[], deps: HandlerDeps): RequestHandler {
  const roots = groupVersions(defs, deps);
  return (req: Request, res: Response, next: NextFunction) => {
    let path = req.path;
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    const segments = path.split('/');
    // ['', 'api', v, ...] or ['', 'apis', group, v, ...]
    const depth = segments[1] === 'api' ? 3 : segments[1] === 'apis' ? 4 : 0;
    const gv = depth === 3 ? roots.get(`/api/${segments[2]}`) : depth === 4 ? roots.get(`/apis/${segments[2]}/${segments[3]}`) : undefined;
    if (!gv) return next();
    let found: Match | undefined;
    try {
      found = match(gv, segments.slice(depth));
    } catch (e) {
      return sendError(req, res, e);
    }
    if (!found) return next();
    const verbs = found.shape === 'subresource' ? found.target.subresources.get(found.subresource!) : found.target.verbs[found.shape];
    if (!verbs) return next();
    const handler = verbs.get(req.method);
    if (!handler) return sendError(req, res, errors.methodNotAllowed(req.method.toLowerCase(), found.target.def));
    const params: Record<string, string> = {};
    if (found.namespace !== undefined) params.namespace = found.namespace;
    if (found.name !== undefined) params.name = found.name;
    req.params = params;
    const run = () => void Promise.resolve(handler(req, res)).catch((e) => sendError(req, res, e));
    if (gv.alias) gv.alias(req, res, run);
    else run();
  };
}
