/** Shared by the write-path suites: the production wiring in-process, and raw HTTP calls. */
import { startCacheServer, type CacheServer } from '../watch/harness';
import type { Backend } from '../support/test-server';

export { backends } from '../support/test-server';
export { WatchClient, until, sleep } from '../watch/harness';
export type { CacheServer } from '../watch/harness';

export const cmPath = (ns = 'default') => `/api/v1/namespaces/${ns}/configmaps`;
export const APPLY = 'application/apply-patch+yaml';
export const MERGE = 'application/merge-patch+json';

export function startWriteServer(backend: Backend): Promise<CacheServer> {
  return startCacheServer(backend);
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

/** One request; a string body is sent as is, anything else as JSON. */
export async function send(s: { url: string }, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Reply> {
  const res = await fetch(s.url + path, {
    method,
    headers: { 'content-type': contentType, 'user-agent': 'write-path-test/1.0' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** A server-side apply of `body` (YAML or JSON text, or an object sent as JSON). */
export function apply(s: { url: string }, path: string, body: unknown, query: string): Promise<Reply> {
  return send(s, 'PATCH', `${path}?${query}`, body, APPLY);
}

export const configMap = (name: string, data?: Record<string, string>, metadata: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...metadata },
  ...(data ? { data } : {}),
});
