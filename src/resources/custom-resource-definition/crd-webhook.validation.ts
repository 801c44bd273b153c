/**
 * The conversion webhook of a CRD, as upstream validates it: strategy None or
 * Webhook, a client config with exactly one of url (https, with a host, no
 * user, query or fragment) or service (name, namespace, port, path of DNS
 * segments), a CA bundle that holds a certificate, and ConversionReview
 * versions. URLs are read with Go's url.Parse rules.
 */
import { FieldError, fieldErrors, FieldPath } from '../../machinery/field-errors';
import { isDNS1123Subdomain, isDNS1035Label } from '../../machinery/validation/names';
import type { CryptoPort } from '../../ports/crypto.port';
import type { ClientConfig, Spec } from './crd-internal';
import { jsonValue, validateEnumString } from './crd-parts.validation';

const acceptedReviewVersions = ['v1', 'v1beta1'];

type ParsedURL = { ok: true; scheme: string; host: string; user?: string; query: string; fragment: string } | { ok: false; error: string };

const hostAllowed = /^[A-Za-z0-9\-_.~!$&'()*+,;=:[\]<>"%\u0080-\uffff]$/;
const validPort = (colonPort: string) => colonPort === '' || /^:\d*$/.test(colonPort);
const goQuoted = (s: string) => JSON.stringify(s);

/** Go's url.Parse, far enough to answer what webhook validation asks. */
export function parseGoURL(raw: string): ParsedURL {
  const hash = raw.indexOf('#');
  const u = hash < 0 ? raw : raw.slice(0, hash);
  const fragment = hash < 0 ? '' : raw.slice(hash + 1);
  const fail = (why: string): ParsedURL => ({ ok: false, error: `parse ${goQuoted(u)}: ${why}` });
  if (/[\u0000-\u001f\u007f]/.test(u)) return fail('net/url: invalid control character in URL');
  let scheme = '';
  let rest = u;
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(u);
  if (m) [scheme, rest] = [m[1].toLowerCase(), u.slice(m[0].length)];
  else if (u.startsWith(':')) return fail('missing protocol scheme');
  let query = '';
  const q = rest.indexOf('?');
  if (q >= 0) [rest, query] = [rest.slice(0, q), rest.slice(q + 1)];
  if (!rest.startsWith('/')) {
    if (scheme) return { ok: true, scheme, host: '', query, fragment };
    if (rest.split('/')[0].includes(':')) return fail('first path segment in URL cannot contain colon');
  }
  let host = '';
  let user: string | undefined;
  if ((scheme || !rest.startsWith('///')) && rest.startsWith('//')) {
    const after = rest.slice(2);
    const slash = after.indexOf('/');
    const authority = slash < 0 ? after : after.slice(0, slash);
    const at = authority.lastIndexOf('@');
    host = at < 0 ? authority : authority.slice(at + 1);
    const close = host.startsWith('[') ? host.lastIndexOf(']') : -1;
    if (host.startsWith('[') && close < 0) return fail("missing ']' in host");
    const colon = host.startsWith('[') ? close + 1 : host.lastIndexOf(':');
    const colonPort = colon >= 0 && colon <= host.length ? host.slice(colon) : '';
    if (!validPort(colonPort)) return fail(`invalid port ${goQuoted(colonPort)} after host`);
    for (const c of host) if (!hostAllowed.test(c)) return fail(`invalid character ${goQuoted(c)} in host name`);
    if (at >= 0) {
      user = authority.slice(0, at);
      if (!/^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(user)) return fail('net/url: invalid userinfo');
    }
  }
  return { ok: true, scheme, host, user, query, fragment };
}

export function validateWebhookURL(p: FieldPath, url: string): FieldError[] {
  const form = '; desired format: https://host[/path]';
  const u = parseGoURL(url);
  if (!u.ok) return [fieldErrors.required(p, `url must be a valid URL: ${u.error}${form}`)];
  const errs: FieldError[] = [];
  if (u.scheme !== 'https') errs.push(fieldErrors.invalid(p, u.scheme, `'https' is the only allowed URL scheme${form}`));
  if (!u.host) errs.push(fieldErrors.invalid(p, u.host, `host must be specified${form}`));
  if (u.user !== undefined) errs.push(fieldErrors.invalid(p, u.user, 'user information is not permitted in the URL'));
  if (u.fragment) errs.push(fieldErrors.invalid(p, u.fragment, 'fragments are not permitted in the URL'));
  if (u.query) errs.push(fieldErrors.invalid(p, u.query, 'query parameters are not permitted in the URL'));
  return errs;
}

export function validateWebhookService(p: FieldPath, service: NonNullable<ClientConfig['service']>): FieldError[] {
  const errs: FieldError[] = [];
  if (!service.name) errs.push(fieldErrors.required(p.child('name')));
  if (!service.namespace) errs.push(fieldErrors.required(p.child('namespace')));
  const port = service.port ?? 443;
  if (!(port >= 1 && port <= 65535)) errs.push(fieldErrors.invalid(p.child('port'), port, 'port is not valid: must be between 1 and 65535, inclusive'));
  const path = service.path;
  if (path === undefined || path === null || path === '/' || path === '') return errs;
  const pp = p.child('path');
  if (path === '//') return [...errs, fieldErrors.invalid(pp, path, 'segment[0] may not be empty')];
  if (!path.startsWith('/')) errs.push(fieldErrors.invalid(pp, path, "must start with a '/'"));
  let check = path.slice(1);
  if (check.endsWith('/')) check = check.slice(0, -1);
  check.split('/').forEach((step, i) => {
    if (step.length === 0) errs.push(fieldErrors.invalid(pp, path, `segment[${i}] may not be empty`));
    else for (const msg of isDNS1123Subdomain(step)) errs.push(fieldErrors.invalid(pp, path, `segment[${i}]: ${msg}`));
  });
  return errs;
}

/** client-go's check of CA data: at least one PEM CERTIFICATE that parses; the error as TLSConfigFor words it. */
export function caBundleError(caBundle: string, crypto: CryptoPort): string | undefined {
  const data = Buffer.from(caBundle, 'base64').toString('latin1');
  let blocks: ReturnType<CryptoPort['parsePem']>;
  try {
    blocks = crypto.parsePem(data);
  } catch {
    return 'unable to load root certificates: unable to parse bytes as PEM block';
  }
  if (blocks.length === 0) return 'unable to load root certificates: unable to parse bytes as PEM block';
  let parseError: string | undefined;
  for (const b of blocks) {
    if (b.type !== 'CERTIFICATE' || Object.keys(b.headers).length > 0) continue;
    try {
      crypto.parseCertificate(b.bytes);
      return undefined;
    } catch (e) {
      parseError ??= `unable to load root certificates: failed to parse certificate: ${(e as Error).message}`;
    }
  }
  return parseError ?? 'unable to load root certificates: no valid certificate authority data seems to exist';
}

export const hasAcceptedReviewVersion = (versions: string[] | undefined) => !versions?.length || versions.some((v) => acceptedReviewVersions.includes(v));

function validateReviewVersions(versions: string[] | undefined, requireRecognized: boolean, p: FieldPath): FieldError[] {
  if (!versions || versions.length === 0) return [fieldErrors.required(p)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let accepted = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) return void errs.push(fieldErrors.invalid(p.index(i), v, 'duplicate version'));
    seen.add(v);
    for (const msg of isDNS1035Label(v)) errs.push(fieldErrors.invalid(p.index(i), v, msg));
    if (acceptedReviewVersions.includes(v)) accepted = true;
  });
  if (requireRecognized && !accepted) errs.push(fieldErrors.invalid(p, jsonValue(versions), `must include at least one of ${acceptedReviewVersions.join(', ')}`));
  return errs;
}

