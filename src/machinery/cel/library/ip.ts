/**
 * Kubernetes' IP and CIDR libraries (library/ip.go, cidr.go): `ip()`,
 * `cidr()`, their predicates and accessors. Zones and IPv4-mapped IPv6
 * addresses are refused, as upstream refuses them.
 */
import { celFunc, celMethod, CelScalar, type CelValue } from '@bufbuild/cel';
import { range, STRING_TRAVERSAL, type CallEstimator } from '../cost/estimate-types';
import { chargeRuntime } from '../cost/runtime';
import { fn, method } from '../declarations';
import type { Library } from '../library';
import { opaqueKind } from '../opaque';
import { T } from '../types';
import * as netip from './netip';

export const IP = opaqueKind<netip.Addr>('net.IP');
export const CIDR = opaqueKind<netip.Prefix>('net.CIDR');

const traverse = (s: string) => chargeRuntime(Math.ceil(s.length * STRING_TRAVERSAL));

export function parseIP(raw: string): netip.Addr {
  let addr: netip.Addr;
  try {
    addr = netip.parseAddr(raw);
  } catch (err) {
    throw new Error(`IP Address ${JSON.stringify(raw)} parse error during conversion from string: ${(err as Error).message}`);
  }
  if (addr.zone) throw new Error(`IP address ${JSON.stringify(raw)} with zone value is not allowed`);
  if (netip.is4In6(addr)) throw new Error(`IPv4-mapped IPv6 address ${JSON.stringify(raw)} is not allowed`);
  return addr;
}

export function parseCIDR(raw: string): netip.Prefix {
  let prefix: netip.Prefix;
  try {
    prefix = netip.parsePrefix(raw);
  } catch (err) {
    throw new Error(`network address parse error during conversion from string: ${(err as Error).message}`);
  }
  if (netip.is4In6(prefix.addr)) throw new Error(`IPv4-mapped IPv6 address ${JSON.stringify(raw)} is not allowed`);
  return prefix;
}

const wrapIP = (a: netip.Addr) => IP.wrap(a, netip.addrString(a));
const wrapCIDR = (p: netip.Prefix) => CIDR.wrap(p, netip.prefixString(p));
const ip = (v: unknown) => IP.unwrap(v as CelValue);
const cidr = (v: unknown) => CIDR.unwrap(v as CelValue);

const ok = (f: () => unknown) => {
  try {
    f();
    return true;
  } catch {
    return false;
  }
};

const { STRING, BOOL, INT } = CelScalar;
const I = IP.runtime;
const C = CIDR.runtime;
const predicate = (name: string, test: (a: netip.Addr) => boolean) =>
  celMethod(name, I, [], BOOL, function () {
    return test(ip(this));
  });

const nominal: CallEstimator = () => ({ cost: range.fixed(1) });
/** Comparing two 4- or 16-byte addresses, plus parsing the argument when it is a string (upstream cost.go). */
const containment =
  (extra: boolean): CallEstimator =>
  (id, target, args) => {
    if (!target || args.length < 1) return undefined;
    const sz = { min: 4, max: 16 };
    let cost = range.factor(range.add(sz, sz), STRING_TRAVERSAL);
    if (extra) cost = range.add(range.add(cost, range.factor(sz, STRING_TRAVERSAL)), range.fixed(1));
    if (id.endsWith('_string')) cost = range.add(cost, range.factor(args[0].size(), STRING_TRAVERSAL));
    return { cost };
  };

