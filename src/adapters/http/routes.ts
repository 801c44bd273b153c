/**
 * Express routes generated from the served definitions, at the spec's paths
 * (§4.1), plus the cluster-wide list and the deprecated /watch/ paths.
 */
import { Router, Request, Response } from 'express';
import { errors } from '../../machinery/status';
import { apiVersionOf, ResourceDefinition } from '../../machinery/resource-definition';
import { servedAs } from './group-alias';
import { HandlerDeps, resourceHandlers } from './resource-handlers';
import { sendError } from './respond';

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

function notAllowed(def: ResourceDefinition) {
  return (req: Request, res: Response) => sendError(req, res, errors.methodNotAllowed(req.method.toLowerCase(), def));
}

function groupBy(defs: ResourceDefinition[], rootOf: (d: ResourceDefinition) => string): Map<string, ResourceDefinition[]> {
  const byRoot = new Map<string, ResourceDefinition[]>();
  for (const def of defs) byRoot.set(rootOf(def), [...(byRoot.get(rootOf(def)) ?? []), def]);
  return byRoot;
}

export function resourceRouter(defs: ResourceDefinition[], deps: HandlerDeps): Router {
  // One sub-router per group-version, mounted at its root: a request only walks its own group's routes.
  const router = Router();
  for (const [root, group] of groupBy(defs, groupVersionRoot)) router.use(root, groupRouter(group, root, deps));
  // The same routes under upstream's group name, where a kind declares one.
  const aliased = defs.filter((d) => d.upstreamGroup);
  for (const [root, group] of groupBy(aliased, (d) => `/apis/${d.upstreamGroup}/${d.version}`)) {
    const alias = { served: `${group[0].upstreamGroup}/${group[0].version}`, canonical: apiVersionOf(group[0]) };
    router.use(root, servedAs(alias), groupRouter(group, groupVersionRoot(group[0]), deps));
  }
  return router;
}

function groupRouter(defs: ResourceDefinition[], root: string, deps: HandlerDeps): Router {
  const router = Router({ mergeParams: true });
  const rel = (path: string) => path.slice(root.length);
  for (const def of defs) {
    const h = resourceHandlers(def, deps);
    const p = resourcePaths(def);
    const deny = notAllowed(def);
    const collection = router.route(rel(p.collection)).get(h.list).post(h.create);
    if (def.deleteCollection !== false) collection.delete(h.removeCollection);
    collection.all(deny);
    if (p.allNamespaces) router.route(rel(p.allNamespaces)).get(h.list).all(deny);
    router.route(rel(p.watchCollection)).get(h.list).all(deny);
    if (p.watchAllNamespaces) router.route(rel(p.watchAllNamespaces)).get(h.list).all(deny);
    router
      .route(rel(p.watchItem))
      .get((req, res, next) => {
        const name = req.params.name as string;
        const fs = typeof req.query.fieldSelector === 'string' ? req.query.fieldSelector : '';
        const conflicting = fs.split(',').some((t) => /^metadata\.name!?==?/.test(t) && t.replace(/^metadata\.name==?/, '') !== name);
        if (conflicting) return sendError(req, res, errors.badRequest("fieldSelector metadata.name doesn't match requested name"));
        const selector = fs ? `${fs},metadata.name=${name}` : `metadata.name=${name}`;
        Object.defineProperty(req, 'query', { value: { ...req.query, fieldSelector: selector }, configurable: true });
        return h.list(req, res).catch(next);
      })
      .all(deny);
    router.route(rel(p.item)).get(h.get()).put(h.update()).patch(h.patch()).delete(h.remove).all(deny);
    for (const [name, sub] of Object.entries(def.subresources)) {
      const route = router.route(`${rel(p.item)}/${name}`);
      if (sub.verbs.includes('get')) route.get(h.get(name));
      if (sub.verbs.includes('update')) route.put(h.update(name));
      if (sub.verbs.includes('patch')) route.patch(h.patch(name));
      route.all(deny);
    }
  }
  return router;
}
