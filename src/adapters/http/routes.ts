/**
 * Resource paths, dispatched from the request's RequestInfo (never a second
 * reading of the URL): the group-version root from its group and version,
 * the kind from its resource, and the shape (collection, item, subresource,
 * all namespaces, the deprecated /watch/ paths) from its parts and verb.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { errors } from '../../machinery/status';
import { apiVersionOf, ResourceDefinition } from '../../machinery/resource-definition';
import type { RequestInfo } from '../../auth/request-info';
import type { DefinitionSet } from '../../registry/definition-set';
import { servedAs } from './group-alias';
import { HandlerDeps, resourceHandlers, type Call } from './resource-handlers';
import { sendError, setWarnings } from './respond';
import { viewHandlers } from './subresource-view';
import { requestInfoOf } from './request-info';

function groupVersionRoot(def: Pick<ResourceDefinition, 'group' | 'version'>): string {
  return def.group ? `apis/${def.group}/${def.version}` : `api/${def.version}`;
}

/** The path templates of a kind (OpenAPI publishes them). */
export function resourcePaths(def: ResourceDefinition) {
  const root = `/${groupVersionRoot(def)}`;
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
type Handler = (req: Request, res: Response, call: Call) => Promise<void> | void;

/** What a path names once the root (and namespace) are taken off. */
type Shape = 'collection' | 'allNamespaces' | 'item' | 'watchCollection' | 'watchItem';

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

const reads = (fn: Handler) => new Map([['GET', fn], ['HEAD', fn]]);

function served(def: ResourceDefinition, h: Handlers, deps: HandlerDeps): Served {
  const collection = new Map<string, Handler>([['GET', h.list], ['HEAD', h.list], ['POST', h.create]]);
  if (def.deleteCollection !== false) collection.set('DELETE', h.removeCollection);
  const subresources = new Map<string, Map<string, Handler>>();
  for (const [name, sub] of Object.entries(def.subresources)) {
    const verbs = new Map<string, Handler>();
    const at = sub.view ? viewHandlers(def, name, sub.view, deps.registry) : { get: h.get(name), update: h.update(name), patch: h.patch(name) };
    if (sub.verbs.includes('get')) for (const m of ['GET', 'HEAD']) verbs.set(m, at.get);
    if (sub.verbs.includes('update')) verbs.set('PUT', at.update);
    if (sub.verbs.includes('patch')) verbs.set('PATCH', at.patch);
    subresources.set(name, verbs);
  }
  const item = h.get();
  return {
    def,
    verbs: {
      collection,
      allNamespaces: reads(h.list),
      item: new Map<string, Handler>([['GET', item], ['HEAD', item], ['PUT', h.update()], ['PATCH', h.patch()], ['DELETE', h.remove]]),
      watchCollection: reads(h.watch),
      watchItem: reads(h.watchItem),
    },
    subresources,
  };
}

interface Match {
  target: Served;
  shape: Shape | 'subresource';
  namespace?: string;
  name?: string;
  subresource?: string;
}

/** The kind and shape a resource request names in this group-version, as the spec's paths (§4.1) lay them out. */
function match(gv: GroupVersion, info: RequestInfo): Match | undefined {
  const { parts, namespace } = info;
  // An empty segment (a doubled slash) names nothing; proxy is not served.
  if (parts.length === 0 || parts.includes('') || namespace === '' || info.verb === 'proxy') return undefined;
  const target = gv.byPlural.get(parts[0]);
  if (!target) return undefined;
  const watch = info.verb === 'watch';
  const inNamespace = info.namespacedPath === true;
  if (target.def.namespaced !== inNamespace) {
    const all = !inNamespace && target.def.namespaced && parts.length === 1;
    return all ? { target, shape: watch ? 'watchCollection' : 'allNamespaces' } : undefined;
  }
  const ns = inNamespace ? namespace : undefined;
  if (parts.length === 1) return { target, shape: watch ? 'watchCollection' : 'collection', namespace: ns };
  if (parts.length === 2) return { target, shape: watch ? 'watchItem' : 'item', namespace: ns, name: parts[1] };
  if (parts.length === 3 && !watch) return { target, shape: 'subresource', namespace: ns, name: parts[1], subresource: parts[2] };
  return undefined;
}

function groupVersions(defs: readonly ResourceDefinition[], deps: HandlerDeps, built: WeakMap<ResourceDefinition, Served>): Map<string, GroupVersion> {
  const roots = new Map<string, GroupVersion>();
  const add = (root: string, def: ResourceDefinition, target: Served, alias?: GroupVersion['alias']) => {
    const gv = roots.get(root) ?? { byPlural: new Map(), alias };
    gv.byPlural.set(def.plural, target);
    roots.set(root, gv);
  };
  for (const def of defs) {
    let target = built.get(def);
    if (!target) built.set(def, (target = served(def, resourceHandlers(def, deps), deps)));
    add(groupVersionRoot(def), def, target);
    // The same paths under upstream's group name, where a kind declares one.
    if (def.upstreamGroup) {
      const upstream = { group: def.upstreamGroup, version: def.version };
      add(groupVersionRoot(upstream), def, target, servedAs({ served: apiVersionOf(upstream), canonical: apiVersionOf(def) }));
    }
  }
  return roots;
}

/**
 * Every resource path in one lookup, built again when the served kinds
 * change. Requests it does not serve go on to the next handler (reviews,
 * discovery, health, then 404).
 */
export function resourceRouter(defs: DefinitionSet, deps: HandlerDeps): RequestHandler {
  const built = new WeakMap<ResourceDefinition, Served>();
  let version = defs.version;
  let roots = groupVersions(defs.all, deps, built);
  return (req: Request, res: Response, next: NextFunction) => {
    if (version !== defs.version) {
      version = defs.version;
      roots = groupVersions(defs.all, deps, built);
    }
    const info = requestInfoOf(req);
    if (!info.resourceRequest) return next();
    const gv = roots.get(info.apiGroup ? `apis/${info.apiGroup}/${info.apiVersion}` : `${info.apiPrefix}/${info.apiVersion}`);
    const found = gv && match(gv, info);
    if (!found) return next();
    const verbs = found.shape === 'subresource' ? found.target.subresources.get(found.subresource!) : found.target.verbs[found.shape];
    if (!verbs) return next();
    const handler = verbs.get(req.method);
    if (!handler) return sendError(req, res, errors.methodNotAllowed(req.method.toLowerCase(), found.target.def));
    const call: Call = { info, namespace: found.namespace, name: found.name };
    // A deprecated version of a custom resource says so on every request, as upstream's CRD handler does.
    if (found.target.def.deprecationWarning) setWarnings(res, [found.target.def.deprecationWarning]);
    const run = () => void Promise.resolve(handler(req, res, call)).catch((e) => sendError(req, res, e));
    if (gv.alias) gv.alias(req, res, run);
    else run();
  };
}
