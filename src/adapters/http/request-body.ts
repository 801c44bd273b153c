/**
 * A request body is decoded once, by its handler, and audit records the object so decoded (upstream's
 * LogRequestObject) rather than parsing the bytes again: JSON, YAML and protobuf bodies alike.
 */
import type { Request } from 'express';
import { decodeJson, decodeObjectBody, decodeYaml, type DecodedRequestBody } from './media';

const decodedListeners = new WeakMap<Request, (object: unknown) => void>();

/** `listener` hears the object the request's body decodes to, as soon as it is decoded. */
export function onBodyDecoded(req: Request, listener: (object: unknown) => void): void {
  decodedListeners.set(req, listener);
}

const auditAnnotations = new WeakMap<Request, Record<string, string>>();

/** Where the request's audit record collects annotations: the write options hand it to admission. */
export function collectAuditAnnotations(req: Request, into: Record<string, string>): void {
  auditAnnotations.set(req, into);
}

export function auditAnnotationsOf(req: Request): Record<string, string> | undefined {
  return auditAnnotations.get(req);
}

export function rawBody(req: Request): Buffer {
  return Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
}

/** Decodes the body by its Content-Type, or as the JSON or YAML a patch type names; 400/415 as media.ts answers. */
export function decodeRequestBody(req: Request, as: 'content-type' | 'json' | 'yaml' = 'content-type'): DecodedRequestBody {
  const body = rawBody(req);
  const decoded = as === 'json' ? decodeJson(body) : as === 'yaml' ? decodeYaml(body) : decodeObjectBody(req.get('content-type'), body);
  decodedListeners.get(req)?.(decoded.object);
  return decoded;
}
