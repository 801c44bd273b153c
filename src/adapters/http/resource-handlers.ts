/**
 * The verbs of one resource, as Express handlers: decode, call the registry,
 * encode. No kind-specific code: everything comes from the definition.
 */
import type { Request, Response } from 'express';
import { errors } from '../../machinery/status';
import { KObject, isPlainObject, typeMetaFirst } from '../../machinery/object';
import { ResourceDefinition, apiVersionOf } from '../../machinery/resource-definition';
import type { Registry } from '../../registry/registry';
import type { PatchType } from '../../registry/request';
import { decodeJson, decodeObjectBody, decodeYaml, JSON_TYPE, negotiate, ResponseFormat } from './media';
import { canonicalizeBodyVersion } from './group-alias';
import { deleteOptions, listOptions, queryBool, writeOptions } from './options';
import { send, sendBytes, sendError, setWarnings, wantsPretty } from './respond';
import { sendEncodedList } from './list-stream';
import { renderList, renderObject } from './render';
import type { WatchServer } from './watch';

const patchTypes: Record<string, PatchType> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
};

export interface HandlerDeps {
  registry: Registry;
  watch?: WatchServer;
  /** Patch content types this server accepts, in upstream's order. */
  patchContentTypes: string[];
}

type Handler<A extends unknown[] = []> = (req: Request, res: Response, ...args: A) => Promise<void>;

function namespaceOf(def: ResourceDefinition, req: Request): string | undefined {
  return def.namespaced ? (req.params.namespace as string | undefined) : undefined;
}

function rawBody(req: Request): Buffer {
  return Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
}

/** DeleteOptions from the body when one was sent, else from the query (as upstream). */
function deleteOptionsOf(req: Request) {
  const body = rawBody(req);
  if (body.length === 0 || body.toString('utf8').trim() === '') return deleteOptions(req, undefined);
  const decoded = decodeObjectBody(req.get('content-type'), body).object;
  if (!isPlainObject(decoded)) throw errors.badRequest('DeleteOptions must be a JSON object');
  return deleteOptions(req, decoded);
}

/** A create/update body, with an aliased group's apiVersion read as ours. */
function bodyOf(req: Request, res: Response) {
  const decoded = decodeObjectBody(req.get('content-type'), rawBody(req));
  // The order the registry gives them anyway, without deleting keys from the parsed object.
  if (isPlainObject(decoded.object)) decoded.object = typeMetaFirst(decoded.object);
  canonicalizeBodyVersion(res, decoded.object);
  return decoded;
}

function guard<A extends unknown[]>(fn: Handler<A>): Handler<A> {
  return async (req, res, ...args) => {
    try {
      await fn(req, res, ...args);
    } catch (e) {
      sendError(req, res, e);
    }
  };
}

