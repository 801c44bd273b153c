/**
 * Kubernetes' URL library (library/urls.go): `url(s)` accepts what Go's
 * url.ParseRequestURI accepts (absolute URIs and absolute paths), and the
 * accessors read the URL as url.Parse splits it.
 */
import { celFunc, celMethod, CelScalar, listType, mapType, type CelValue } from '@bufbuild/cel';
import { range, STRING_TRAVERSAL, type CallEstimator } from '../cost/estimate-types';
import { chargeRuntime } from '../cost/runtime';
import { fn, method } from '../declarations';
import type { Library } from '../library';
import { opaqueKind } from '../opaque';
import { T } from '../types';
import { escapedPath, hostname, parseGoUrl, port, query, type GoUrl } from './go-url';

export const URL_KIND = opaqueKind<GoUrl>('kubernetes.URL');

function toUrl(s: string): GoUrl {
  chargeRuntime(Math.ceil(s.length * STRING_TRAVERSAL));
  try {
    parseGoUrl(s, true);
  } catch (err) {
    throw new Error(`URL parse error during conversion from string: ${(err as Error).message}`);
  }
  return parseGoUrl(s, false);
}

const U = URL_KIND.runtime;
const { STRING, BOOL } = CelScalar;
const u = (v: unknown) => URL_KIND.unwrap(v as CelValue);
const accessor = (name: string, get: (x: GoUrl) => string) =>
  celMethod(name, U, [], STRING, function () {
    return get(u(this));
  });

const parseCost: CallEstimator = (_id, _target, args) => (args.length === 1 ? { cost: range.factor(args[0].size(), STRING_TRAVERSAL) } : undefined);

export const urlLibrary: Library = {
  name: 'url',
  declarations: [
    fn('url', 'string_to_url', [T.string], URL_KIND.type),
    fn('isURL', 'is_url_string', [T.string], T.bool),
    method('getScheme', 'url_get_scheme', [URL_KIND.type], T.string),
    method('getHost', 'url_get_host', [URL_KIND.type], T.string),
    method('getHostname', 'url_get_hostname', [URL_KIND.type], T.string),
    method('getPort', 'url_get_port', [URL_KIND.type], T.string),
    method('getEscapedPath', 'url_get_escaped_path', [URL_KIND.type], T.string),
    method('getQuery', 'url_get_query', [URL_KIND.type], T.map(T.string, T.list(T.string))),
  ],
  functions: [
    celFunc('url', [STRING], U, (s: string) => URL_KIND.wrap(toUrl(s), s) as never),
    celFunc('isURL', [STRING], BOOL, (s: string) => {
      chargeRuntime(Math.ceil(s.length * STRING_TRAVERSAL));
      try {
        parseGoUrl(s, true);
        return true;
      } catch {
        return false;
      }
    }),
    accessor('getScheme', (x) => x.scheme),
    accessor('getHost', (x) => x.host),
    accessor('getHostname', hostname),
    accessor('getPort', port),
    accessor('getEscapedPath', escapedPath),
    celMethod('getQuery', U, [], mapType(STRING, listType(STRING)), function () {
      return query(u(this)) as never;
    }),
  ],
  estimators: { url: parseCost },
};
