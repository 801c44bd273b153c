/**
 * A group also served under upstream's name (ResourceDefinition.upstreamGroup), so typed clients
 * that hard-code it work unmodified: request bodies may carry upstream's apiVersion, and every
 * object written back carries it, in JSON, YAML, lists, tables and watch frames alike.
 */
import type { NextFunction, Request, Response } from 'express';
import { isPlainObject } from '../../machinery/object';

export interface VersionAlias {
  /** The apiVersion the client used, e.g. rbac.authorization.k8s.io/v1. */
  served: string;
  /** Ours, e.g. rbac.authorization.svc.io/v1. */
  canonical: string;
}

const key = 'apiVersionAlias';
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Marks the request as served under an alias and rewrites what the handlers send. */
export function servedAs(alias: VersionAlias) {
  const json = new RegExp(`("apiVersion":\\s?)"${escape(alias.canonical)}"`, 'g');
  const yaml = new RegExp(`^(\\s*(?:- )?apiVersion: )${escape(alias.canonical)}$`, 'gm');
  return (_req: Request, res: Response, next: NextFunction): void => {
    res.locals[key] = alias;
    // Handlers write whole objects or whole frames per chunk, so a value is never split across chunks.
    const convert = (chunk: unknown): unknown => {
      if (!(typeof chunk === 'string' || Buffer.isBuffer(chunk))) return chunk;
      const text = chunk.toString();
      const isYaml = String(res.getHeader('content-type') ?? '').startsWith('application/yaml');
      const out = isYaml ? text.replace(yaml, `$1${alias.served}`) : text.replace(json, `$1"${alias.served}"`);
      return out === text ? chunk : Buffer.from(out);
    };
    if (alias.served.length !== alias.canonical.length) {
      // Rewritten bodies change length: a Content-Length set beforehand would be wrong (svc.io and k8s.io match today).
      const setHeader = res.setHeader.bind(res);
      res.setHeader = ((name: string, value: number | string | readonly string[]) =>
        name.toLowerCase() === 'content-length' ? res : setHeader(name, value)) as Response['setHeader'];
    }
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.write = ((chunk: unknown, ...rest: unknown[]) => write(convert(chunk), ...rest)) as Response['write'];
    res.end = ((chunk?: unknown, ...rest: unknown[]) => end(convert(chunk), ...rest)) as Response['end'];
    next();
  };
}

/** A body sent under an alias names our apiVersion from here on. */
export function canonicalizeBodyVersion(res: Response, body: unknown): void {
  const alias = res.locals[key] as VersionAlias | undefined;
  if (alias && isPlainObject(body) && body.apiVersion === alias.served) body.apiVersion = alias.canonical;
}
