/**
 * /openapi/v2 and /openapi/v3 (index and per group-version documents), built
 * once and served with ETags so that kubectl's cache works: the v3 index
 * links each document by content hash, and hashed URLs are immutable.
 */
import { createHash } from 'node:crypto';
import { Router, Request, Response } from 'express';
import type { ResourceDefinition } from '../../machinery/resource-definition';
import { groupVersionPath, openApiV2, openApiV3 } from './openapi-spec';

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

export function openApiRouter(defs: ResourceDefinition[]): Router {
  const router = Router();
  let v2: Served | undefined;
  let v3: Map<string, Served> | undefined;
  const v3Docs = () => {
    if (!v3) {
      const byGv = new Map<string, ResourceDefinition[]>();
      for (const d of defs) byGv.set(groupVersionPath(d), [...(byGv.get(groupVersionPath(d)) ?? []), d]);
      v3 = new Map([...byGv].map(([gv, ds]) => [gv, served(openApiV3(ds))]));
    }
    return v3;
  };
  router.get('/openapi/v2', (req, res) => {
    v2 ??= served(openApiV2(defs));
    sendDoc(req, res, v2, false);
  });
  router.get('/openapi/v3', (req, res) => {
    const paths = Object.fromEntries([...v3Docs()].map(([gv, d]) => [gv, { serverRelativeURL: `/openapi/v3/${gv}?hash=${d.hash}` }]));
    sendDoc(req, res, served({ paths }), false);
  });
  router.get(/^\/openapi\/v3\/(.+)$/, (req, res) => {
    const gv = (req.params as unknown as string[])[0];
    const doc = v3Docs().get(gv);
    if (!doc) {
      res.status(404).setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.end('404 page not found\n');
      return;
    }
    sendDoc(req, res, doc, req.query.hash === doc.hash);
  });
  return router;
}
