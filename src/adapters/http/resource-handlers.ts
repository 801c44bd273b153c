/**
 * The verbs of one resource, as Express handlers: decode, call the registry,
 * encode. No kind-specific code: everything comes from the definition.
 */
import type { Request, Response } from 'express';
import { errors } from '../../machinery/status';
import { KObject, isPlainObject, typeMetaFirst } from '../../machinery/object';
import { ResourceDefinition, apiVersionOf } from '../../machinery/resource-definition';
import type { Registry } from '../../registry/registry';
import { patchContentTypes, patchTypeOf } from '../../registry/request';
import type { ObjectResult } from '../../registry/results';
import { JSON_TYPE, negotiate, ResponseFormat } from './media';
import { decodeRequestBody, rawBody } from './request-body';
import { canonicalizeBodyVersion } from './group-alias';
import { deleteOptions, listOptions, writeOptions } from './options';
import type { RequestInfo } from '../../auth/request-info';
import { send, sendError, sendParts, setWarnings, wantsPretty } from './respond';
import { sendEncodedList } from './list-stream';
import { renderList, renderObject } from './render';
import type { WatchServer } from './watch';

export interface HandlerDeps {
  registry: Registry;
  watch?: WatchServer;
}

/** What the router found a request to name: its RequestInfo, and the namespace and name of its path. */
export interface Call {
  info: RequestInfo;
  namespace?: string;
  name?: string;
}

type Handler = (req: Request, res: Response, call: Call) => Promise<void>;

/** DeleteOptions from the body when one was sent, else from the query (as upstream). */
function deleteOptionsOf(req: Request, call: Call) {
  const body = rawBody(req);
  if (body.length === 0 || body.toString('utf8').trim() === '') return deleteOptions(req, call.info.query, undefined);
  const decoded = decodeRequestBody(req).object;
  if (!isPlainObject(decoded)) throw errors.badRequest('DeleteOptions must be a JSON object');
  return deleteOptions(req, call.info.query, decoded);
}

/** A create/update body, with an aliased group's apiVersion read as ours. */
function bodyOf(req: Request, res: Response) {
  const decoded = decodeRequestBody(req);
  // The order the registry gives them anyway, without deleting keys from the parsed object.
  if (isPlainObject(decoded.object)) decoded.object = typeMetaFirst(decoded.object);
  canonicalizeBodyVersion(res, decoded.object);
  return decoded;
}

function guard(fn: Handler): Handler {
  return async (req, res, call) => {
    try {
      await fn(req, res, call);
    } catch (e) {
      sendError(req, res, e);
    }
  };
}