export const ipLibrary: Library = {
  name: 'ip',
  declarations: [
    fn('ip', 'string_to_ip', [T.string], IP.type),
    fn('isIP', 'is_ip', [T.string], T.bool),
    fn('ip.isCanonical', 'ip_is_canonical', [T.string], T.bool),
    method('family', 'ip_family', [IP.type], T.int),
    method('isUnspecified', 'ip_is_unspecified', [IP.type], T.bool),
    method('isLoopback', 'ip_is_loopback', [IP.type], T.bool),
    method('isLinkLocalMulticast', 'ip_is_link_local_multicast', [IP.type], T.bool),
    method('isLinkLocalUnicast', 'ip_is_link_local_unicast', [IP.type], T.bool),
    method('isGlobalUnicast', 'ip_is_global_unicast', [IP.type], T.bool),
    fn('string', 'ip_to_string', [IP.type], T.string),
    fn('cidr', 'string_to_cidr', [T.string], CIDR.type),
    fn('isCIDR', 'is_cidr', [T.string], T.bool),
    method('containsIP', 'cidr_contains_ip_string', [CIDR.type, T.string], T.bool),
    method('containsIP', 'cidr_contains_ip_ip', [CIDR.type, IP.type], T.bool),
    method('containsCIDR', 'cidr_contains_cidr_string', [CIDR.type, T.string], T.bool),
    method('containsCIDR', 'cidr_contains_cidr', [CIDR.type, CIDR.type], T.bool),
    method('ip', 'cidr_ip', [CIDR.type], IP.type),
    method('masked', 'cidr_masked', [CIDR.type], CIDR.type),
    method('prefixLength', 'cidr_prefix_length', [CIDR.type], T.int),
    fn('string', 'cidr_to_string', [CIDR.type], T.string),
  ],
  functions: [
    celFunc('ip', [STRING], I, (s: string) => (traverse(s), wrapIP(parseIP(s))) as never),
    celFunc('isIP', [STRING], BOOL, (s: string) => (traverse(s), ok(() => parseIP(s)))),
    celFunc('ip.isCanonical', [STRING], BOOL, (s: string) => {
      traverse(s), traverse(s);
      return netip.addrString(parseIP(s)) === s;
    }),
    celMethod('family', I, [], INT, function () {
      return netip.is4(ip(this)) ? 4n : 6n;
    }),
    predicate('isUnspecified', netip.isUnspecified),
    predicate('isLoopback', netip.isLoopback),
    predicate('isLinkLocalMulticast', netip.isLinkLocalMulticast),
    predicate('isLinkLocalUnicast', netip.isLinkLocalUnicast),
    predicate('isGlobalUnicast', netip.isGlobalUnicast),
    celFunc('string', [I], STRING, (v) => netip.addrString(ip(v))),
    celFunc('cidr', [STRING], C, (s: string) => (traverse(s), wrapCIDR(parseCIDR(s))) as never),
    celFunc('isCIDR', [STRING], BOOL, (s: string) => (traverse(s), ok(() => parseCIDR(s)))),
    celMethod('containsIP', C, [STRING], BOOL, function (s: string) {
      traverse(s);
      return netip.containsAddr(cidr(this), parseIP(s));
    }),
    celMethod('containsIP', C, [I], BOOL, function (other) {
      return netip.containsAddr(cidr(this), ip(other));
    }),
    celMethod('containsCIDR', C, [STRING], BOOL, function (s: string) {
      traverse(s);
      return netip.containsPrefix(cidr(this), parseCIDR(s));
    }),
    celMethod('containsCIDR', C, [C], BOOL, function (other) {
      return netip.containsPrefix(cidr(this), cidr(other));
    }),
    celMethod('ip', C, [], I, function () {
      return wrapIP(cidr(this).addr) as never;
    }),
    celMethod('masked', C, [], C, function () {
      return wrapCIDR(netip.masked(cidr(this))) as never;
    }),
    celMethod('prefixLength', C, [], INT, function () {
      return BigInt(cidr(this).bits);
    }),
    celFunc('string', [C], STRING, (v) => netip.prefixString(cidr(v))),
  ],
  // Global parsers keep cel-go's default static cost: upstream prices them only with a receiver, which they never have.
  estimators: {
    ip: (id, target) => (id === 'cidr_ip' && target ? { cost: range.fixed(1) } : undefined),
    ...Object.fromEntries(['masked', 'prefixLength', 'family', 'isUnspecified', 'isLoopback', 'isLinkLocalMulticast', 'isLinkLocalUnicast'].map((n) => [n, nominal])),
    containsIP: containment(false),
    containsCIDR: containment(true),
  },
};
