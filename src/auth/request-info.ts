/**
 * What a request is, read once from its method and URL before authentication,
 * by upstream's RequestInfoFactory rules: /api and /apis paths are resource
 * requests, everything else is a non-resource path. Metrics, audit, flow
 * control, the authorizer and the handlers all read this one object; nothing
 * else parses the URL (a request whose parts disagree about what it is is an
 * authorization hole).
 */
import { parse as parseQueryString } from 'node:querystring';
import { errors } from '../machinery/status';
import type { AuthzAttributes } from '../ports/authorizer.port';

/** The query string, parsed once. Scalar options read the first value, as upstream's parameter codec does. */
export class QueryValues {
  static readonly empty = new QueryValues(new Map());

  /** node:querystring's reading of `text` (`+` is a space, `%` escapes decoded, at most 1,000 pairs). */
  static parse(text: string): QueryValues {
    return new QueryValues(/[%+]/.test(text) ? new Map(Object.entries(parseQueryString(text) as Record<string, string | string[]>)) : plainPairs(text));
  }

  private constructor(
    /** Every parameter, a string or (repeated) an array of strings. */
    private readonly values: Map<string, string | string[]>,
  ) {}

  /** Every parameter as a record (Express's req.query). */
  get record(): Record<string, string | string[]> {
    return Object.assign(Object.create(null) as Record<string, string | string[]>, Object.fromEntries(this.values));
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  first(name: string): string | undefined {
    const v = this.values.get(name);
    return typeof v === 'string' ? v : v?.[0];
  }

  all(name: string): string[] {
    const v = this.values.get(name);
    if (v === undefined) return [];
    return typeof v === 'string' ? [v] : v;
  }

  /**
   * A boolean option by upstream's Convert_Slice_string_To_bool: absent is undefined (false); present is true unless
   * its first value is 0, f, false, n or no in any case (so `?watch`, `watch=` and `watch=yes` all ask for a watch).
   */
  flag(name: string): boolean | undefined {
    const v = this.first(name);
    if (v === undefined) return undefined;
    return !falseWords.has(v.toLowerCase());
  }
}

const falseWords = new Set(['0', 'f', 'false', 'n', 'no']);

/**
 * A query with nothing to decode, split as node:querystring splits it (empty pairs skipped but counted towards its
 * 1,000, a pair without `=` has the empty value, repeats gather into an array), into a Map: querystring builds a
 * null-prototype object, whose every new key is a store through V8's runtime, a few microseconds on each request.
 */
function plainPairs(text: string): Map<string, string | string[]> {
  const values = new Map<string, string | string[]>();
  let pairs = 0;
  for (let at = 0; at < text.length && pairs < 1000; pairs++) {
    let end = text.indexOf('&', at);
    if (end < 0) end = text.length;
    if (end > at) {
      const eq = text.indexOf('=', at);
      const key = eq < 0 || eq > end ? text.slice(at, end) : text.slice(at, eq);
      const value = eq < 0 || eq > end ? '' : text.slice(eq + 1, end);
      const had = values.get(key);
      if (had === undefined) values.set(key, value);
      else if (typeof had === 'string') values.set(key, [had, value]);
      else had.push(value);
    }
    at = end + 1;
  }
  return values;
}

export interface RequestInfo extends Omit<AuthzAttributes, 'user'> {
  /** The path as sent (not decoded), without the query. */
  path: string;
  /** The path's segments as sent, slashes at both ends trimmed (upstream's splitPath): what non-resource routes match. */
  segments: string[];
  /** Path segments after the group-version root (and namespace), decoded: upstream's Parts. */
  parts: string[];
  /** The resource came after `namespaces/{namespace}/` (a Namespace's own paths carry its name as namespace too). */
  namespacedPath?: boolean;
  /** 'api' or 'apis' for resource requests. */
  apiPrefix?: string;
  /** Watches (and proxies) run for as long as the client stays: not counted in flight, never "slow". */
  longRunning: boolean;
  query: QueryValues;
}

const namespaceSubresources = new Set(['status', 'finalize']);
const specialVerbs = new Set(['watch', 'proxy']);
const methodVerbs: Record<string, string> = { POST: 'create', GET: 'get', HEAD: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };

/** A path segment as a value: percent-decoded, and a 400 for a malformed escape (never a 500). */
function decoded(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    throw errors.badRequest(`invalid URL escape ${JSON.stringify(segment.slice(segment.lastIndexOf('%')).slice(0, 3))}`);
  }
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

/** Splits `url` (path and query, as on the request line) into what the request is. Throws a 400 for a malformed path escape. */
export function requestInfo(method: string, url: string): RequestInfo {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 || q === url.length - 1 ? QueryValues.empty : QueryValues.parse(url.slice(q + 1));
  const segments = trimmedSegments(path);
  const info: RequestInfo = { verb: method.toLowerCase(), resourceRequest: false, path, segments, parts: [], longRunning: false, query };
  let parts = segments;
  if (parts.length < 3 || (parts[0] !== 'api' && parts[0] !== 'apis')) return info;
  const apiPrefix = parts[0];
  parts = parts.slice(1);
  let apiGroup = '';
  if (apiPrefix === 'apis') {
    if (parts.length < 3) return info;
    apiGroup = parts[0];
    parts = parts.slice(1);
  }
  const apiVersion = parts[0];
  parts = parts.slice(1).map(decoded);
  let verb = methodVerbs[method] ?? '';
  if (specialVerbs.has(parts[0])) {
    if (parts.length < 2) throw errors.notFoundPath();
    verb = parts[0];
    parts = parts.slice(1);
  }
  let namespace: string | undefined;
  if (parts[0] === 'namespaces' && parts.length > 1) {
    namespace = parts[1];
    if (parts.length > 2 && !namespaceSubresources.has(parts[2])) {
      parts = parts.slice(2);
      info.namespacedPath = true;
    }
  }
  info.verb = verb;
  info.resourceRequest = true;
  info.apiPrefix = apiPrefix;
  info.apiGroup = apiGroup;
  info.apiVersion = apiVersion;
  info.namespace = namespace;
  info.parts = parts;
  info.resource = parts[0];
  if (parts.length >= 2) info.name = parts[1];
  if (parts.length >= 3 && verb !== 'proxy') info.subresource = parts[2];
  if (!info.name && verb === 'get') {
    info.verb = query.flag('watch') ? 'watch' : 'list';
    const pinned = selectedName(query.first('fieldSelector'));
    if (pinned) info.name = pinned;
  }
  if (!info.name && verb === 'delete') info.verb = 'deletecollection';
  info.longRunning = info.verb === 'watch' || info.verb === 'proxy';
  return info;
}

/** Upstream's splitPath: leading and trailing slashes trimmed, empty segments inside kept. */
function trimmedSegments(path: string): string[] {
  let start = 0;
  let end = path.length;
  while (start < end && path.charCodeAt(start) === 47) start++;
  while (end > start && path.charCodeAt(end - 1) === 47) end--;
  if (start === end) return [];
  // split() goes through V8's runtime on every new string; indexOf and slice stay in its builtins.
  const segments: string[] = [];
  for (let at = start; ; ) {
    const slash = path.indexOf('/', at);
    if (slash < 0 || slash >= end) {
      segments.push(path.slice(at, end));
      return segments;
    }
    segments.push(path.slice(at, slash));
    at = slash + 1;
  }
}
