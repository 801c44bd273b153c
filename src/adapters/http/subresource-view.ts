/**
 * Handlers of a subresource served as a view in another kind (a custom
 * resource's /scale as autoscaling/v1 Scale): GET answers the view; PUT
 * takes a view; PATCH (JSON, merge or strategic merge) patches the view.
 */
import type { Request, Response } from 'express';
import { errors } from '../../machinery/status';
import { isPlainObject, type KObject } from '../../machinery/object';
import type { ResourceDefinition, SubresourceView } from '../../machinery/resource-definition';
import type { Registry } from '../../registry/registry';
import { patchContentTypes, patchTypeOf } from '../../registry/request';
import { applyJsonPatch } from '../../machinery/patch/json-patch';
import { applyMergePatch } from '../../machinery/patch/merge-patch';
import { decodeJson, decodeObjectBody, negotiate } from './media';
import { writeOptions } from './options';
import { send, sendError, setWarnings } from './respond';
import type { Call } from './resource-handlers';

type Handler = (req: Request, res: Response, call: Call) => Promise<void>;

export function viewHandlers(def: ResourceDefinition, subresource: string, view: SubresourceView, registry: Registry): { get: Handler; update: Handler; patch: Handler } {
  const answer = (req: Request, res: Response, obj: KObject) => send(req, res, 200, view.toView(obj), negotiate(req.get('accept')) === 'yaml' ? 'yaml' : 'json');
  const guard = (fn: Handler): Handler => async (req, res, call) => {
    try {
      await fn(req, res, call);
    } catch (e) {
      sendError(req, res, e);
    }
  };
  const apiVersion = `${view.group}/${view.version}`;
  /** The body must be the view's kind (a Scale for /scale), as upstream decodes it. */
  const checkKind = (body: unknown): KObject => {
    if (!isPlainObject(body)) throw errors.badRequest(`${view.kind} in version "${view.version}" cannot be handled as a ${view.kind}: the body must be an object`);
    if ((body.apiVersion !== undefined && body.apiVersion !== apiVersion) || (body.kind !== undefined && body.kind !== view.kind)) {
      throw errors.badRequest(`the API version in the data (${String(body.apiVersion)}) does not match the expected API version (${apiVersion})`);
    }
    if (!isPlainObject(body.metadata)) body.metadata = {};
    return body as KObject;
  };
  return {
    get: guard(async (req, res, call) => answer(req, res, (await registry.get(def, call.namespace, call.name!, call.info.query.first('resourceVersion'))).object)),
    update: guard(async (req, res, call) => {
      const body = checkKind(decodeObjectBody(req.get('content-type'), Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)).object);
      const opts = writeOptions(req, call.info.query, 'UpdateOptions');
      const written = await registry.updateView(def, call.namespace, call.name!, subresource, opts, () => body);
      setWarnings(res, opts.warnings);
      answer(req, res, written.object);
    }),
    patch: guard(async (req, res, call) => {
      // Scale is a built-in type: strategic merge applies to it, as merge would (it has no lists).
      const type = patchTypeOf(req.get('content-type'), true);
      if (!type || type === 'apply') throw errors.unsupportedMediaType(patchContentTypes(true).filter((t) => !t.includes('apply')));
      const patch = decodeJson(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)).object;
      const opts = writeOptions(req, call.info.query, 'PatchOptions');
      const written = await registry.updateView(def, call.namespace, call.name!, subresource, opts, (current) =>
        checkKind(type === 'json' ? applyJsonPatch(current, patch) : applyMergePatch(current, patch)),
      );
      setWarnings(res, opts.warnings);
      answer(req, res, written.object);
    }),
  };
}
