/**
 * Discovery documents generated from the served definitions: the legacy
 * /api, /apis, /apis/<g>, /apis/<g>/<v> documents and the aggregated
 * apidiscovery.k8s.io v2 (and v2beta1) lists that kubectl uses.
 */
import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ResourceDefinition } from '../../machinery/resource-definition';
import { errors } from '../../machinery/status';
import { send, sendError } from './respond';
import { requestInfoOf } from './request-info';

const allVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const mainVerbs = (def: ResourceDefinition) => (def.deleteCollection === false ? allVerbs.filter((v) => v !== 'deletecollection') : allVerbs);

/** A resource discovery lists beside the stored kinds: answered, not stored (the access reviews). */
export type DiscoveryOnly = Pick<ResourceDefinition, 'group' | 'version' | 'kind' | 'plural' | 'singular' | 'namespaced' | 'shortNames' | 'categories' | 'subresources'> & {
  verbs: string[];
};

type Discoverable = ResourceDefinition | DiscoveryOnly;

function verbsOf(def: Discoverable): string[] {
  return 'verbs' in def ? def.verbs : mainVerbs(def);
}

function groupsOf(defs: Discoverable[]): Map<string, Map<string, Discoverable[]>> {
  const groups = new Map<string, Map<string, Discoverable[]>>();
  for (const def of defs) {
    const versions = groups.get(def.group) ?? new Map<string, Discoverable[]>();
    versions.set(def.version, [...(versions.get(def.version) ?? []), def]);
    groups.set(def.group, versions);
  }
  return groups;
}

function apiResources(defs: Discoverable[]) {
  const out: Record<string, unknown>[] = [];
  for (const def of defs) {
    const base = { singularName: def.singular, namespaced: def.namespaced, kind: def.kind };
    out.push({
      name: def.plural,
      ...base,
      verbs: verbsOf(def),
      ...(def.shortNames.length ? { shortNames: def.shortNames } : {}),
      ...(def.categories.length ? { categories: def.categories } : {}),
      storageVersionHash: createHash('sha256').update(`${def.group}/${def.version}/${def.kind}`).digest('base64').slice(0, 11),
    });
    for (const [sub, s] of Object.entries(def.subresources)) {
      // A view in another kind (a custom resource's /scale) names that kind's group and version, as upstream does.
      const kind = s.view ? { group: s.view.group, version: s.view.version, kind: s.view.kind } : { kind: def.kind };
      out.push({ name: `${def.plural}/${sub}`, singularName: '', namespaced: def.namespaced, ...kind, verbs: [...s.verbs].sort() });
    }
  }
  return out;
}

function aggregatedGroup(group: string, versions: Map<string, Discoverable[]>) {
  return {
    metadata: { name: group, creationTimestamp: null },
    versions: [...versions.entries()].map(([version, defs]) => ({
      version,
      freshness: 'Current',
      resources: defs.map((def) => ({
        resource: def.plural,
        responseKind: { group: def.group, version: def.version, kind: def.kind },
        scope: def.namespaced ? 'Namespaced' : 'Cluster',
        singularResource: def.singular,
        verbs: verbsOf(def),
        ...(def.shortNames.length ? { shortNames: def.shortNames } : {}),
        ...(def.categories.length ? { categories: def.categories } : {}),
        ...(Object.keys(def.subresources).length
          ? {
              subresources: Object.entries(def.subresources).map(([sub, s]) => ({
                subresource: sub,
                responseKind: s.view ? { group: s.view.group, version: s.view.version, kind: s.view.kind } : { group: def.group, version: def.version, kind: def.kind },
                verbs: [...s.verbs].sort(),
              })),
            }
          : {}),
      })),
    })),
  };
}

/** Which aggregated version the Accept header asks for, if any. */
function aggregatedVersion(req: Request): 'v2' | 'v2beta1' | undefined {
  const accept = req.get('accept') ?? '';
  for (const part of accept.split(',')) {
    const p = part.replace(/\s/g, '');
    if (!p.includes('g=apidiscovery.k8s.io') || !p.includes('as=APIGroupDiscoveryList')) continue;
    if (p.includes('v=v2beta1')) return 'v2beta1';
    if (p.includes('v=v2')) return 'v2';
  }
  return undefined;
}

function sendAggregated(req: Request, res: Response, version: 'v2' | 'v2beta1', items: unknown[]): void {
  const body = JSON.stringify({ kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${version}`, metadata: {}, items });
  const etag = `"${createHash('sha512').update(body).digest('hex').toUpperCase()}"`;
  res.setHeader('Vary', 'Accept');
  res.setHeader('ETag', etag);
  if (req.get('if-none-match') === etag) {
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Type', `application/json;g=apidiscovery.k8s.io;v=${version};as=APIGroupDiscoveryList`);
  res.status(200).end(body);
}

/** The discovery documents, at the paths RequestInfo split (non-resource requests under /api and /apis). */
export function discoveryRouter(defs: () => Discoverable[], address: () => string): RequestHandler {
  const groupDoc = (group: string, versions: Map<string, Discoverable[]>) => {
    const list = [...versions.keys()].map((v) => ({ groupVersion: `${group}/${v}`, version: v }));
    return { name: group, versions: list, preferredVersion: list[0] };
  };
  const api = (req: Request, res: Response) => {
    const groups = groupsOf(defs());
    const agg = aggregatedVersion(req);
    if (agg) return sendAggregated(req, res, agg, groups.has('') ? [aggregatedGroup('', groups.get('')!)] : []);
    send(req, res, 200, { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: address() }] });
  };
  const apis = (req: Request, res: Response) => {
    const groups = [...groupsOf(defs()).entries()].filter(([g]) => g !== '');
    const agg = aggregatedVersion(req);
    if (agg) return sendAggregated(req, res, agg, groups.map(([g, v]) => aggregatedGroup(g, v)));
    send(req, res, 200, { kind: 'APIGroupList', apiVersion: 'v1', groups: groups.map(([g, v]) => groupDoc(g, v)) });
  };
  const resourceList = (res: Response, req: Request, group: string, version: string) => {
    const list = groupsOf(defs()).get(group)?.get(version);
    if (!list) return sendError(req, res, errors.notFoundPath());
    const groupVersion = group ? `${group}/${version}` : version;
    send(req, res, 200, { kind: 'APIResourceList', ...(group ? { apiVersion: 'v1' } : {}), groupVersion, resources: apiResources(list) });
  };
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const { segments } = requestInfoOf(req);
    if (segments[0] === 'api') {
      if (segments.length === 1) return api(req, res);
      if (segments.length === 2 && segments[1] === 'v1') return resourceList(res, req, '', 'v1');
    } else if (segments[0] === 'apis') {
      if (segments.length === 1) return apis(req, res);
      if (segments.length === 2) {
        const versions = segments[1] ? groupsOf(defs()).get(segments[1]) : undefined;
        if (!versions) return sendError(req, res, errors.notFoundPath());
        return send(req, res, 200, { kind: 'APIGroup', apiVersion: 'v1', ...groupDoc(segments[1], versions) });
      }
      if (segments.length === 3 && segments[1]) return resourceList(res, req, segments[1], segments[2]);
    }
    next();
  };
}