export function resourceHandlers(def: ResourceDefinition, deps: HandlerDeps) {
  const { registry } = deps;
  const requestVersion = apiVersionOf(def);

  const format = (req: Request, list = false, watch = false): ResponseFormat => negotiate(req.get('accept'), { list, watch });

  /** A list, or a watch when asked by ?watch=true or by one of the deprecated /watch/ paths (watchPath). */
  const list = guard(async (req, res, watchPath = false) => {
    const watching = watchPath || queryBool(req, 'watch') === true;
    const ns = namespaceOf(def, req);
    const opts = listOptions(req, ns);
    if (watching) {
      const fmt = format(req, true, true);
      if (!deps.watch) throw errors.methodNotAllowed('watch', def);
      await deps.watch.serve(def, req, res, opts, fmt);
      return;
    }
    const fmt = format(req, true);
    if (fmt === 'json' && !wantsPretty(req)) {
      // Items stay the bytes the watch cache holds; the list is streamed, not built.
      await sendEncodedList(res, await registry.listEncoded(def, opts));
      return;
    }
    const result = await registry.list(def, opts);
    renderList(req, res, def, result, fmt);
  });

  const create = guard(async (req, res) => {
    const fmt = format(req);
    const opts = writeOptions(req, 'CreateOptions');
    opts.apiVersion = requestVersion;
    const obj = registry.admitBody(def, bodyOf(req, res), opts.fieldValidation, opts.warnings);
    const asStored = fmt === 'json' && !wantsPretty(req);
    const created = asStored ? await registry.createWithJson(def, namespaceOf(def, req), obj, opts) : { object: await registry.create(def, namespaceOf(def, req), obj, opts) };
    setWarnings(res, opts.warnings);
    if (created.json !== undefined) sendBytes(res, 201, JSON_TYPE, created.json);
    else renderObject(req, res, def, 201, created.object, fmt);
  });

  const get = (subresource?: string) =>
    guard(async (req, res) => {
      const fmt = format(req);
      const rv = typeof req.query.resourceVersion === 'string' ? req.query.resourceVersion : undefined;
      if (fmt === 'json' && !wantsPretty(req)) {
        const bytes = await registry.getEncoded(def, namespaceOf(def, req), req.params.name as string, rv);
        sendBytes(res, 200, 'application/json', bytes);
        return;
      }
      const obj = await registry.get(def, namespaceOf(def, req), req.params.name as string, rv);
      void subresource;
      renderObject(req, res, def, 200, obj, fmt);
    });

  const update = (subresource?: string) =>
    guard(async (req, res) => {
      const fmt = format(req);
      const opts = writeOptions(req, 'UpdateOptions');
      opts.apiVersion = requestVersion;
      const obj = registry.admitBody(def, bodyOf(req, res), opts.fieldValidation, opts.warnings);
      const result = await registry.update(def, namespaceOf(def, req), req.params.name as string, obj, opts, subresource);
      setWarnings(res, opts.warnings);
      renderObject(req, res, def, result.created ? 201 : 200, result.object, fmt);
    });

  const patch = (subresource?: string) =>
    guard(async (req, res) => {
      const fmt = format(req);
      const mediaType = (req.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
      const type = patchTypes[mediaType];
      if (!type || !deps.patchContentTypes.includes(mediaType)) throw errors.unsupportedMediaType(deps.patchContentTypes);
      const opts = writeOptions(req, 'PatchOptions');
      opts.apiVersion = requestVersion;
      const force = queryBool(req, 'force');
      if (type === 'apply' && !req.query.fieldManager) {
        throw errors.invalidOptions('PatchOptions', [{ type: 'FieldValueRequired', field: 'fieldManager', detail: 'is required for apply patch' }]);
      }
      if (type !== 'apply' && force !== undefined) {
        throw errors.invalidOptions('PatchOptions', [{ type: 'FieldValueForbidden', field: 'force', detail: 'may not be specified for non-apply patch' }]);
      }
      const body = rawBody(req);
      let decoded;
      try {
        decoded = type === 'apply' ? decodeYaml(body) : decodeJson(body);
      } catch (e) {
        if (type === 'merge' || type === 'strategic') throw errors.badRequest(`error decoding patch: ${(e as Error).message}`);
        throw e;
      }
      if (type === 'apply') canonicalizeBodyVersion(res, decoded.object);
      const result = await registry.patch(
        def,
        namespaceOf(def, req),
        req.params.name as string,
        { type, body: decoded.object, duplicateFields: decoded.duplicateFields, force },
        opts,
        subresource,
      );
      setWarnings(res, opts.warnings);
      renderObject(req, res, def, result.created ? 201 : 200, result.object, fmt);
    });

  const remove = guard(async (req, res) => {
    const fmt = format(req);
    const opts = deleteOptionsOf(req);
    const result = await registry.delete(def, namespaceOf(def, req), req.params.name as string, opts);
    if ((result.body as KObject).metadata && (result.body as { kind?: string }).kind !== 'Status') {
      renderObject(req, res, def, result.code, result.body as KObject, fmt);
    } else send(req, res, result.code, result.body, fmt === 'yaml' ? 'yaml' : 'json');
  });

  const removeCollection = guard(async (req, res) => {
    const fmt = format(req, true);
    const opts = deleteOptionsOf(req);
    const result = await registry.deleteCollection(def, listOptions(req, namespaceOf(def, req)), opts);
    renderList(req, res, def, result, fmt);
  });

  return { list, create, get, update, patch, remove, removeCollection };
}
