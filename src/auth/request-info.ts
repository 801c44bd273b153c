/**
 * Authorization attributes from a request's method, path and query, by
 * upstream's RequestInfoFactory rules: /api and /apis paths are resource
 * requests; everything else is a non-resource path.
 */
import type { AuthzAttributes } from '../ports/authorizer.port';

const namespaceSubresources = new Set(['status', 'finalize']);
const methodVerbs: Record<string, string> = { POST: 'create', GET: 'get', HEAD: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };

export type RequestInfo = Omit<AuthzAttributes, 'user'>;

function lastValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[v.length - 1] : v;
}

/** The name an exact `metadata.name=` field selector pins a list or watch to, as upstream narrows it. */
function selectedName(fieldSelector: string | undefined): string | undefined {
  if (!fieldSelector) return undefined;
  for (const term of fieldSelector.split(',')) {
    const m = /^metadata\.name(==|=)(.*)$/.exec(term.trim());
    if (m && m[2] && !/[/%]/.test(m[2]) && m[2] !== '.' && m[2] !== '..') return m[2];
  }
  return undefined;
}

export function requestInfo(method: string, path: string, query: Record<string, string | string[] | undefined>): RequestInfo {
  const nonResource: RequestInfo = { verb: method.toLowerCase(), resourceRequest: false, path };
  let parts = path.split('/').filter((p) => p !== '');
  if (parts.length < 3 || (parts[0] !== 'api' && parts[0] !== 'apis')) return nonResource;
  const prefix = parts[0];
  parts = parts.slice(1);
  let apiGroup = '';
  if (prefix === 'apis') {
    if (parts.length < 3) return nonResource;
    apiGroup = parts[0];
    parts = parts.slice(1);
  }
  const apiVersion = parts[0];
  parts = parts.slice(1);
  let verb = methodVerbs[method.toUpperCase()] ?? '';
  if (parts[0] === 'watch' || parts[0] === 'proxy') {
    if (parts.length < 2) return nonResource;
    verb = parts[0];
    parts = parts.slice(1);
  }
  let namespace: string | undefined;
  if (parts[0] === 'namespaces' && parts.length > 1) {
    namespace = parts[1];
    if (parts.length > 2 && !namespaceSubresources.has(parts[2])) parts = parts.slice(2);
  }
  const info: RequestInfo = { verb, resourceRequest: true, apiGroup, apiVersion, namespace, resource: parts[0] };
  if (parts.length >= 2) info.name = parts[1];
  if (parts.length >= 3 && verb !== 'proxy') info.subresource = parts[2];
  if (!info.name && verb === 'get') {
    const watch = lastValue(query.watch);
    info.verb = watch !== undefined && ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(watch) ? 'watch' : 'list';
  }
  if (!info.name && (info.verb === 'list' || info.verb === 'watch')) {
    const pinned = selectedName(lastValue(query.fieldSelector));
    if (pinned) info.name = pinned;
  }
  if (!info.name && verb === 'delete') info.verb = 'deletecollection';
  return info;
}
