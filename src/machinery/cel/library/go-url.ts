/**
 * The parts of Go's net/url that Kubernetes' URL library exposes:
 * ParseRequestURI's acceptance rules and error texts (`parse "x": invalid
 * URI for request`), Host/Hostname/Port, EscapedPath and Query().
 */

export interface GoUrl {
  readonly scheme: string;
  readonly host: string;
  /** Decoded path. */
  readonly path: string;
  /** The path as written, when it differs from the default encoding. */
  readonly rawPath: string;
  readonly rawQuery: string;
}

export class UrlError extends Error {}

const fail = (raw: string, why: string): never => {
  throw new UrlError(`parse ${JSON.stringify(raw)}: ${why}`);
};

function scheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (/[a-zA-Z]/.test(c)) continue;
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) return ['', raw];
      continue;
    }
    if (c === ':') {
      if (i === 0) fail(raw, 'missing protocol scheme');
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

function unescape(s: string, raw: string): string {
  if (!/%/.test(s)) return s;
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '%') {
      const hex = s.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) fail(raw, `invalid URL escape ${JSON.stringify(s.slice(i, i + 3))}`);
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(s[i]));
  }
  return Buffer.from(bytes).toString('utf8');
}

const validPort = (p: string) => /^:[0-9]*$/.test(p);

function parseHost(host: string, raw: string): string {
  if (host.startsWith('[')) {
    const end = host.lastIndexOf(']');
    if (end < 0) fail(raw, "missing ']' in host");
    if (!validPort(host.slice(end + 1)) && host.slice(end + 1) !== '') fail(raw, `invalid port ${JSON.stringify(host.slice(end + 1))} after host`);
    return host;
  }
  const colon = host.lastIndexOf(':');
  if (colon >= 0 && !validPort(host.slice(colon))) fail(raw, `invalid port ${JSON.stringify(host.slice(colon))} after host`);
  return unescape(host, raw);
}

/** url.Parse with viaRequest (ParseRequestURI) or not; Parse first drops a #fragment. */
export function parseGoUrl(input: string, viaRequest: boolean): GoUrl {
  let raw = input;
  if (!viaRequest) {
    const hash = raw.indexOf('#');
    if (hash >= 0) raw = raw.slice(0, hash);
  }
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(input)) throw new UrlError(`parse ${JSON.stringify(input)}: net/url: invalid control character in URL`);
  if (raw === '' && viaRequest) fail(input, 'empty url');
  const [sch, afterScheme] = scheme(raw);
  let rest = afterScheme;
  let rawQuery = '';
  const q = rest.indexOf('?');
  if (q >= 0) (rawQuery = rest.slice(q + 1)), (rest = rest.slice(0, q));
  if (!rest.startsWith('/') && (sch !== '' || viaRequest) && viaRequest) fail(input, 'invalid URI for request');
  let host = '';
  if ((sch !== '' || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    const authEnd = rest.indexOf('/', 2);
    const authority = authEnd < 0 ? rest.slice(2) : rest.slice(2, authEnd);
    rest = authEnd < 0 ? '' : rest.slice(authEnd);
    const at = authority.lastIndexOf('@');
    host = parseHost(at < 0 ? authority : authority.slice(at + 1), input);
  }
  const path = unescape(rest, input);
  return { scheme: sch, host, path, rawPath: rest, rawQuery };
}

const PATH_SAFE = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*$/;

export function escapedPath(u: GoUrl): string {
  if (u.rawPath && PATH_SAFE.test(u.rawPath)) return u.rawPath;
  return Array.from(Buffer.from(u.path, 'utf8'), (b) => {
    const c = String.fromCharCode(b);
    return b < 0x80 && /[A-Za-z0-9\-._~!$&'()*+,;=:@/]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }).join('');
}

export function hostname(u: GoUrl): string {
  const h = u.host;
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']'));
  const colon = h.lastIndexOf(':');
  return colon >= 0 && validPort(h.slice(colon)) ? h.slice(0, colon) : h;
}

export function port(u: GoUrl): string {
  const h = u.host;
  const colon = h.lastIndexOf(':');
  if (colon < 0 || (h.startsWith('[') && colon < h.indexOf(']'))) return '';
  return validPort(h.slice(colon)) ? h.slice(colon + 1) : '';
}

/** Query(): pairs with bad escapes or semicolons are dropped, `+` is a space. */
export function query(u: GoUrl): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const pair of u.rawQuery.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    const [k, v] = eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
    try {
      const key = unescape(k.replace(/\+/g, ' '), '');
      const value = unescape(v.replace(/\+/g, ' '), '');
      out.set(key, [...(out.get(key) ?? []), value]);
    } catch {
      continue;
    }
  }
  return out;
}