export interface ConversionOptions {
  requireRecognizedReviewVersion: boolean;
  allowInvalidCABundle: boolean;
  crypto: CryptoPort;
}

export function validateConversion(conversion: Spec['conversion'], p: FieldPath, opts: ConversionOptions): FieldError[] {
  if (!conversion) return [];
  const errs = validateEnumString(p.child('strategy'), conversion.strategy, ['None', 'Webhook'], true);
  const cc = conversion.webhookClientConfig;
  if (conversion.strategy === 'Webhook') {
    const ccp = p.child('webhookClientConfig');
    if (!cc) errs.push(fieldErrors.required(ccp, 'required when strategy is set to Webhook'));
    else {
      const hasURL = cc.url !== undefined && cc.url !== null;
      const hasService = cc.service !== undefined && cc.service !== null;
      if (hasURL === hasService) errs.push(fieldErrors.required(ccp, 'exactly one of url or service is required'));
      else if (hasURL) errs.push(...validateWebhookURL(ccp.child('url'), cc.url!));
      else errs.push(...validateWebhookService(ccp.child('service'), cc.service!));
      if (cc.caBundle && !opts.allowInvalidCABundle) {
        const why = caBundleError(cc.caBundle, opts.crypto);
        if (why) errs.push(fieldErrors.invalid(ccp.child('caBundle'), jsonValue(cc.caBundle), why));
      }
    }
    errs.push(...validateReviewVersions(conversion.conversionReviewVersions, opts.requireRecognizedReviewVersion, p.child('conversionReviewVersions')));
  } else {
    if (cc) errs.push(fieldErrors.forbidden(p.child('webhookClientConfig'), 'should not be set when strategy is not set to Webhook'));
    if (conversion.conversionReviewVersions?.length) {
      errs.push(fieldErrors.forbidden(p.child('conversionReviewVersions'), 'should not be set when strategy is not set to Webhook'));
    }
  }
  return errs;
}
