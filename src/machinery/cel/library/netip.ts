/**
 * IP addresses and prefixes as Go's net/netip parses and prints them
 * (strict IPv4 without leading zeros, RFC 5952 IPv6 text), with the
 * classification methods Kubernetes' IP library exposes.
 */

export interface Addr {
  readonly bytes: Uint8Array;
  readonly zone: string;
}

export interface Prefix {
  readonly addr: Addr;
  readonly bits: number;
}

export class NetipError extends Error {}

function parseIPv4(s: string, whole: string): Uint8Array {
  const parts = s.split('.');
  if (parts.length !== 4) throw new NetipError(`ParseAddr(${JSON.stringify(whole)}): IPv4 address too ${parts.length < 4 ? 'short' : 'long'}`);
  return Uint8Array.from(parts, (p) => {
    if (!/^[0-9]{1,3}$/.test(p)) throw new NetipError(`ParseAddr(${JSON.stringify(whole)}): unexpected character`);
    if (p.length > 1 && p[0] === '0') throw new NetipError(`ParseAddr(${JSON.stringify(whole)}): IPv4 field has octet with leading zero`);
    const n = Number(p);
    if (n > 255) throw new NetipError(`ParseAddr(${JSON.stringify(whole)}): IPv4 field has value >255`);
    return n;
  });
}

function parseIPv6(s: string, whole: string): Uint8Array {
  const bad = () => new NetipError(`ParseAddr(${JSON.stringify(whole)}): unable to parse IP`);
  const halves = s.split('::');
  if (halves.length > 2) throw bad();
  const groups = (part: string): number[] => {
    if (part === '') return [];
    const out: number[] = [];
    const fields = part.split(':');
    fields.forEach((f, i) => {
      if (i === fields.length - 1 && f.includes('.')) {
        const v4 = parseIPv4(f, whole);
        out.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(f)) out.push(parseInt(f, 16));
      else throw bad();
    });
    return out;
  };
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  const fill = 8 - head.length - tail.length;
  if ((halves.length === 1 && fill !== 0) || (halves.length === 2 && fill < 1)) throw bad();
  const all = [...head, ...Array(halves.length === 2 ? fill : 0).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  all.forEach((g, i) => ((bytes[2 * i] = g >> 8), (bytes[2 * i + 1] = g & 0xff)));
  return bytes;
}

export function parseAddr(s: string): Addr {
  if (s === '') throw new NetipError('ParseAddr(""): unable to parse IP');
  if (s.includes(':')) {
    const pct = s.indexOf('%');
    const zone = pct >= 0 ? s.slice(pct + 1) : '';
    if (pct >= 0 && zone === '') throw new NetipError(`ParseAddr(${JSON.stringify(s)}): zone must be a non-empty string`);
    return { bytes: parseIPv6(pct >= 0 ? s.slice(0, pct) : s, s), zone };
  }
  return { bytes: parseIPv4(s, s), zone: '' };
}

export function parsePrefix(s: string): Prefix {
  const slash = s.lastIndexOf('/');
  if (slash < 0) throw new NetipError(`netip.ParsePrefix(${JSON.stringify(s)}): no '/'`);
  let addr: Addr;
  try {
    addr = parseAddr(s.slice(0, slash));
  } catch (err) {
    throw new NetipError(`netip.ParsePrefix(${JSON.stringify(s)}): ${(err as Error).message}`);
  }
  if (addr.zone) throw new NetipError(`netip.ParsePrefix(${JSON.stringify(s)}): IPv6 zones cannot be present in a prefix`);
  const b = s.slice(slash + 1);
  const max = addr.bytes.length * 8;
  if (!/^(0|[1-9][0-9]*)$/.test(b) || Number(b) > max) throw new NetipError(`netip.ParsePrefix(${JSON.stringify(s)}): bad bits after slash: ${JSON.stringify(b)}`);
  return { addr, bits: Number(b) };
}

export const is4 = (a: Addr) => a.bytes.length === 4;

export function is4In6(a: Addr): boolean {
  const b = a.bytes;
  return b.length === 16 && b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;
}

export function addrString(a: Addr): string {
  const b = a.bytes;
  if (b.length === 4) return Array.from(b).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => (b[2 * i] << 8) | b[2 * i + 1]);
  // the first longest run of two or more zero groups becomes ::
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) (best = i), (bestLen = j - i);
    i = j;
  }
  const hex = (g: number[]) => g.map((x) => x.toString(16)).join(':');
  const text = best < 0 ? hex(groups) : `${hex(groups.slice(0, best))}::${hex(groups.slice(best + bestLen))}`;
  return a.zone ? `${text}%${a.zone}` : text;
}

export const prefixString = (p: Prefix) => `${addrString(p.addr)}/${p.bits}`;

export function masked(p: Prefix): Prefix {
  const bytes = Uint8Array.from(p.addr.bytes, (x, i) => {
    const keep = Math.max(0, Math.min(8, p.bits - 8 * i));
    return x & ((0xff << (8 - keep)) & 0xff);
  });
  return { addr: { bytes, zone: '' }, bits: p.bits };
}

export function containsAddr(p: Prefix, a: Addr): boolean {
  if (a.bytes.length !== p.addr.bytes.length || a.zone) return false;
  const m = masked(p).addr.bytes;
  const x = masked({ addr: a, bits: p.bits }).addr.bytes;
  return m.every((v, i) => v === x[i]);
}

export const containsPrefix = (p: Prefix, other: Prefix) => p.bits <= other.bits && containsAddr(p, other.addr);

export function isUnspecified(a: Addr): boolean {
  return a.bytes.every((x) => x === 0);
}

export function isLoopback(a: Addr): boolean {
  const b = a.bytes;
  return is4(a) ? b[0] === 127 : b.slice(0, 15).every((x) => x === 0) && b[15] === 1;
}

export function isMulticast(a: Addr): boolean {
  return is4(a) ? (a.bytes[0] & 0xf0) === 0xe0 : a.bytes[0] === 0xff;
}

export function isLinkLocalMulticast(a: Addr): boolean {
  const b = a.bytes;
  return is4(a) ? b[0] === 224 && b[1] === 0 && b[2] === 0 : b[0] === 0xff && (b[1] & 0x0f) === 0x02;
}

export function isLinkLocalUnicast(a: Addr): boolean {
  const b = a.bytes;
  return is4(a) ? b[0] === 169 && b[1] === 254 : b[0] === 0xfe && (b[1] & 0xc0) === 0x80;
}

export function isGlobalUnicast(a: Addr): boolean {
  if (is4(a) && a.bytes.every((x) => x === 255)) return false;
  return !isUnspecified(a) && !isLoopback(a) && !isMulticast(a) && !isLinkLocalUnicast(a);
}