export function resourceHandlers(def: ResourceDefinition, deps: HandlerDeps) {
  const { registry } = deps;
  const requestVersion = apiVersionOf(def);
  const strategic = def.strategicMergePatch !== false;

  /** An object in the negotiated form: plain JSON straight from the result's bytes, anything else rendered. */
  const answer = (req: Request, res: Response, code: number, result: ObjectResult, fmt: ResponseFormat) => {
    if (fmt === 'json' && !wantsPretty(req)) sendParts(res, code, JSON_TYPE, result.jsonParts);
    else renderObject(req, res, def, code, result.object, fmt);
  };

  const format = (req: Request, list = false, watch = false): ResponseFormat => negotiate(req.get('accept'), { list, watch });

  /** A watch: by `watch` in the query (RequestInfo's verb) or one of the deprecated /watch/ paths. */
  const serveWatch = async (req: Request, res: Response, opts: ReturnType<typeof listOptions>) => {
    const fmt = format(req, true, true);
    if (!deps.watch) throw errors.methodNotAllowed('watch', def);
    await deps.watch.serve(def, req, res, opts, fmt);
  };

  const watch = guard((req, res, call) => serveWatch(req, res, listOptions(call.info.query, call.namespace)));

  /** /watch/.../{name}: a watch of the collection narrowed to that name (a conflicting name selector is a 400). */
  const watchItem = guard(async (req, res, call) => {
    const name = call.name!;
    const fs = call.info.query.first('fieldSelector') ?? '';
    const conflicting = fs.split(',').some((t) => /^metadata\.name!?==?/.test(t) && t.replace(/^metadata\.name==?/, '') !== name);
    if (conflicting) throw errors.badRequest("fieldSelector metadata.name doesn't match requested name");
    const opts = listOptions(call.info.query, call.namespace);
    opts.fieldSelector = fs ? `${fs},metadata.name=${name}` : `metadata.name=${name}`;
    await serveWatch(req, res, opts);
  });

  const list = guard(async (req, res, call) => {
    const opts = listOptions(call.info.query, call.namespace);
    if (call.info.verb === 'watch') return serveWatch(req, res, opts);
    const fmt = format(req, true);
    const result = await registry.list(def, opts);
    // Items stay the bytes the watch cache holds; the list is streamed, not built.
    if (fmt === 'json' && !wantsPretty(req)) await sendEncodedList(res, result);
    else renderList(req, res, def, result, fmt);
  });

  const create = guard(async (req, res, call) => {
    const fmt = format(req);
    const opts = writeOptions(req, call.info.query, 'CreateOptions');
    opts.apiVersion = requestVersion;
    const obj = registry.admitBody(def, bodyOf(req, res), opts.fieldValidation, opts.warnings);
    const created = await registry.create(def, call.namespace, obj, opts);
    setWarnings(res, opts.warnings);
    answer(req, res, 201, created, fmt);
  });

  const get = (subresource?: string) =>
    guard(async (req, res, call) => {
      const fmt = format(req);
      const rv = call.info.query.first('resourceVersion');
      void subresource;
      answer(req, res, 200, await registry.get(def, call.namespace, call.name!, rv), fmt);
    });

  const update = (subresource?: string) =>
    guard(async (req, res, call) => {
      const fmt = format(req);
      const opts = writeOptions(req, call.info.query, 'UpdateOptions');
      opts.apiVersion = requestVersion;
      const obj = registry.admitBody(def, bodyOf(req, res), opts.fieldValidation, opts.warnings);
      const result = await registry.update(def, call.namespace, call.name!, obj, opts, subresource);
      setWarnings(res, opts.warnings);
      answer(req, res, result.created ? 201 : 200, result, fmt);
    });

  const patch = (subresource?: string) =>
    guard(async (req, res, call) => {
      const fmt = format(req);
      const type = patchTypeOf(req.get('content-type'), strategic);
      if (!type) throw errors.unsupportedMediaType(patchContentTypes(strategic));
      const opts = writeOptions(req, call.info.query, 'PatchOptions');
      opts.apiVersion = requestVersion;
      const force = call.info.query.flag('force');
      if (type === 'apply' && !call.info.query.first('fieldManager')) {
        throw errors.invalidOptions('PatchOptions', [{ type: 'FieldValueRequired', field: 'fieldManager', detail: 'is required for apply patch' }]);
      }
      if (type !== 'apply' && force !== undefined) {
        throw errors.invalidOptions('PatchOptions', [{ type: 'FieldValueForbidden', field: 'force', detail: 'may not be specified for non-apply patch' }]);
      }
      let decoded;
      try {
        decoded = decodeRequestBody(req, type === 'apply' ? 'yaml' : 'json');
      } catch (e) {
        if (type === 'merge' || type === 'strategic') throw errors.badRequest(`error decoding patch: ${(e as Error).message}`);
        throw e;
      }
      if (type === 'apply') canonicalizeBodyVersion(res, decoded.object);
      const result = await registry.patch(
        def,
        call.namespace,
        call.name!,
        { type, body: decoded.object, duplicateFields: decoded.duplicateFields, force },
        opts,
        subresource,
      );
      setWarnings(res, opts.warnings);
      answer(req, res, result.created ? 201 : 200, result, fmt);
    });

  const remove = guard(async (req, res, call) => {
    const fmt = format(req);
    const opts = deleteOptionsOf(req, call);
    const result = await registry.delete(def, call.namespace, call.name!, opts);
    if ((result.body as KObject).metadata && (result.body as { kind?: string }).kind !== 'Status') {
      renderObject(req, res, def, result.code, result.body as KObject, fmt);
    } else send(req, res, result.code, result.body, fmt === 'yaml' ? 'yaml' : 'json');
  });

  const removeCollection = guard(async (req, res, call) => {
    const fmt = format(req, true);
    const opts = deleteOptionsOf(req, call);
    const result = await registry.deleteCollection(def, listOptions(call.info.query, call.namespace), opts);
    renderList(req, res, def, result, fmt);
  });

  return { list, watch, watchItem, create, get, update, patch, remove, removeCollection };
}
