/**
 * /openapi/v2 and /openapi/v3 (index and per group-version documents), built
 * once per set of served kinds and served with ETags so that kubectl's cache works: the v3 index
 * links each document by content hash, and hashed URLs are immutable.
 */
import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { ResourceDefinition } from '../../machinery/resource-definition';
import type { DefinitionSet } from '../../registry/definition-set';
import { groupVersionPath, openApiV2, openApiV3 } from './openapi-spec';
import { requestInfoOf } from './request-info';

interface Served {
  body: string;
  hash: string;
}

function served(doc: unknown): Served {
  const body = JSON.stringify(doc);
  return { body, hash: createHash('sha512').update(body).digest('hex').toUpperCase().slice(0, 128) };
}

function sendDoc(req: Request, res: Response, doc: Served, immutable: boolean): void {
  const etag = `"${doc.hash}"`;
  res.setHeader('ETag', etag);
  res.setHeader('Vary', 'Accept');
  res.setHeader('Cache-Control', immutable ? 'public, immutable' : 'no-cache, private');
  if (req.get('if-none-match') === etag) {
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Type', 'application/json');
  res.status(200).end(doc.body);
}

/** The OpenAPI documents of the served kinds, built when first asked for after the kinds changed. */
export function openApiRouter(defs: DefinitionSet): RequestHandler {
  let version = -1;
  let v2: Served | undefined;
  let v3: Map<string, Served> | undefined;
  const current = () => {
    if (version === defs.version) return;
    version = defs.version;
    v2 = undefined;
    v3 = undefined;
  };
  const v3Docs = () => {
    if (!v3) {
      const byGv = new Map<string, ResourceDefinition[]>();
      // Kinds discovery also lists under upstream's group are documented there too (kubectl validates against it).
      const aliases = defs.all.filter((d) => d.discoverUpstreamGroup && d.upstreamGroup).map((d) => ({ ...d, group: d.upstreamGroup! }));
      for (const d of [...defs.all, ...aliases]) byGv.set(groupVersionPath(d), [...(byGv.get(groupVersionPath(d)) ?? []), d]);
      v3 = new Map([...byGv].map(([gv, ds]) => [gv, served(openApiV3(ds))]));
    }
    return v3;
  };
  return (req: Request, res: Response, next: NextFunction) => {
    const { segments, query } = requestInfoOf(req);
    if (segments[0] !== 'openapi' || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    current();
    if (segments.length === 2 && segments[1] === 'v2') {
      v2 ??= served(openApiV2([...defs.all]));
      return sendDoc(req, res, v2, false);
    }
    if (segments[1] !== 'v3') return next();
    if (segments.length === 2) {
      const paths = Object.fromEntries([...v3Docs()].map(([gv, d]) => [gv, { serverRelativeURL: `/openapi/v3/${gv}?hash=${d.hash}` }]));
      return sendDoc(req, res, served({ paths }), false);
    }
    const doc = v3Docs().get(segments.slice(2).join('/'));
    if (!doc) return next();
    sendDoc(req, res, doc, query.first('hash') === doc.hash);
  };
}
